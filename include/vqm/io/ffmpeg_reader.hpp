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
// A stream whose size or pixel format changes mid-way is an error naming the frame. So are an MP4/MOV
// read from a pipe with its index after its frames, and a Matroska/WebM file that ends before the
// duration it declares (the demuxer drops a last block cut short without an error). What vqm scores
// differently from what one might assume (interlaced, rotated, variable frame rate) is in notes().
#pragma once

#include <algorithm>
#include <atomic>
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

#include <unistd.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
}

#include "vqm/error.hpp"
#include "vqm/io/ffmpeg_checks.hpp"
#include "vqm/io/ffmpeg_detail.hpp"
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

// errc::io from a file FFmpeg has no demuxer for: open_input() tells raw-sample flags then.
class unrecognised_input final : public error {
 public:
  using error::error;
};

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
      : path_(std::move(path)), opt_(opt), file_(std::move(file.file)), regular_(file.regular) {
    input_.fd = ::fileno(file_.get());
    input_.consumed = std::move(consumed);
    input_.stopping = &stopping_;
    if (regular_) {
      if (::lseek(input_.fd, 0, SEEK_SET) < 0) regular_ = false;  // a seekable-looking file that is not
      else input_.consumed.clear();
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
  // How this input is scored where one might assume otherwise, a line each ("PATH: ..."), for a front end
  // to show (the vqm CLI: "vqm: note: ..."): interlaced video (whole frames, fields interleaved), a
  // display matrix (frames scored as stored, not turned), a variable frame rate (each decoded frame once).
  // Those the stream and its first frame tell are there when the constructor returns; a variable frame
  // rate, or interlacing that starts later, as the frames decode: ask again after the last read().
  [[nodiscard]] std::vector<std::string> notes() const {
    std::lock_guard lock(notes_mutex_);
    return notes_;
  }

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
      avio_.reset(avio_alloc_context(buf, avio_buffer_size, 0, &input_, &fd::fd_input::read_packet, nullptr,
                                     regular_ ? &fd::fd_input::seek : nullptr));
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
        hint = " (" + std::string(fd::pipe_hint) + ")";
      else if (!file && rc == AVERROR(ENOENT))
        hint = " (check the path)";
      throw unrecognised_input(errc::io, path_ + ": FFmpeg cannot open it: " + why + hint);
    }
    fmt_.reset(raw);
    // An MP4 whose index follows its frames: the demuxer read past them to find it (its first read
    // would fail with "partial file").
    if (fd::frames_left_behind(*fmt_))
      throw error(errc::bad_input, path_ + ": FFmpeg cannot read it front to back: its index (moov) comes after its "
                                           "frames (" + std::string(fd::pipe_hint) + ")");
    if (const int rc = avformat_find_stream_info(fmt_.get(), nullptr); rc < 0)
      throw error(errc::bad_input, path_ + ": FFmpeg cannot read its streams: " + fd::av_error_text(rc));
    const AVCodec* codec = nullptr;
    stream_ = av_find_best_stream(fmt_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream_ == AVERROR_STREAM_NOT_FOUND)
      throw error(errc::bad_input, path_ + ": no video stream (the file holds " + fd::stream_summary(*fmt_) + ")");
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
    const AVRational rate = av_guess_frame_rate(fmt_.get(), st, nullptr);  // the ffmpeg tool's output rate
    rate_watch_ = fd::frame_rate_watch(rate, st->time_base);
    end_watch_ = fd::end_watch(fd::declared_end(*fmt_, *st), rate, st->time_base);
    if (auto n = fd::rotation_note(path_, *st); !n.empty()) notes_.push_back(std::move(n));

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
          end_watch_.see(*pkt);
          const int sr = avcodec_send_packet(dec_.get(), pkt.get());
          av_packet_unref(pkt.get());
          if (sr < 0 && sr != AVERROR(EAGAIN)) decode_failed(sr, packets_);
          ++packets_;
        }
      }
      for (;;) {
        const int rr = avcodec_receive_frame(dec_.get(), frame.get());
        if (rr == AVERROR(EAGAIN)) break;
        if (rr == AVERROR_EOF) {
          if (auto t = end_watch_.truncation(path_); !t.empty() && !opt_.conceal_errors)
            throw error(errc::bad_input, where(decoded_) + ": " + t);
          return;
        }
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
    // An MP4 whose index comes after its frames fails here, when what is left of the buffer is not enough.
    const bool index_last = packets_ == 0 && !ffmpeg_detail::can_seek(*fmt_) && ffmpeg_detail::is_mov(*fmt_);
    throw error(rc == AVERROR_INVALIDDATA ? errc::bad_input : errc::io,
                where(packets_) + ": cannot read the stream: " + why +
                    (index_last ? " (" + std::string(ffmpeg_detail::pipe_hint) + ")"
                                : std::string(" (a damaged file, or the input ended early)")));
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
    note_frame(f);
    if (decoded_ == 0) {
      const auto stored = fd::stored_format(static_cast<AVPixelFormat>(f.format));
      if (!stored) throw error(errc::unsupported_format, where(0) + ": " + fd::unsupported_pix_fmt(path_, f.format));
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
      throw error(errc::bad_input, where(decoded_) + ": " + fd::format_change(format_, av_format_, f));
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

  // Interlacing (the first frame that shows it) and a variable frame rate, once each.
  void note_frame(const AVFrame& f) {
    const AVStream& st = *fmt_->streams[stream_];
    std::string n;
    if (!interlace_noted_) {
      n = ffmpeg_detail::interlace_note(path_, f, st.codecpar->field_order, decoded_);
      interlace_noted_ = !n.empty();
    }
    std::string r = rate_watch_.see(path_, f.best_effort_timestamp, decoded_, st.time_base);
    if (n.empty() && r.empty()) return;
    std::lock_guard lock(notes_mutex_);
    for (auto* s : {&n, &r})
      if (!s->empty()) notes_.push_back(std::move(*s));
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
  ffmpeg_detail::fd_input input_;  // the file's bytes, for a file vqm opened

  std::unique_ptr<AVIOContext, ffmpeg_detail::avio_closer> avio_;  // freed after the format context
  std::unique_ptr<AVFormatContext, ffmpeg_detail::format_closer> fmt_;
  std::unique_ptr<AVCodecContext, ffmpeg_detail::codec_closer> dec_;
  int stream_ = -1;
  int av_format_ = -1;
  std::optional<std::size_t> hint_;
  ffmpeg_detail::end_watch end_watch_;
  ffmpeg_detail::frame_rate_watch rate_watch_;
  bool interlace_noted_ = false;
  mutable std::mutex notes_mutex_;
  std::vector<std::string> notes_;
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
