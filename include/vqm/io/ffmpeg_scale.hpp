// ffmpeg_scale: resizing of vqm pictures with libswscale (every plane; the chroma format and bit depth
// are kept), and a frame_source that scales the frames of another. Part of the optional vqm::ffmpeg
// component (links libswscale); the core does not depend on it.
//
// The samples are those of `ffmpeg -vf scale=W:H:flags=MODE+accurate_rnd+bitexact:in_range=tv:out_range=tv`
// (ffmpeg_scale_filter() writes that filter; docs/scaling.md says why each part is there). accurate_rnd
// and bitexact make libswscale round as its C code does, so the samples do not depend on the CPU's SIMD.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

extern "C" {
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include "vqm/error.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

// libswscale's filters, by the names `ffmpeg -vf scale=...:flags=NAME` gives them.
enum class scale_mode : std::uint8_t { bicubic, bilinear, lanczos, neighbor, area, spline };

struct scale_mode_info {
  scale_mode mode;
  const char* name;
  int sws_flag;
  const char* what;  // for help texts
};

inline constexpr std::array<scale_mode_info, 6> scale_modes{{
    {scale_mode::bicubic, "bicubic", SWS_BICUBIC, "bicubic (B=0, C=0.6)"},
    {scale_mode::bilinear, "bilinear", SWS_BILINEAR, "bilinear"},
    {scale_mode::lanczos, "lanczos", SWS_LANCZOS, "Lanczos, 3 lobes"},
    {scale_mode::neighbor, "neighbor", SWS_POINT, "nearest neighbour"},
    {scale_mode::area, "area", SWS_AREA, "area averaging"},
    {scale_mode::spline, "spline", SWS_SPLINE, "natural bicubic spline"},
}};

// Added to every mode: libswscale's exact C rounding, the same on every CPU (without them its SIMD
// code rounds intermediate sums differently from one instruction set to another).
inline constexpr int scale_extra_flags = SWS_ACCURATE_RND | SWS_BITEXACT;

[[nodiscard]] inline const char* to_string(scale_mode m) noexcept {
  for (const auto& i : scale_modes)
    if (i.mode == m) return i.name;
  return "?";
}

// "bicubic, bilinear, lanczos, neighbor, area, spline"
[[nodiscard]] inline std::string scale_mode_names() {
  std::string s;
  for (const auto& i : scale_modes) {
    if (!s.empty()) s += ", ";
    s += i.name;
  }
  return s;
}

[[nodiscard]] inline std::optional<scale_mode> parse_scale_mode(std::string_view name) noexcept {
  for (const auto& i : scale_modes)
    if (name == i.name) return i.mode;
  return std::nullopt;
}

// The libswscale flags vqm uses for a mode.
[[nodiscard]] inline int sws_flags(scale_mode m) noexcept {
  for (const auto& i : scale_modes)
    if (i.mode == m) return i.sws_flag | scale_extra_flags;
  return SWS_BICUBIC | scale_extra_flags;
}

// The filter for `ffmpeg -vf` that gives the same samples as vqm's scaler (FFmpeg 5.1's vf_scale).
// in_range/out_range: the samples are scaled as stored, never converted between limited and full range
// (vf_scale would convert a frame tagged full-range, e.g. a Y4M with XCOLORRANGE=FULL).
[[nodiscard]] inline std::string ffmpeg_scale_filter(std::uint32_t width, std::uint32_t height, scale_mode m) {
  std::string s = "scale=";
  s += std::to_string(width);
  s += ':';
  s += std::to_string(height);
  s += ":flags=";
  s += to_string(m);
  s += "+accurate_rnd+bitexact:in_range=tv:out_range=tv";
  return s;
}

namespace ffmpeg_detail {

// The planar pixel format of a vqm picture format; AV_PIX_FMT_NONE for depths libswscale lacks (11, 13, 15).
[[nodiscard]] inline AVPixelFormat sws_pixel_format(const picture_format& f) {
  std::string name = f.chroma == chroma_format::yuv400   ? "gray"
                     : f.chroma == chroma_format::yuv420 ? "yuv420p"
                     : f.chroma == chroma_format::yuv422 ? "yuv422p"
                                                         : "yuv444p";
  if (f.bit_depth > 8) {
    name += std::to_string(f.bit_depth);
    name += std::endian::native == std::endian::little ? "le" : "be";  // vqm keeps samples in host order
  }
  const AVPixelFormat fmt = av_get_pix_fmt(name.c_str());
  if (fmt == AV_PIX_FMT_NONE || !sws_isSupportedInput(fmt) || !sws_isSupportedOutput(fmt)) return AV_PIX_FMT_NONE;
  return fmt;
}

struct sws_closer {
  void operator()(SwsContext* c) const noexcept { sws_freeContext(c); }
};
struct av_freer {
  void operator()(void* p) const noexcept { av_free(p); }
};

// Planes in one av_malloc'ed block with 64-byte aligned rows and slack after the last, as FFmpeg's own
// frames have: libswscale's SIMD code may read a little past a row's end.
class plane_buffer {
 public:
  void reset(const picture_format& f, const std::string& what) {
    std::size_t off = 0;
    for (int p = 0; p < f.planes(); ++p) {
      const std::size_t row = std::size_t{f.plane_width(p)} * f.bytes_per_sample();
      linesize_[p] = static_cast<int>((row + 63) & ~std::size_t{63});
      offset_[p] = off;
      off += static_cast<std::size_t>(linesize_[p]) * f.plane_height(p);
    }
    data_.reset(static_cast<std::uint8_t*>(av_mallocz(off + 256)));
    if (!data_) throw error(errc::io, what + ": out of memory (scaling buffer of " + std::to_string(off) + " bytes)");
    for (int p = 0; p < 4; ++p) ptr_[p] = p < f.planes() ? data_.get() + offset_[p] : nullptr;
    format_ = f;
  }

  // Copies a picture in (rows of the format's plane sizes).
  void load(const picture_view& v) {
    const std::size_t bps = format_.bytes_per_sample();
    for (int p = 0; p < format_.planes(); ++p) {
      const std::size_t row = std::size_t{format_.plane_width(p)} * bps;
      for (std::uint32_t y = 0; y < format_.plane_height(p); ++y)
        std::memcpy(ptr_[p] + static_cast<std::ptrdiff_t>(y) * linesize_[p], v.planes[p].row<std::byte>(y), row);
    }
  }

  void store(picture& out) const {
    const std::size_t bps = format_.bytes_per_sample();
    for (int p = 0; p < format_.planes(); ++p) {
      const std::size_t row = std::size_t{format_.plane_width(p)} * bps;
      for (std::uint32_t y = 0; y < format_.plane_height(p); ++y)
        std::memcpy(out.row<std::byte>(p, y), ptr_[p] + static_cast<std::ptrdiff_t>(y) * linesize_[p], row);
    }
  }

  [[nodiscard]] std::uint8_t* const* planes() const noexcept { return ptr_.data(); }
  [[nodiscard]] const int* linesizes() const noexcept { return linesize_.data(); }

 private:
  picture_format format_{};
  std::unique_ptr<std::uint8_t, av_freer> data_;
  std::array<std::uint8_t*, 4> ptr_{};
  std::array<int, 4> linesize_{};
  std::array<std::size_t, 4> offset_{};
};

}  // namespace ffmpeg_detail

// Scales pictures of one format to another size (same chroma format and bit depth) with libswscale.
// The context and both buffers are made once; scale() allocates nothing unless `out` has another format.
class picture_scaler {
 public:
  // `what` names the input in messages (a file).
  picture_scaler(const picture_format& in, std::uint32_t width, std::uint32_t height, scale_mode mode,
                 std::string what = "scaler")
      : what_(std::move(what)), in_(in), mode_(mode) {
    namespace fd = ffmpeg_detail;
    out_ = in;
    out_.width = width;
    out_.height = height;
    check_geometry(what_ + ": scaled size", out_);
    check_geometry(what_, in_);
    const AVPixelFormat fmt = fd::sws_pixel_format(in_);
    if (fmt == AV_PIX_FMT_NONE)
      throw error(errc::unsupported_format,
                  what_ + ": cannot scale " + describe(in_) +
                      " pictures: libswscale has no format for them (it scales 8, 9, 10, 12, 14 and 16 bits)");
    sws_.reset(sws_getContext(static_cast<int>(in_.width), static_cast<int>(in_.height), fmt,
                              static_cast<int>(width), static_cast<int>(height), fmt, sws_flags(mode), nullptr,
                              nullptr, nullptr));
    if (!sws_)
      throw error(errc::unsupported_format, what_ + ": libswscale cannot scale " + describe(in_) + " to " +
                                                std::to_string(width) + "x" + std::to_string(height) + " (" +
                                                to_string(mode) + ")");
    src_.reset(in_, what_);
    dst_.reset(out_, what_);
  }

  [[nodiscard]] const picture_format& input_format() const noexcept { return in_; }
  [[nodiscard]] const picture_format& output_format() const noexcept { return out_; }
  [[nodiscard]] scale_mode mode() const noexcept { return mode_; }

  // `in` must have input_format() and its plane sizes; `out` is reset to output_format() when needed.
  void scale(const picture_view& in, picture& out) {
    if (!(in.format == in_))
      throw error(errc::mismatch, what_ + ": cannot scale a " + describe(in.format) + " picture with a scaler made for " +
                                      describe(in_));
    for (int p = 0; p < in_.planes(); ++p)
      if (in.planes[p].width != in_.plane_width(p) || in.planes[p].height != in_.plane_height(p) || !in.planes[p].data)
        throw error(errc::mismatch, what_ + ": plane " + std::to_string(p) + " of the picture to scale is " +
                                        std::to_string(in.planes[p].width) + "x" + std::to_string(in.planes[p].height) +
                                        ", not the format's size");
    src_.load(in);
    const int h = sws_scale(sws_.get(), src_.planes(), src_.linesizes(), 0, static_cast<int>(in_.height),
                            dst_.planes(), dst_.linesizes());
    if (h != static_cast<int>(out_.height)) {
      std::string why = what_ + ": libswscale failed to scale a " + describe(in_) + " picture to ";
      why += std::to_string(out_.width) + "x" + std::to_string(out_.height);
      why += h < 0 ? ": " : ": it wrote ";
      why += h < 0 ? av_error(h) : std::to_string(h) + " rows";
      throw error(errc::io, why);
    }
    if (!(out.format() == out_) || out.bytes().size() != out_.frame_bytes()) out.reset(out_);
    dst_.store(out);
  }

 private:
  [[nodiscard]] static std::string av_error(int rc) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(rc, buf, sizeof buf);
    return buf;
  }

  std::string what_;
  picture_format in_{}, out_{};
  scale_mode mode_;
  std::unique_ptr<SwsContext, ffmpeg_detail::sws_closer> sws_;
  ffmpeg_detail::plane_buffer src_, dst_;
};

// A frame_source whose frames are those of `inner` scaled to width x height (path, frame counts and
// hints are the inner source's).
class scaled_source final : public frame_source {
 public:
  scaled_source(std::unique_ptr<frame_source> inner, std::uint32_t width, std::uint32_t height, scale_mode mode)
      : inner_(checked(std::move(inner))), scaler_(inner_->format(), width, height, mode, inner_->path()) {}

  [[nodiscard]] const picture_format& format() const noexcept override { return scaler_.output_format(); }
  [[nodiscard]] const std::string& path() const noexcept override { return inner_->path(); }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return inner_->frames_read(); }
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override {
    return inner_->frame_count_hint();
  }
  [[nodiscard]] const frame_source& inner() const noexcept { return *inner_; }
  [[nodiscard]] const picture_scaler& scaler() const noexcept { return scaler_; }

  bool read(picture& pic) override {
    if (!inner_->read(frame_)) return false;
    if (!(frame_.format() == scaler_.input_format()))  // a reader must keep its format; say which frame did not
      throw error(errc::bad_input, path() + ": frame " + std::to_string(inner_->frames_read() - 1) + " is " +
                                       describe(frame_.format()) + ", not " + describe(scaler_.input_format()) +
                                       " as the first frames (cannot scale it)");
    scaler_.scale(frame_, pic);
    return true;
  }

  bool skip() override { return inner_->skip(); }
  [[nodiscard]] bool skips_by_seeking() const noexcept override { return inner_->skips_by_seeking(); }

 private:
  static std::unique_ptr<frame_source> checked(std::unique_ptr<frame_source> s) {
    if (!s) throw error(errc::invalid_argument, "make_scaled_source: no input to scale");
    return s;
  }

  std::unique_ptr<frame_source> inner_;
  picture_scaler scaler_;
  picture frame_;  // the inner source's frame, reused
};

// `inner`'s frames scaled to width x height with `mode`; `inner` itself when it has that size already.
[[nodiscard]] inline std::unique_ptr<frame_source> make_scaled_source(std::unique_ptr<frame_source> inner,
                                                                      std::uint32_t width, std::uint32_t height,
                                                                      scale_mode mode) {
  if (inner && inner->format().width == width && inner->format().height == height) return inner;
  return std::make_unique<scaled_source>(std::move(inner), width, height, mode);
}

}  // namespace vqm::io
