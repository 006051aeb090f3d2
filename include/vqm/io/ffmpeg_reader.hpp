// ffmpeg_reader: a frame_source that decodes the first video stream of any file, URL or pipe that
// FFmpeg's libavformat opens, with any decoder libavcodec has (H.264, HEVC, VP9, AV1, MPEG-2, ProRes,
// FFV1, ...). Part of the optional vqm::ffmpeg component (links libavformat, libavcodec, libavutil);
// the core and the backends do not depend on it.
//
// Decoding runs on a thread of its own per reader (plus libavcodec's frame/slice threads), a few frames
// ahead of the caller, so a reference and a distorted reader decode in parallel and overlap scoring.
// Each decoded frame is copied once, on the decoding thread, into a pooled vqm::picture; read() hands
// that picture over by swapping buffers (no copy on the caller's thread).
//
// Accepted: planar YUV 4:2:0 / 4:2:2 / 4:4:4 and gray, 8, 10, 12 or 16 bits (yuvj* full-range formats
// too: samples are measured as stored, as libvmaf does), and semi-planar frames (nv12, nv21, nv16,
// nv24, p010, p012, p016, ...), handed over as they are (the backends split them, P01x at true depth). Anything else is an error that names the
// pixel format and the `ffmpeg -pix_fmt` conversion to use. Corrupt data is an error naming the frame
// (libavcodec's AV_EF_EXPLODE, and frames the decoder flags as corrupt or concealed), unless
// ffmpeg_options::conceal_errors is set, which accepts what the decoder conceals, as `ffmpeg` does.
// A stream whose size or pixel format changes mid-way is an error naming the frame.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

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

#include "vqm/error.hpp"
#include "vqm/io/file.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

struct ffmpeg_options {
  int threads = 0;              // libavcodec threads (0: as many as it likes)
  std::size_t queue_frames = 3; // decoded frames kept ready ahead of read()
  bool conceal_errors = false;  // accept frames the decoder concealed errors in (default: an error)
};

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

class ffmpeg_reader final : public frame_source {
 public:
  // Opens `url` (a file or anything libavformat opens) itself.
  explicit ffmpeg_reader(std::string url, ffmpeg_options opt = {}) : path_(std::move(url)), opt_(opt) {
    open(nullptr);
  }

  // Reads an input vqm has already opened, once and front to back (a pipe, standard input), or a
  // regular file (seekable). `consumed`: the bytes already read from a non-seekable input (the
  // format sniff), served before the rest.
  ffmpeg_reader(std::string path, opened_file file, std::string consumed, ffmpeg_options opt = {})
      : path_(std::move(path)), opt_(opt), file_(std::move(file.file)), regular_(file.regular),
        consumed_(std::move(consumed)) {
    fd_ = ::fileno(file_.get());
    if (regular_) {
      if (::lseek(fd_, 0, SEEK_SET) < 0) regular_ = false;  // a seekable-looking file that is not
      else consumed_.clear();
    }
    open(file_.get());
  }

  ffmpeg_reader(const ffmpeg_reader&) = delete;
  ffmpeg_reader& operator=(const ffmpeg_reader&) = delete;
  ~ffmpeg_reader() override { stop(); }

  [[nodiscard]] const picture_format& format() const noexcept override { return format_; }
  [[nodiscard]] const std::string& path() const noexcept override { return path_; }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return frames_; }
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override { return hint_; }
  // The decoder's name and the input's pixel format ("h264, yuv420p"), for notes.
  [[nodiscard]] const std::string& description() const noexcept { return description_; }

  bool read(picture& pic) override {
    picture got;
    if (!pop(got)) return false;
    std::swap(pic, got);
    recycle(std::move(got));
    ++frames_;
    return true;
  }

  bool skip() override {
    picture got;
    if (!pop(got)) return false;
    recycle(std::move(got));
    ++frames_;
    return true;
  }

 private:
  static constexpr int avio_buffer_size = 1 << 16;

  [[nodiscard]] std::string where(std::size_t frame) const { return path_ + ": frame " + std::to_string(frame); }

  void open(std::FILE* file) {
    namespace fd = ffmpeg_detail;
    AVFormatContext* raw = avformat_alloc_context();
    if (!raw) throw error(errc::io, path_ + ": out of memory (avformat_alloc_context)");
    raw->interrupt_callback.callback = [](void* self) -> int {
      return static_cast<ffmpeg_reader*>(self)->stopping_.load(std::memory_order_relaxed) ? 1 : 0;
    };
    raw->interrupt_callback.opaque = this;
    if (file) {
      auto* buf = static_cast<unsigned char*>(av_malloc(avio_buffer_size));
      if (!buf) {
        avformat_free_context(raw);
        throw error(errc::io, path_ + ": out of memory (avio buffer)");
      }
      avio_.reset(avio_alloc_context(buf, avio_buffer_size, 0, this, &ffmpeg_reader::read_packet, nullptr,
                                     regular_ ? &ffmpeg_reader::seek : nullptr));
      if (!avio_) {
        av_free(buf);
        avformat_free_context(raw);
        throw error(errc::io, path_ + ": out of memory (avio context)");
      }
      if (!regular_) avio_->seekable = 0;
      raw->pb = avio_.get();
      raw->flags |= AVFMT_FLAG_CUSTOM_IO;
    }
    (void)fd::take_last_log();
    // On failure avformat_open_input frees the context.
    if (const int rc = avformat_open_input(&raw, path_.c_str(), nullptr, nullptr); rc < 0) {
      std::string why = fd::av_error_text(rc);
      if (const auto l = fd::take_last_log(); !l.empty()) why += "; " + l;
      std::string hint = " (not a video file FFmpeg can read, or a damaged one)";
      if (file && !regular_)
        hint = " (read from a pipe, which cannot seek: an MP4/MOV needs its index first, ffmpeg -movflags +faststart, "
               "or send a streamable format: -f matroska, -f mpegts, -f nut or -f yuv4mpegpipe)";
      else if (!file && rc == AVERROR(ENOENT))
        hint = " (check the path)";
      throw error(errc::io, path_ + ": FFmpeg cannot open it: " + why + hint);
    }
    fmt_.reset(raw);
    if (const int rc = avformat_find_stream_info(fmt_.get(), nullptr); rc < 0)
      throw error(errc::bad_input, path_ + ": FFmpeg cannot read its streams: " + fd::av_error_text(rc));
    const AVCodec* codec = nullptr;
    stream_ = av_find_best_stream(fmt_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream_ == AVERROR_STREAM_NOT_FOUND)
      throw error(errc::bad_input, path_ + ": no video stream (the file holds " + stream_summary() + ")");
    if (stream_ < 0 || !codec) {
      const AVStream* s = nullptr;
      for (unsigned i = 0; i < fmt_->nb_streams; ++i)
        if (fmt_->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) s = fmt_->streams[i];
      const char* name = s ? avcodec_get_name(s->codecpar->codec_id) : "unknown";
      throw error(errc::unsupported_format,
                  path_ + ": no decoder for its video stream (codec " + name + ") in this FFmpeg build");
    }
    AVStream* st = fmt_->streams[stream_];
    for (unsigned i = 0; i < fmt_->nb_streams; ++i)
      if (static_cast<int>(i) != stream_) fmt_->streams[i]->discard = AVDISCARD_ALL;  // demux video only
    dec_.reset(avcodec_alloc_context3(codec));
    if (!dec_) throw error(errc::io, path_ + ": out of memory (avcodec_alloc_context3)");
    if (const int rc = avcodec_parameters_to_context(dec_.get(), st->codecpar); rc < 0)
      throw error(errc::bad_input, path_ + ": bad codec parameters: " + fd::av_error_text(rc));
    dec_->pkt_timebase = st->time_base;
    dec_->thread_count = opt_.threads;
    dec_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    if (!opt_.conceal_errors) dec_->err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM;
    if (const int rc = avcodec_open2(dec_.get(), codec, nullptr); rc < 0)
      throw error(errc::unsupported_format,
                  path_ + ": cannot open the " + codec->name + " decoder: " + fd::av_error_text(rc));
    codec_name_ = codec->name;
    description_ = codec_name_;
    if (st->nb_frames > 0) {
      hint_ = static_cast<std::size_t>(st->nb_frames);
    } else if (fmt_->duration > 0 && st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0) {
      const double secs = static_cast<double>(fmt_->duration) / AV_TIME_BASE;
      hint_ = static_cast<std::size_t>(secs * av_q2d(st->avg_frame_rate) + 0.5);
    }

    // Decode on a thread of our own; the first frame tells the format.
    worker_ = std::thread([this] { decode_loop(); });
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) {
      lock.unlock();
      auto err = error_;
      stop();
      if (err) std::rethrow_exception(err);
      throw error(errc::bad_input, path_ + ": no video frames (the " + codec_name_ +
                                       " stream decodes to none: a truncated file, or a pipe that closed early?)");
    }
  }

  [[nodiscard]] std::string stream_summary() const {
    if (fmt_->nb_streams == 0) return "no streams";
    std::string s;
    for (unsigned i = 0; i < fmt_->nb_streams; ++i) {
      const auto* p = fmt_->streams[i]->codecpar;
      const char* type = av_get_media_type_string(p->codec_type);
      s += (s.empty() ? "" : ", ") + std::string(type ? type : "data") + " " + avcodec_get_name(p->codec_id);
    }
    return s;
  }

  // AVIO over the opened file: the sniffed bytes first, then the descriptor, a poll at a time so a
  // reader being destroyed does not wait for a writer that never comes.
  static int read_packet(void* opaque, std::uint8_t* buf, int size) {
    auto* self = static_cast<ffmpeg_reader*>(opaque);
    if (!self->consumed_.empty()) {
      const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(size), self->consumed_.size() - self->consumed_at_);
      std::memcpy(buf, self->consumed_.data() + self->consumed_at_, n);
      self->consumed_at_ += n;
      if (self->consumed_at_ == self->consumed_.size()) self->consumed_.clear(), self->consumed_at_ = 0;
      return static_cast<int>(n);
    }
    for (;;) {
      if (self->stopping_.load(std::memory_order_relaxed)) return AVERROR_EXIT;
      pollfd p{self->fd_, POLLIN, 0};
      const int pr = ::poll(&p, 1, 100);
      if (pr < 0 && errno != EINTR) return AVERROR(errno);
      if (pr <= 0) continue;
      const ssize_t n = ::read(self->fd_, buf, static_cast<std::size_t>(size));
      if (n > 0) return static_cast<int>(n);
      if (n == 0) return AVERROR_EOF;
      if (errno == EINTR || errno == EAGAIN) continue;
      self->read_errno_ = errno;
      return AVERROR(errno);
    }
  }

  static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
    auto* self = static_cast<ffmpeg_reader*>(opaque);
    if (whence & AVSEEK_SIZE) {
      const off_t cur = ::lseek(self->fd_, 0, SEEK_CUR);
      const off_t end = ::lseek(self->fd_, 0, SEEK_END);
      ::lseek(self->fd_, cur, SEEK_SET);
      return end < 0 ? AVERROR(errno) : static_cast<std::int64_t>(end);
    }
    const off_t r = ::lseek(self->fd_, static_cast<off_t>(offset), whence & ~AVSEEK_FORCE);
    return r < 0 ? AVERROR(errno) : static_cast<std::int64_t>(r);
  }

  // --- the decoding thread --------------------------------------------------------------------------
  void decode_loop() {
    try {
      decode_all();
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    ready_.notify_all();
  }

  void decode_all() {
    namespace fd = ffmpeg_detail;
    std::unique_ptr<AVPacket, fd::packet_closer> pkt(av_packet_alloc());
    std::unique_ptr<AVFrame, fd::frame_closer> frame(av_frame_alloc());
    if (!pkt || !frame) throw error(errc::io, path_ + ": out of memory (av_packet_alloc)");
    bool eof = false;
    while (!stopping_) {
      if (!eof) {
        const int rc = av_read_frame(fmt_.get(), pkt.get());
        if (rc == AVERROR_EOF) {
          eof = true;
          if (fmt_->pb && fmt_->pb->error < 0 && fmt_->pb->error != AVERROR_EOF) read_failed(fmt_->pb->error);
          avcodec_send_packet(dec_.get(), nullptr);
        } else if (rc < 0) {
          if (stopping_) return;
          read_failed(rc);
        } else {
          if (pkt->stream_index != stream_) {
            av_packet_unref(pkt.get());
            continue;
          }
          if ((pkt->flags & AV_PKT_FLAG_CORRUPT) && !opt_.conceal_errors)
            throw error(errc::bad_input, where(packets_) + ": corrupt packet in the stream (damaged or truncated "
                                                           "input; the decoder would conceal it)");
          const int sr = avcodec_send_packet(dec_.get(), pkt.get());
          av_packet_unref(pkt.get());
          if (sr < 0 && sr != AVERROR(EAGAIN)) decode_failed(sr, packets_);
          ++packets_;
        }
      }
      for (;;) {
        const int rr = avcodec_receive_frame(dec_.get(), frame.get());
        if (rr == AVERROR(EAGAIN)) break;
        if (rr == AVERROR_EOF) return;
        if (rr < 0) decode_failed(rr, decoded_);
        deliver(*frame);
        av_frame_unref(frame.get());
        if (stopping_) return;
      }
    }
  }

  [[noreturn]] void read_failed(int rc) {
    std::string why = ffmpeg_detail::av_error_text(rc);
    if (const auto l = ffmpeg_detail::take_last_log(); !l.empty()) why += "; " + l;
    throw error(rc == AVERROR_INVALIDDATA ? errc::bad_input : errc::io,
                where(packets_) + ": cannot read the stream: " + why + " (a damaged file, or the input ended early)");
  }

  [[noreturn]] void decode_failed(int rc, std::size_t frame) {
    std::string why = ffmpeg_detail::av_error_text(rc);
    if (const auto l = ffmpeg_detail::take_last_log(); !l.empty()) why += "; " + l;
    throw error(errc::bad_input, where(frame) + ": the " + codec_name_ + " decoder failed: " + why +
                                     " (corrupt or truncated data)");
  }

  void deliver(const AVFrame& f) {
    namespace fd = ffmpeg_detail;
    if (!opt_.conceal_errors && ((f.flags & AV_FRAME_FLAG_CORRUPT) || f.decode_error_flags != 0))
      throw error(errc::bad_input, where(decoded_) + ": the " + codec_name_ +
                                       " decoder reports a corrupt frame (damaged data it had to conceal)");
    if (decoded_ == 0) {
      const auto stored = fd::stored_format(static_cast<AVPixelFormat>(f.format));
      if (!stored) {
        const std::string name = fd::pix_fmt_name(f.format);
        throw error(errc::unsupported_format,
                    where(0) + ": pixel format " + name +
                        " is not supported (vqm reads planar or semi-planar YUV 4:2:0, 4:2:2, 4:4:4 or gray at 8, "
                        "10, 12 or 16 bits); "
                        "convert it with ffmpeg -pix_fmt " + fd::suggested_pix_fmt(static_cast<AVPixelFormat>(f.format)) +
                        ", e.g. ffmpeg -i " + path_ + " -pix_fmt " +
                        fd::suggested_pix_fmt(static_cast<AVPixelFormat>(f.format)) +
                        " -strict -1 -f yuv4mpegpipe out.y4m");
      }
      picture_format pf = *stored;
      pf.width = static_cast<std::uint32_t>(f.width);
      pf.height = static_cast<std::uint32_t>(f.height);
      check_geometry(path_, pf);
      av_format_ = f.format;
      description_ += ", " + fd::pix_fmt_name(f.format);
      std::lock_guard lock(mutex_);
      format_ = pf;
    } else if (f.format != av_format_ || f.width != static_cast<int>(format_.width) ||
               f.height != static_cast<int>(format_.height)) {
      throw error(errc::bad_input,
                  where(decoded_) + ": the stream changes from " + std::to_string(format_.width) + "x" +
                      std::to_string(format_.height) + " " + fd::pix_fmt_name(av_format_) + " to " +
                      std::to_string(f.width) + "x" + std::to_string(f.height) + " " + fd::pix_fmt_name(f.format) +
                      " mid-way (vqm measures one size and pixel format per input; split it, or convert the whole "
                      "stream with ffmpeg -vf scale=" + std::to_string(format_.width) + ":" +
                      std::to_string(format_.height) + " -pix_fmt " + fd::pix_fmt_name(av_format_) + ")");
    }
    picture pic = take_free();
    if (!(pic.format() == format_) || pic.bytes().size() != format_.frame_bytes()) pic.reset(format_);
    const std::size_t bps = format_.bytes_per_sample();
    for (int p = 0; p < format_.stored_planes(); ++p) {  // semi-planar: Y and the interleaved chroma, as they are
      const std::size_t row = std::size_t{format_.stored_width(p)} * bps;
      const std::uint32_t h = format_.plane_height(p);
      const std::uint8_t* src = f.data[p];
      auto* dst = pic.plane_data(p);
      const std::ptrdiff_t ls = f.linesize[p];
      if (ls == static_cast<std::ptrdiff_t>(row)) {
        std::memcpy(dst, src, row * h);
      } else {
        for (std::uint32_t y = 0; y < h; ++y) std::memcpy(dst + y * row, src + static_cast<std::ptrdiff_t>(y) * ls, row);
      }
    }
    if (const auto bad = find_sample_out_of_range(pic.view()))
      throw error(errc::bad_input, where(decoded_) + ": " + describe(*bad, format_.bit_depth) +
                                       " (the stream's samples do not fit its pixel format)");
    ++decoded_;
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return queue_.size() < std::max<std::size_t>(opt_.queue_frames, 1) || stopping_; });
    if (stopping_) return;
    queue_.push_back(std::move(pic));
    lock.unlock();
    ready_.notify_one();
  }

  picture take_free() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return {};
    picture p = std::move(free_.back());
    free_.pop_back();
    return p;
  }

  // --- the caller's side ----------------------------------------------------------------------------
  bool pop(picture& out) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return false;
    }
    out = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    room_.notify_one();
    return true;
  }

  void recycle(picture&& p) {
    if (!(p.format() == format_) || p.bytes().size() != format_.frame_bytes()) return;
    std::lock_guard lock(mutex_);
    if (free_.size() < opt_.queue_frames + 2) free_.push_back(std::move(p));
  }

  void stop() noexcept {
    stopping_ = true;
    {
      std::lock_guard lock(mutex_);  // no lost wake-up between a wait's check and its sleep
    }
    room_.notify_all();
    ready_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  std::string path_;
  ffmpeg_options opt_;
  file_ptr file_{nullptr, &std::fclose};
  bool regular_ = false;
  int fd_ = -1;
  std::string consumed_;
  std::size_t consumed_at_ = 0;
  int read_errno_ = 0;

  std::unique_ptr<AVIOContext, ffmpeg_detail::avio_closer> avio_;  // freed after the format context
  std::unique_ptr<AVFormatContext, ffmpeg_detail::format_closer> fmt_;
  std::unique_ptr<AVCodecContext, ffmpeg_detail::codec_closer> dec_;
  int stream_ = -1;
  int av_format_ = -1;
  std::optional<std::size_t> hint_;
  std::string codec_name_, description_;
  picture_format format_{};
  std::size_t frames_ = 0;   // handed to the caller
  std::size_t decoded_ = 0;  // decoded (on the worker)
  std::size_t packets_ = 0;  // video packets sent to the decoder (frames in decode order)

  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<picture> queue_;
  std::vector<picture> free_;
  bool done_ = false;
  std::exception_ptr error_;
  std::atomic<bool> stopping_{false};
  std::thread worker_;
};

}  // namespace vqm::io
