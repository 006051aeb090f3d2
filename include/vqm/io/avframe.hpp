// Frames you decoded yourself with FFmpeg's libraries (an AVFrame), handed to vqm (component vqm::ffmpeg):
//
//   const vqm::picture_view r = vqm::io::view_of(*ref_frame, "ref.mp4 frame 12");  // no copy
//   s.push(r, vqm::io::view_of(*dis_frame, "dis.mp4 frame 12"));
//
// view_of(frame) is a view of the frame's planes, valid while the frame holds its buffers (until
// av_frame_unref, or until the decoder writes its next frame into it). A session reads a pushed pair until
// depth() more pairs have been pushed or finish() has returned: keep that many frames referenced
// (av_frame_ref), or hand over picture_of(frame), a copy into a vqm::picture that owns its samples.
//
// Software frames in the pixel formats vqm measures: planar YUV 4:2:0, 4:2:2, 4:4:4 or gray at 8, 10, 12
// or 16 bits, little-endian, and the semi-planar ones decoders and captures produce (nv12, nv21, nv16,
// nv24, p010, p016, p210, p410, ...: viewed as stored, the backends split them). Rows may be padded
// (linesize) or bottom-up (negative linesize). Anything else is an error of one line naming `what`, the
// pixel format and the ffmpeg -pix_fmt to convert to; a hardware frame (hw_frames_ctx) says to download
// it first with av_hwframe_transfer_data(). Both check every sample against the bit depth (a 10-bit
// frame whose samples exceed 1023 would make the metrics' sums overflow): errc::bad_input naming the
// plane, position and value.
#pragma once

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
}

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "vqm/error.hpp"
#include "vqm/io/ffmpeg_detail.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

// The picture format of a decoded software frame (size, chroma format, depth, semi-planar layout), or
// errc::unsupported_format naming `what` and the conversion to ask FFmpeg for.
[[nodiscard]] inline picture_format format_of(const AVFrame& f, std::string_view what = "frame") {
  const std::string w(what);
  const auto* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(f.format));
  if (f.hw_frames_ctx || (d && (d->flags & AV_PIX_FMT_FLAG_HWACCEL)))
    throw error(errc::unsupported_format,
                w + ": is a hardware frame (" + ffmpeg_detail::pix_fmt_name(f.format) +
                    "); download it to memory first with av_hwframe_transfer_data(), then pass the software frame" +
                    (f.format == AV_PIX_FMT_VULKAN ? " (or score it on the GPU: vqm::io::gpu_picture_of, vqm/io/avvkframe.hpp)"
                                                   : ""));
  if (!f.data[0])
    throw error(errc::invalid_argument, w + ": the frame holds no picture (data[0] is null: a frame before "
                                            "avcodec_receive_frame() filled it, or after av_frame_unref())");
  const auto stored = ffmpeg_detail::stored_format(static_cast<AVPixelFormat>(f.format));
  if (!stored) {
    const std::string to = ffmpeg_detail::suggested_pix_fmt(static_cast<AVPixelFormat>(f.format));
    throw error(errc::unsupported_format, w + ": pixel format " + ffmpeg_detail::pix_fmt_name(f.format) +
                                              " is not supported (vqm measures planar or semi-planar YUV or gray at 8, "
                                              "10, 12 or 16 bits); convert it to " + to +
                                              " first (libswscale, or the ffmpeg filter format=" + to + ")");
  }
  picture_format pf = *stored;
  pf.width = static_cast<std::uint32_t>(f.width > 0 ? f.width : 0);
  pf.height = static_cast<std::uint32_t>(f.height > 0 ? f.height : 0);
  check_geometry(w, pf);
  return pf;
}

namespace avframe_detail {

[[nodiscard]] inline picture_view unchecked_view(const AVFrame& f, const picture_format& pf, const std::string& what) {
  picture_view v{pf, {}};
  const std::size_t bps = pf.bytes_per_sample();
  for (int p = 0; p < pf.stored_planes(); ++p) {
    const std::size_t row = std::size_t{pf.stored_width(p)} * bps;
    if (!f.data[p] || static_cast<std::size_t>(std::abs(f.linesize[p])) < row)
      throw error(errc::invalid_argument, what + ": plane " + std::to_string(p) + " has linesize " +
                                              std::to_string(f.linesize[p]) + ", less than its " + std::to_string(row) +
                                              "-byte rows (a frame whose data does not match its format)");
    v.planes[p] = plane_view{reinterpret_cast<const std::byte*>(f.data[p]), f.linesize[p], pf.plane_width(p),
                             pf.plane_height(p)};
  }
  return v;
}

inline void check_samples(const picture_view& v, const std::string& what) {
  if (const auto bad = find_sample_out_of_range(v))
    throw error(errc::bad_input, what + ": " + describe(*bad, v.format.bit_depth) +
                                     " (the frame's samples do not fit its pixel format)");
}

}  // namespace avframe_detail

// A view of the frame's planes (no copy), valid while the frame holds its buffers.
[[nodiscard]] inline picture_view view_of(const AVFrame& f, std::string_view what = "frame") {
  const std::string w(what);
  const auto v = avframe_detail::unchecked_view(f, format_of(f, what), w);
  avframe_detail::check_samples(v, w);
  return v;
}

// A copy of the frame's planes that owns its samples (tightly packed rows, as vqm's readers deliver).
[[nodiscard]] inline picture picture_of(const AVFrame& f, std::string_view what = "frame") {
  const std::string w(what);
  const auto v = avframe_detail::unchecked_view(f, format_of(f, what), w);
  picture pic(v.format);
  const std::size_t bps = v.format.bytes_per_sample();
  for (int p = 0; p < v.format.stored_planes(); ++p) {
    const std::size_t row = std::size_t{v.format.stored_width(p)} * bps;
    for (std::uint32_t y = 0; y < v.planes[p].height; ++y)
      std::memcpy(pic.row<std::byte>(p, y), v.planes[p].row<std::byte>(y), row);
  }
  avframe_detail::check_samples(pic.view(), w);
  return pic;
}

}  // namespace vqm::io
