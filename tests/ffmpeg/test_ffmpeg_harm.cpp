// vqm::ffmpeg, "do no harm" (issue #25): inputs that FFmpeg decodes without complaint but that would be
// scored wrongly, or silently differently from `ffmpeg -f yuv4mpegpipe`, unless vqm says so:
//   * an MP4 whose index (moov) follows its frames, sent through a pipe: the pipe message, not "partial file";
//   * a Matroska file cut inside its last frame: an error naming the frame, not one frame fewer and rc 0;
//   * interlaced H.264 / MPEG-2: scored as whole frames, with a note (notes());
//   * a variable frame rate: every decoded frame scored once (ffmpeg's Y4M repeats frames), with a note;
//   * a display matrix: frames scored as stored, unrotated (ffmpeg's Y4M turns them), with a note.
// The media are made at test time with the `ffmpeg` tool, as in test_ffmpeg.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "common/process.hpp"
#include "ffmpeg/cli_fixture.hpp"
#include "ffmpeg/media.hpp"
#include "vqm/io/ffmpeg_reader.hpp"
#include "vqm/io/open.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace vqm;


using vqm::test::bash;
using vqm::test::media;
using vqm::test::work;
using vqm::test::quote;
using vqm::test::result;
using vqm::test::slurp;


const std::string testsrc = "-f lavfi -i testsrc=size=176x144:rate=25";

// The frames of `encoded` as `ffmpeg <in_opts> -i encoded <out_opts>` writes them.
std::string ffmpeg_output(const std::string& encoded, const std::string& in_opts, const std::string& out_opts,
                          const std::string& suffix) {
  return media(fs::path(encoded).filename().string() + suffix,
               in_opts + " -i " + quote(encoded) + " -strict -1 " + out_opts);
}

std::size_t count_frames(io::frame_source& s) {
  std::size_t n = 0;
  picture p;
  while (s.read(p)) ++n;
  return n;
}

// Reads both to the end, frame for frame: the same number of frames with the same bytes.
void expect_same_frames(io::frame_source& a, io::frame_source& b) {
  ASSERT_EQ(a.format(), b.format()) << describe(a.format()) << " vs " << describe(b.format());
  picture x, y;
  std::size_t n = 0;
  for (;; ++n) {
    const bool ha = a.read(x), hb = b.read(y);
    ASSERT_EQ(ha, hb) << "frame " << n;
    if (!ha) break;
    ASSERT_EQ(std::memcmp(x.bytes().data(), y.bytes().data(), x.bytes().size()), 0) << "frame " << n;
  }
  EXPECT_GT(n, 0u);
}

bool contains(const std::vector<std::string>& notes, const std::string& what) {
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(what) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& notes) {
  std::string s;
  for (const auto& n : notes) s += "\n  " + n;
  return s.empty() ? " (none)" : s;
}

// The top-level boxes of an MP4, in file order ("ftyp", "mdat", "moov", ...).
std::vector<std::string> mp4_boxes(const std::string& bytes) {
  std::vector<std::string> types;
  for (std::size_t at = 0; at + 8 <= bytes.size();) {
    std::uint64_t size = 0;
    for (int i = 0; i < 4; ++i) size = size << 8 | static_cast<unsigned char>(bytes[at + i]);
    types.push_back(bytes.substr(at + 4, 4));
    if (size == 1 && at + 16 <= bytes.size()) {
      size = 0;
      for (int i = 8; i < 16; ++i) size = size << 8 | static_cast<unsigned char>(bytes[at + i]);
    }
    if (size < 8) break;
    at += size;
  }
  return types;
}

// Where the video stream's last packet (in file order) lies: its position and size.
std::pair<std::int64_t, int> last_video_packet(const std::string& path) {
  AVFormatContext* f = nullptr;
  if (avformat_open_input(&f, path.c_str(), nullptr, nullptr) < 0) throw std::runtime_error("cannot open " + path);
  std::unique_ptr<AVFormatContext, io::ffmpeg_detail::format_closer> fmt(f);
  std::unique_ptr<AVPacket, io::ffmpeg_detail::packet_closer> pkt(av_packet_alloc());
  const int video = av_find_best_stream(f, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  std::pair<std::int64_t, int> last{-1, 0};
  while (av_read_frame(f, pkt.get()) >= 0) {
    if (pkt->stream_index == video && pkt->pos > last.first) last = {pkt->pos, pkt->size};
    av_packet_unref(pkt.get());
  }
  return last;
}

// The shared fixture; scores() of PSNR alone.
class ffmpeg_harm_cli : public vqm::test::ffmpeg_cli {
 protected:
  json scores(const std::vector<std::string>& args, const std::string& prefix = "", const std::string& suffix = "") {
    auto full = args;
    full.insert(full.end(), {"--no_prediction", "--feature", "psnr"});
    return ffmpeg_cli::scores(full, prefix, suffix);
  }
};

// --- 1. an MP4 with its index last, through a pipe -------------------------------------------------

TEST_F(ffmpeg_harm_cli, an_mp4_with_its_index_last_fails_through_a_pipe_with_the_pipe_message) {
  // Noise, lossless: the frames (mdat) are far larger than the reader's 64 KiB buffer, so the demuxer
  // has to read through them to find the index, and cannot go back.
  const auto ref = media("noise_352x288.y4m", "-f lavfi -i " + quote("testsrc2=s=352x288:r=25:d=0.4,noise=alls=40:allf=t+u") +
                                                  " -pix_fmt yuv420p -f yuv4mpegpipe");
  const auto dis = media("index_last_noise.mp4", "-i " + quote(ref) + " -c:v libx264 -qp 0 -threads 1");
  const auto boxes = mp4_boxes(slurp(dis));
  const auto mdat = std::find(boxes.begin(), boxes.end(), "mdat"), moov = std::find(boxes.begin(), boxes.end(), "moov");
  ASSERT_TRUE(mdat != boxes.end() && moov != boxes.end() && mdat < moov) << "the index should come last";
  ASSERT_GT(fs::file_size(dis), 8u << 16);

  const auto files = scores({"-r", ref, "-d", dis});
  ASSERT_FALSE(files.is_null());
  // Standard input redirected from the file is a regular file, which can seek: it simply works.
  EXPECT_EQ(scores({"-r", ref, "-d", "-"}, "", " < " + quote(dis)), files);
  EXPECT_EQ(scores({"-r", ref, "-d", "/dev/stdin"}, "", " < " + quote(dis)), files);
  // A real pipe: standard input, /dev/stdin, process substitution. The message says why and what to do.
  const std::vector<std::string> why = {"FFmpeg cannot read it front to back: its index (moov) comes after its frames",
                                        "read from a pipe, which cannot seek", "-movflags +faststart",
                                        "-f matroska"};
  auto with = [&](const std::string& name) {
    auto e = why;
    e.insert(e.begin(), name + ": ");
    return e;
  };
  expect_clean_failure("cat " + quote(dis) + " | ", {"-r", ref, "-d", "-"}, with("-"), {"partial file"});
  expect_clean_failure("cat " + quote(dis) + " | ", {"-r", ref, "-d", "/dev/stdin"}, with("/dev/stdin"), {"partial file"});
  const auto r = bash(quote(VQM_CLI_PATH) + " -r " + quote(ref) + " -d <(cat " + quote(dis) +
                          ") --no_prediction --feature psnr -q",
                      dir_);
  EXPECT_NE(r.rc, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const auto& e : why) EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
  EXPECT_EQ(r.err.find("partial file"), std::string::npos) << r.err;
  // The fix the message names: the same frames with the index first go through the pipe.
  const auto faststart = media("index_first_noise.mp4", "-i " + quote(dis) + " -c copy -movflags +faststart");
  EXPECT_EQ(scores({"-r", ref, "-d", "-"}, "cat " + quote(faststart) + " | "), files);
}

// --- 2. a Matroska file cut inside its last frame --------------------------------------------------

TEST_F(ffmpeg_harm_cli, a_matroska_file_cut_inside_its_last_frame_is_an_error_naming_the_frame) {
  const auto whole = media("ten_frames_h264.mkv", testsrc + " -frames 10 -c:v libx264 -threads 1 -pix_fmt yuv420p");
  const auto [pos, size] = last_video_packet(whole);
  ASSERT_GT(pos, 0);
  const auto cut = path("cut.mkv");
  std::ofstream(cut, std::ios::binary) << slurp(whole).substr(0, static_cast<std::size_t>(pos + size / 2));

  {  // The complete file: 10 frames.
    io::ffmpeg_reader dec(whole);
    EXPECT_EQ(count_frames(dec), 10u);
  }
  {  // The cut one: 9 frames, then the error (FFmpeg's demuxer drops the partial block and says "end of file").
    io::ffmpeg_reader dec(cut);
    std::size_t n = 0;
    picture p;
    try {
      while (dec.read(p)) ++n;
      ADD_FAILURE() << "read " << n << " frames and no error";
    } catch (const error& e) {
      EXPECT_EQ(n, 9u);
      EXPECT_EQ(e.code(), errc::bad_input);
      const std::string m = e.what();
      EXPECT_TRUE(m.starts_with(cut + ": frame 9: truncated: the last frame is incomplete")) << m;
      EXPECT_NE(m.find("0.360 s of the 0.400 s"), std::string::npos) << m;
    }
  }
  {  // Accepting damage (ffmpeg_options::conceal_errors, as the ffmpeg tool): the 9 complete frames.
    io::ffmpeg_reader dec(cut, io::ffmpeg_options{0, 3, true});
    EXPECT_EQ(count_frames(dec), 9u);
  }
  // The CLI: one line naming the file, the frame, the problem and the fix; the same through a pipe.
  const auto fixed = path("fixed.mkv");  // the fix the message gives: remux the frames it has
  ASSERT_EQ(bash(quote(VQM_FFMPEG_TOOL) + " -v error -nostdin -i " + quote(cut) + " -c copy " + quote(fixed), dir_).rc, 0);
  const auto nine = scores({"-r", fixed, "-d", fixed});
  ASSERT_TRUE(nine.contains("frames"));
  EXPECT_EQ(nine["frames"].size(), 9u);
  expect_clean_failure("", {"-r", fixed, "-d", cut},
                       {cut + ": frame 9: truncated: the last frame is incomplete", "-c copy"});
  expect_clean_failure("cat " + quote(cut) + " | ", {"-r", fixed, "-d", "-"},
                       {"-: frame 9: truncated: the last frame is incomplete"});
  // Several frames short: said so.
  std::ofstream(path("short.mkv"), std::ios::binary) << slurp(whole).substr(0, static_cast<std::size_t>(pos - 300));
  expect_clean_failure("", {"-r", path("short.mkv"), "-d", path("short.mkv")},
                       {"short.mkv: frame ", "truncated: the last ", "frames are missing or incomplete"});
}

// --- 3. interlaced video: scored as whole frames, with a note ---------------------------------------

TEST_F(ffmpeg_harm_cli, interlaced_video_is_scored_as_whole_frames_with_a_note) {
  struct input {
    std::string file, order;
  };
  const input inputs[] = {
      {media("interlaced_h264.mkv", testsrc + " -frames 10 -c:v libx264 -flags +ildct+ilme -x264opts tff=1"), ""},
      {media("interlaced_mpeg2_tff.mkv", testsrc + " -frames 10 -c:v mpeg2video -flags +ildct+ilme -top 1"), "top"},
      {media("interlaced_mpeg2_bff.ts", testsrc + " -frames 10 -c:v mpeg2video -flags +ildct+ilme -top 0"), "bottom"},
  };
  for (const auto& [file, order] : inputs) {
    SCOPED_TRACE(file);
    io::ffmpeg_reader dec(file);
    const auto notes = dec.notes();  // known once open: the first frame is decoded
    EXPECT_TRUE(contains(notes, file + ": interlaced video (" + order)) << joined(notes);
    EXPECT_TRUE(contains(notes, "field first): scored as whole frames, the fields interleaved")) << joined(notes);
    EXPECT_TRUE(contains(notes, "ffmpeg -vf bwdif")) << joined(notes);
    // The frames are ffmpeg's own, fields interleaved (raw: vqm's Y4M reader refuses interlaced Y4M).
    io::yuv_reader raw(ffmpeg_output(file, "", "-f rawvideo", ".yuv"), dec.format());
    expect_same_frames(dec, raw);
  }
  io::ffmpeg_reader progressive(media("progressive_h264.mkv", testsrc + " -frames 10 -c:v libx264 -pix_fmt yuv420p"));
  EXPECT_EQ(count_frames(progressive), 10u);
  EXPECT_TRUE(progressive.notes().empty()) << joined(progressive.notes());
  // The CLI scores it (a note, not an error, unlike interlaced Y4M).
  const auto j = scores({"-r", inputs[1].file, "-d", inputs[1].file});
  ASSERT_TRUE(j.contains("frames"));
  EXPECT_EQ(j["frames"].size(), 10u);
}

// --- 4. what vqm scores where ffmpeg's Y4M differs: variable frame rate, display matrix --------------

TEST_F(ffmpeg_harm_cli, a_variable_frame_rate_scores_every_decoded_frame_once) {
  // 20 frames at 25 fps with a 0.44 s gap after frame 9.
  const auto vfr = media("vfr_ffv1.mkv", testsrc + " -frames 20 -vf " + quote("setpts='if(lt(N,10),N,N+10)/25/TB'") +
                                             " -fps_mode passthrough -pix_fmt yuv420p -c:v ffv1");
  const auto passthrough = ffmpeg_output(vfr, "", "-fps_mode passthrough -f yuv4mpegpipe", ".passthrough.y4m");
  const auto constant = ffmpeg_output(vfr, "", "-f yuv4mpegpipe", ".y4m");  // the ffmpeg tool's default
  {
    auto y4m = io::open_frame_source(constant, std::nullopt);
    EXPECT_EQ(count_frames(*y4m), 30u);  // ffmpeg repeats frame 9 to fill the gap at a constant 25 fps
  }
  {
    io::ffmpeg_reader dec(vfr);
    auto y4m = io::open_frame_source(passthrough, std::nullopt);
    expect_same_frames(dec, *y4m);  // vqm: each decoded frame once, as -fps_mode passthrough
    EXPECT_EQ(dec.frames_read(), 20u);
    const auto notes = dec.notes();  // the gap is found as the frames decode
    EXPECT_TRUE(contains(notes, vfr + ": variable frame rate (frame 10 is shown 0.440 s after frame 9, not 0.040 s)"))
        << joined(notes);
    EXPECT_TRUE(contains(notes, "-fps_mode passthrough")) << joined(notes);
  }
  const auto j = scores({"-r", vfr, "-d", vfr});
  ASSERT_TRUE(j.contains("frames"));
  EXPECT_EQ(j["frames"].size(), 20u);
  // A constant rate: no note.
  io::ffmpeg_reader cfr(media("cfr_ffv1.mkv", testsrc + " -frames 20 -pix_fmt yuv420p -c:v ffv1"));
  EXPECT_EQ(count_frames(cfr), 20u);
  EXPECT_TRUE(cfr.notes().empty()) << joined(cfr.notes());
}

TEST_F(ffmpeg_harm_cli, a_display_matrix_is_not_applied_frames_are_scored_as_stored) {
  const auto plain = media("rotation_base.mp4", testsrc + " -frames 5 -c:v libx264 -pix_fmt yuv420p");
  // FFmpeg 5.1 has no -display_rotation; a stream copy writes the legacy rotate tag as a display matrix.
  const auto rotated = media("rotated_90.mp4", "-i " + quote(plain) + " -c copy -metadata:s:v:0 rotate=90");
  const auto upright = ffmpeg_output(rotated, "", "-f yuv4mpegpipe", ".y4m");  // ffmpeg's default: turned
  const auto as_stored = ffmpeg_output(rotated, "-noautorotate", "-f yuv4mpegpipe", ".noautorotate.y4m");
  EXPECT_TRUE(slurp(upright).starts_with("YUV4MPEG2 W144 H176 "));

  io::ffmpeg_reader dec(rotated);
  EXPECT_EQ(dec.format().width, 176u);
  EXPECT_EQ(dec.format().height, 144u);
  const auto notes = dec.notes();
  EXPECT_TRUE(contains(notes, rotated + ": its display matrix rotates the picture 90 degrees counterclockwise: vqm "
                                        "scores the frames as stored (176x144), as ffmpeg -noautorotate decodes them"))
      << joined(notes);
  EXPECT_TRUE(contains(notes, "applies the matrix (144x176)")) << joined(notes);
  auto y4m = io::open_frame_source(as_stored, std::nullopt);
  expect_same_frames(dec, *y4m);
  io::ffmpeg_reader unrotated(plain);
  EXPECT_TRUE(unrotated.notes().empty()) << joined(unrotated.notes());

  // The CLI: scored against ffmpeg's -noautorotate output; ffmpeg's default output has another size.
  EXPECT_FALSE(scores({"-r", rotated, "-d", as_stored}).is_null());
  expect_clean_failure("", {"-q", "-r", rotated, "-d", upright}, {"is 176x144", "is 144x176"});
  // Without -q the CLI prints the reader's note before the error.
  const auto r = vqm({"-r", rotated, "-d", upright, "-n", "--feature", "psnr"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(r.err.starts_with("vqm: note: " + rotated + ": its display matrix rotates the picture")) << r.err;
  EXPECT_NE(r.err.find("\nvqm: error: reference " + rotated + " is 176x144"), std::string::npos) << r.err;
}

}  // namespace
