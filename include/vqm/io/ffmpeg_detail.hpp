// ffmpeg_detail: the helpers of ffmpeg_reader that do not need the reader (FFmpeg's error text and log,
// the pixel formats vqm measures, the closers of FFmpeg's objects), and capture_ffmpeg_log(). Part of the
// optional vqm::ffmpeg component.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include <poll.h>
#include <sys/types.h>
#include <unistd.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

#include "vqm/picture.hpp"

namespace vqm::io {
namespace ffmpeg_detail {

[[nodiscard]] inline std::string av_error_text(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, buf, sizeof buf);
  return buf;
}

// The last error FFmpeg logged (when vqm captures the log, see capture_ffmpeg_log), to complete a
// message whose return code alone says little ("Invalid data found when processing input").
struct log_state {
  std::mutex mutex;
  std::string last_error;
};
inline log_state& log_store() {
  static log_state s;
  return s;
}

inline void log_callback(void* avcl, int level, const char* fmt, va_list vl) {
  if (level > AV_LOG_ERROR) return;
  char line[512];
  int print_prefix = 0;  // no "[h264 @ 0x55...]": the message names the file already
  av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
  std::string s(line);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.empty()) return;
  std::lock_guard lock(log_store().mutex);
  log_store().last_error = std::move(s);
}

[[nodiscard]] inline std::string take_last_log() {
  std::lock_guard lock(log_store().mutex);
  return std::exchange(log_store().last_error, std::string());
}

// Formats vqm measures, as the decoder stores them: planar YUV or gray, or semi-planar (nv12, nv21, nv16,
// nv24, nv20, p010, p012, p016, p210, p410, ...: one plane of interleaved chroma pairs, samples LSB- or
// MSB-aligned in 16-bit words), at 8, 10, 12 or 16 bits; chroma format, depth and storage (width and
// height 0), or nothing. Semi-planar frames are handed over as they are: the backends split them.
[[nodiscard]] inline std::optional<picture_format> stored_format(AVPixelFormat fmt) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  if (!d) return std::nullopt;
  constexpr auto refused = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_HWACCEL |
                           AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BITSTREAM;
  if (d->flags & refused) return std::nullopt;
  if (d->nb_components != 1 && d->nb_components != 3) return std::nullopt;
  const int depth = d->comp[0].depth, shift = d->comp[0].shift;
  if (depth != 8 && depth != 10 && depth != 12 && depth != 16) return std::nullopt;
  const int bytes = depth + shift > 8 ? 2 : 1;
  if (bytes == 2 && depth + shift != 16 && shift != 0) return std::nullopt;
  picture_format f;
  f.bit_depth = static_cast<std::uint32_t>(depth);
  f.msb_shift = static_cast<std::uint32_t>(shift);
  f.chroma = chroma_format::yuv400;
  const bool semi = d->nb_components == 3 && d->comp[1].plane == 1 && d->comp[2].plane == 1;
  if (semi) f.layout = d->comp[1].offset == 0 ? chroma_layout::uv : chroma_layout::vu;
  for (int i = 0; i < d->nb_components; ++i) {
    const auto& c = d->comp[i];
    const bool interleaved = semi && i > 0;
    const int plane = interleaved ? 1 : i;
    const int step = interleaved ? 2 * bytes : bytes;
    const int offset = !interleaved || ((i == 1) == (f.layout == chroma_layout::uv)) ? 0 : bytes;
    if (c.plane != plane || c.step != step || c.offset != offset || c.shift != shift || c.depth != depth)
      return std::nullopt;
  }
  if (d->nb_components == 3) {
    if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1) f.chroma = chroma_format::yuv420;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0) f.chroma = chroma_format::yuv422;
    else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0) f.chroma = chroma_format::yuv444;
    else return std::nullopt;
  }
  return f;
}

// The planar format to convert an unsupported one to (keeping its chroma resolution and depth where
// vqm can): what `ffmpeg -pix_fmt` should be given.
[[nodiscard]] inline std::string suggested_pix_fmt(AVPixelFormat fmt) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  int depth = 8;
  std::string base = "yuv444p";
  if (d) {
    for (int i = 0; i < d->nb_components; ++i) depth = std::max(depth, static_cast<int>(d->comp[i].depth));
    const bool gray = !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)) &&
                      d->nb_components <= 2;  // gray, gray + alpha
    if (gray) base = "gray";
    else if (!(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER))) {
      if (d->log2_chroma_w >= 1 && d->log2_chroma_h >= 1) base = "yuv420p";
      else if (d->log2_chroma_w >= 1) base = "yuv422p";
      else base = "yuv444p";  // 4:4:4 and 4:4:0
    }
  }
  const int out_depth = depth <= 8 ? 8 : depth <= 10 ? 10 : depth <= 12 ? 12 : 16;
  if (out_depth == 8) return base;
  if (base == "gray") return "gray" + std::to_string(out_depth) + "le";
  return base + std::to_string(out_depth) + "le";
}

[[nodiscard]] inline std::string pix_fmt_name(int fmt) {
  const char* n = av_get_pix_fmt_name(static_cast<AVPixelFormat>(fmt));
  return n ? n : "unknown (" + std::to_string(fmt) + ")";
}

// What the file holds ("audio flac, data bin_data"), for a message.
[[nodiscard]] inline std::string stream_summary(const AVFormatContext& f) {
  if (f.nb_streams == 0) return "no streams";
  std::string s;
  for (unsigned i = 0; i < f.nb_streams; ++i) {
    const auto* p = f.streams[i]->codecpar;
    const char* type = av_get_media_type_string(p->codec_type);
    s += (s.empty() ? "" : ", ") + std::string(type ? type : "data") + " " + avcodec_get_name(p->codec_id);
  }
  return s;
}

// AVIO over a file vqm opened: the bytes already read (the format sniff) first, then the descriptor, a
// poll at a time so a reader being destroyed (*stopping) does not wait for a writer that never comes.
struct fd_input {
  int fd = -1;
  std::string consumed;
  std::size_t consumed_at = 0;
  const std::atomic<bool>* stopping = nullptr;

  static int read_packet(void* opaque, std::uint8_t* buf, int size) {
    auto* self = static_cast<fd_input*>(opaque);
    if (!self->consumed.empty()) {
      const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(size), self->consumed.size() - self->consumed_at);
      std::memcpy(buf, self->consumed.data() + self->consumed_at, n);
      self->consumed_at += n;
      if (self->consumed_at == self->consumed.size()) self->consumed.clear(), self->consumed_at = 0;
      return static_cast<int>(n);
    }
    for (;;) {
      if (self->stopping && self->stopping->load(std::memory_order_relaxed)) return AVERROR_EXIT;
      pollfd p{self->fd, POLLIN, 0};
      const int pr = ::poll(&p, 1, 100);
      if (pr < 0 && errno != EINTR) return AVERROR(errno);
      if (pr <= 0) continue;
      const ssize_t n = ::read(self->fd, buf, static_cast<std::size_t>(size));
      if (n > 0) return static_cast<int>(n);
      if (n == 0) return AVERROR_EOF;
      if (errno == EINTR || errno == EAGAIN) continue;
      return AVERROR(errno);
    }
  }

  static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
    const int fd = static_cast<fd_input*>(opaque)->fd;
    if (whence & AVSEEK_SIZE) {
      const off_t cur = ::lseek(fd, 0, SEEK_CUR);
      const off_t end = ::lseek(fd, 0, SEEK_END);
      ::lseek(fd, cur, SEEK_SET);
      return end < 0 ? AVERROR(errno) : static_cast<std::int64_t>(end);
    }
    const off_t r = ::lseek(fd, static_cast<off_t>(offset), whence & ~AVSEEK_FORCE);
    return r < 0 ? AVERROR(errno) : static_cast<std::int64_t>(r);
  }
};

// Why frame 0's pixel format is refused, and the conversion to use.
[[nodiscard]] inline std::string unsupported_pix_fmt(const std::string& path, int fmt) {
  const std::string to = suggested_pix_fmt(static_cast<AVPixelFormat>(fmt));
  return "pixel format " + pix_fmt_name(fmt) +
         " is not supported (vqm reads planar or semi-planar YUV 4:2:0, 4:2:2, 4:4:4 or gray at 8, 10, 12 or 16 "
         "bits); convert it with ffmpeg -pix_fmt " + to + ", e.g. ffmpeg -i " + path + " -pix_fmt " + to +
         " -strict -1 -f yuv4mpegpipe out.y4m";
}

// Why a frame whose size or pixel format differs from the first ones (`was`, stored as `was_fmt`) is refused.
[[nodiscard]] inline std::string format_change(const picture_format& was, int was_fmt, const AVFrame& f) {
  const std::string w = std::to_string(was.width), h = std::to_string(was.height);
  return "the stream changes from " + w + "x" + h + " " + pix_fmt_name(was_fmt) + " to " + std::to_string(f.width) +
         "x" + std::to_string(f.height) + " " + pix_fmt_name(f.format) +
         " mid-way (vqm measures one size and pixel format per input; split it, or convert the whole stream with "
         "ffmpeg -vf scale=" + w + ":" + h + " -pix_fmt " + pix_fmt_name(was_fmt) + ")";
}

struct format_closer {
  void operator()(AVFormatContext* c) const noexcept { avformat_close_input(&c); }
};
struct codec_closer {
  void operator()(AVCodecContext* c) const noexcept { avcodec_free_context(&c); }
};
struct packet_closer {
  void operator()(AVPacket* p) const noexcept { av_packet_free(&p); }
};
struct frame_closer {
  void operator()(AVFrame* f) const noexcept { av_frame_free(&f); }
};
struct avio_closer {
  void operator()(AVIOContext* c) const noexcept {
    if (!c) return;
    av_freep(&c->buffer);
    avio_context_free(&c);
  }
};

}  // namespace ffmpeg_detail

// Route FFmpeg's log through vqm: nothing is printed, the last error is kept to complete vqm's one-line
// messages. Process-wide (FFmpeg's log is); the CLI calls it, a library user may not want to.
inline void capture_ffmpeg_log() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_callback(&ffmpeg_detail::log_callback); });
}

}  // namespace vqm::io
