// ffmpeg_checks: what ffmpeg_reader tells about an input beyond its frames (issue #25, "do no harm"):
// an MP4/MOV that cannot be read from a pipe, a Matroska file cut short, and the notes on inputs whose
// frames vqm scores differently from what a reader might assume (interlaced, rotated by a display
// matrix, variable frame rate). Part of the optional vqm::ffmpeg component.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/frame.h>
}

namespace vqm::io::ffmpeg_detail {

// Why a file read front to back (a pipe) fails, and what to send instead.
inline constexpr std::string_view pipe_hint =
    "read from a pipe, which cannot seek: an MP4/MOV needs its index first, ffmpeg -movflags +faststart, or send a "
    "streamable format: -f matroska, -f mpegts, -f nut or -f yuv4mpegpipe";

[[nodiscard]] inline bool can_seek(const AVFormatContext& f) { return f.pb && (f.pb->seekable & AVIO_SEEKABLE_NORMAL); }

[[nodiscard]] inline bool is_mov(const AVFormatContext& f) {
  return f.iformat && std::string_view(f.iformat->name).starts_with("mov,");
}

// True when an input that cannot seek has already passed the first sample of a video stream: an
// MP4/MOV whose index (moov) comes after its frames (mdat). The demuxer found the index by reading
// through the frames, and can only go back within its buffer (a small file fits in it and works).
[[nodiscard]] inline bool frames_left_behind(const AVFormatContext& f) {
  if (!f.pb || can_seek(f)) return false;
  const std::int64_t buffered_from = f.pb->pos - (f.pb->buf_end - f.pb->buffer);
  for (unsigned i = 0; i < f.nb_streams; ++i) {
    AVStream* st = f.streams[i];
    if (st->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) continue;
    const int n = avformat_index_get_entries_count(st);
    for (int k = 0; k < n; ++k)
      if (const AVIndexEntry* e = avformat_index_get_entry(st, k); e && e->pos < buffered_from) return true;
  }
  return false;
}

// The end of the video stream, in seconds, as a Matroska/WebM file declares it (the track's DURATION
// tag, or the segment's duration when the file holds that stream alone). FFmpeg's Matroska demuxer drops
// a block cut short by the end of the file without an error (5.1 logs "File ended prematurely" and
// returns end of file), so comparing this with the frames read is what tells a truncated file.
// Nothing for other containers (MP4, AVI and NUT flag or return the short packet, which fails to decode)
// and for Matroska written to a pipe, which declares no duration.
[[nodiscard]] inline std::optional<double> declared_end(const AVFormatContext& f, const AVStream& st) {
  if (!f.iformat || !std::string_view(f.iformat->name).starts_with("matroska")) return std::nullopt;
  if (const AVDictionaryEntry* e = av_dict_get(st.metadata, "DURATION", nullptr, 0)) {
    int h = 0, m = 0;
    double s = 0;
    if (std::sscanf(e->value, "%d:%d:%lf", &h, &m, &s) == 3 && h >= 0 && m >= 0 && s >= 0)
      return h * 3600.0 + m * 60.0 + s;
  }
  if (f.nb_streams == 1 && f.duration > 0 && f.duration_estimation_method == AVFMT_DURATION_FROM_STREAM)
    return static_cast<double>(f.duration) / AV_TIME_BASE;
  return std::nullopt;
}

// Compares where the video packets end (presentation time) with the end the container declares: a
// Matroska/WebM file whose frames stop more than half a frame early was cut short.
class end_watch {
 public:
  end_watch() = default;
  end_watch(std::optional<double> declared, AVRational rate, AVRational time_base)
      : declared_(declared), tb_(av_q2d(time_base)) {
    if (rate.num > 0 && rate.den > 0) frame_ = av_q2d(av_inv_q(rate));
  }

  void see(const AVPacket& p) {
    const std::int64_t ts = p.pts != AV_NOPTS_VALUE ? p.pts : p.dts;
    if (!declared_ || ts == AV_NOPTS_VALUE) return;
    const double end = static_cast<double>(ts) * tb_ + (p.duration > 0 ? static_cast<double>(p.duration) * tb_ : frame_);
    end_ = std::max(end_.value_or(end), end);
  }

  // At the end of the stream: why it is incomplete and the fix, or empty.
  [[nodiscard]] std::string truncation(const std::string& path) const {
    if (!declared_ || !end_ || frame_ <= 0) return {};
    const double missing = (*declared_ - *end_) / frame_;
    if (missing <= 0.5) return {};
    char span[96];
    std::snprintf(span, sizeof span, "its frames end at %.3f s of the %.3f s it declares", *end_, *declared_);
    const long n = std::max(1L, std::lround(missing));
    return "truncated: " +
           (n == 1 ? std::string("the last frame is incomplete")
                   : "the last " + std::to_string(n) + " frames are missing or incomplete") +
           " (" + span + "); get the whole file, or remux it to score the frames it has: ffmpeg -i " + path +
           " -c copy whole.mkv";
  }

 private:
  std::optional<double> declared_;  // seconds
  std::optional<double> end_;       // of the packets read so far, seconds
  double tb_ = 0, frame_ = 0;       // the time base and the nominal frame duration, seconds
};

[[nodiscard]] inline bool interlaced(const AVFrame& f) {
#if defined(AV_FRAME_FLAG_INTERLACED)
  return (f.flags & AV_FRAME_FLAG_INTERLACED) != 0;
#else
  return f.interlaced_frame != 0;
#endif
}

[[nodiscard]] inline bool top_field_first(const AVFrame& f) {
#if defined(AV_FRAME_FLAG_TOP_FIELD_FIRST)
  return (f.flags & AV_FRAME_FLAG_TOP_FIELD_FIRST) != 0;
#else
  return f.top_field_first != 0;
#endif
}

// The note for interlaced video: the decoder's flag on the frame (what ffmpeg's Y4M header says), else
// the container's field order (a codec such as FFV1 that does not flag its frames). Empty if progressive.
[[nodiscard]] inline std::string interlace_note(const std::string& path, const AVFrame& f, AVFieldOrder order,
                                                std::size_t frame) {
  const bool by_frame = interlaced(f);
  if (!by_frame && (order == AV_FIELD_UNKNOWN || order == AV_FIELD_PROGRESSIVE)) return {};
  const bool tff = by_frame ? top_field_first(f) : order == AV_FIELD_TT || order == AV_FIELD_BT;
  return path + ": interlaced video (" + (tff ? "top" : "bottom") + " field first" +
         (frame > 0 ? ", from frame " + std::to_string(frame) : std::string()) +
         "): scored as whole frames, the fields interleaved, as libvmaf fed by ffmpeg -f yuv4mpegpipe does; "
         "deinterlace first (ffmpeg -vf bwdif) to score progressive frames";
}

// The stream's display matrix (rotation, flip), or null.
[[nodiscard]] inline const std::int32_t* display_matrix(const AVStream& st) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
  const AVPacketSideData* sd = av_packet_side_data_get(st.codecpar->coded_side_data, st.codecpar->nb_coded_side_data,
                                                       AV_PKT_DATA_DISPLAYMATRIX);
  const std::uint8_t* data = sd ? sd->data : nullptr;
  const std::size_t size = sd ? sd->size : 0;
#else
  std::size_t size = 0;
  const std::uint8_t* data = av_stream_get_side_data(&st, AV_PKT_DATA_DISPLAYMATRIX, &size);
#endif
  return data && size >= 9 * sizeof(std::int32_t) ? reinterpret_cast<const std::int32_t*>(data) : nullptr;
}

// The note for a stream that a display matrix rotates or flips: vqm scores the frames as stored
// (ffmpeg -noautorotate), while the ffmpeg tool turns them upright by default. Empty without one.
[[nodiscard]] inline std::string rotation_note(const std::string& path, const AVStream& st) {
  const std::int32_t* m = display_matrix(st);
  if (!m) return {};
  const double angle = av_display_rotation_get(m);  // NaN for a degenerate matrix
  const long turn = std::isnan(angle) ? 0 : ((std::lround(angle) % 360) + 360) % 360;  // as ffprobe's "rotation"
  const bool flipped = static_cast<std::int64_t>(m[0]) * m[4] - static_cast<std::int64_t>(m[1]) * m[3] < 0;
  if (turn == 0 && !flipped) return {};
  const int w = st.codecpar->width, h = st.codecpar->height;
  const bool swaps = turn == 90 || turn == 270;
  std::string what = turn != 0 ? "rotates the picture " + std::to_string(turn) + " degrees counterclockwise" : "";
  if (flipped) what += std::string(what.empty() ? "" : " and ") + "mirrors it";
  return path + ": its display matrix " + what + ": vqm scores the frames as stored (" + std::to_string(w) + "x" +
         std::to_string(h) + "), as ffmpeg -noautorotate decodes them, while ffmpeg -f yuv4mpegpipe applies the matrix (" +
         std::to_string(swaps ? h : w) + "x" + std::to_string(swaps ? w : h) + "): give both inputs the same orientation";
}

// Watches the decoded frames' timestamps for a variable frame rate: a step from one frame to the next
// that is not the nominal frame duration (within half a frame). vqm scores every decoded frame once;
// ffmpeg's Y4M output, constant-rate, would repeat or drop frames there.
class frame_rate_watch {
 public:
  frame_rate_watch() = default;
  frame_rate_watch(AVRational rate, AVRational time_base) : rate_(rate) {
    if (rate.num > 0 && rate.den > 0 && time_base.num > 0 && time_base.den > 0)
      step_ = av_q2d(av_inv_q(rate)) / av_q2d(time_base);
  }

  // The note, the first time a frame's timestamp (in the stream's time base) breaks the rate; else empty.
  [[nodiscard]] std::string see(const std::string& path, std::int64_t ts, std::size_t frame, AVRational time_base) {
    if (step_ <= 0 || ts == AV_NOPTS_VALUE || noted_) return {};
    const std::int64_t prev = std::exchange(prev_, ts);
    if (prev == AV_NOPTS_VALUE || std::abs(static_cast<double>(ts - prev) - step_) <= step_ / 2) return {};
    noted_ = true;
    char when[96];
    std::snprintf(when, sizeof when, "%.3f s after frame %zu, not %.3f s", static_cast<double>(ts - prev) * av_q2d(time_base),
                  frame - 1, step_ * av_q2d(time_base));
    char fps[32];
    std::snprintf(fps, sizeof fps, "%.6g", av_q2d(rate_));
    return path + ": variable frame rate (frame " + std::to_string(frame) + " is shown " + when +
           "): vqm scores each decoded frame once, as libvmaf fed by ffmpeg -fps_mode passthrough -f yuv4mpegpipe does; "
           "ffmpeg -f yuv4mpegpipe alone repeats or drops frames to a constant " + fps + " fps";
  }

 private:
  AVRational rate_{0, 1};
  double step_ = 0;  // the nominal frame duration, in time-base units
  std::int64_t prev_ = AV_NOPTS_VALUE;
  bool noted_ = false;
};

}  // namespace vqm::io::ffmpeg_detail
