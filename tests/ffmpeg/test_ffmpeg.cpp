// vqm::ffmpeg: decoding containers and codecs, pipes read once, bad input. The encoded files are made at
// test time with the `ffmpeg` tool from the fixtures, into the build tree (once; later runs reuse them).
// "Decoded right" means: the frames equal those `ffmpeg` writes to a Y4M from the same file, and the
// CLI's scores of the encoded pair equal its scores of those Y4Ms, digit for digit (--precision max).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
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

const std::string fixtures = VQM_FIXTURE_DIR;

std::string fx(const std::string& name) { return fixtures + "/" + name; }

using vqm::test::bash;
using vqm::test::ffmpeg_cli;
using vqm::test::media;
using vqm::test::work;
using vqm::test::quote;
using vqm::test::result;
using vqm::test::slurp;


// The same frames written by `ffmpeg` to a Y4M (what the scores must equal).
std::string decoded_y4m(const std::string& encoded) {
  const auto name = fs::path(encoded).filename().string() + ".y4m";
  return media(name, "-i " + quote(encoded) + " -strict -1 -f yuv4mpegpipe");
}

// The same frames written by `ffmpeg` as raw planar samples: FFmpeg 5.1's Y4M muxer writes odd-width
// high-bit-depth 4:2:2 chroma rows one sample short, so those files are compared with raw output.
std::string decoded_raw(const std::string& encoded) {
  const auto name = fs::path(encoded).filename().string() + ".yuv";
  return media(name, "-i " + quote(encoded) + " -f rawvideo");
}

// The test matrix: codecs, depths, chroma formats, an odd size.
std::string h264_420p8() { return media("h264_420p8.mkv", "-i " + quote(fx("astronaut_576x324_420p8_ref.y4m")) + " -c:v libx264 -crf 35"); }
std::string ffv1_ref_420p8() { return media("ffv1_420p8.mkv", "-i " + quote(fx("astronaut_576x324_420p8_ref.y4m")) + " -c:v ffv1"); }
std::string h264_420p10() { return media("h264_420p10.mp4", "-i " + quote(fx("rocket_576x324_420p10_ref.y4m")) + " -c:v libx264 -pix_fmt yuv420p10le -crf 35"); }
std::string hevc_444p12() { return media("hevc_444p12.mkv", "-i " + quote(fx("chelsea_320x180_444p12_ref.y4m")) + " -c:v libx265 -x265-params log-level=error -crf 32"); }
std::string vp9_444p8() { return media("vp9_444p8.webm", "-i " + quote(fx("astronaut_576x324_444p8_ref.y4m")) + " -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0"); }
std::string vp9_422p10_odd() { return media("vp9_422p10_odd.webm", "-i " + quote(fx("rocket_321x199_422p10_ref.y4m")) + " -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0"); }
std::string av1_420p8_odd() { return media("av1_420p8_odd.mkv", "-i " + quote(fx("motorcycle_183x177_420p8_ref.y4m")) + " -c:v libaom-av1 -cpu-used 8 -crf 50"); }
std::string mpeg2_420p8() { return media("mpeg2_420p8.ts", "-i " + quote(fx("coffee_576x324_420p8_ref.y4m")) + " -c:v mpeg2video -q:v 8"); }
std::string prores_422p10() { return media("prores_422p10.mov", "-i " + quote(fx("rocket_321x199_422p10_ref.y4m")) + " -c:v prores_ks"); }
std::string ffv1_gray8() { return media("ffv1_gray8.mkv", "-i " + quote(fx("camera_576x324_gray8_ref.y4m")) + " -c:v ffv1"); }

// --- the reader, frame by frame ---------------------------------------------------------------------

void expect_same_frames(const std::string& encoded, const picture_format& expected, bool raw = false) {
  SCOPED_TRACE(encoded);
  io::ffmpeg_reader dec(encoded);
  auto y4m = io::open_frame_source(raw ? decoded_raw(encoded) : decoded_y4m(encoded),
                                   raw ? std::optional(expected) : std::nullopt);
  EXPECT_EQ(dec.format(), expected) << describe(dec.format());
  ASSERT_EQ(dec.format(), y4m->format());
  picture a, b;
  std::size_t n = 0;
  for (;; ++n) {
    const bool ha = dec.read(a), hb = y4m->read(b);
    ASSERT_EQ(ha, hb) << "frame " << n;
    if (!ha) break;
    ASSERT_EQ(a.bytes().size(), b.bytes().size());
    ASSERT_EQ(std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()), 0) << "frame " << n;
  }
  EXPECT_GT(n, 0u);
  EXPECT_EQ(dec.frames_read(), n);
}

TEST(ffmpeg_reader, h264_420p8_frames_equal_ffmpegs_y4m) { expect_same_frames(h264_420p8(), {576, 324, chroma_format::yuv420, 8}); }
TEST(ffmpeg_reader, h264_420p10_frames_equal_ffmpegs_y4m) { expect_same_frames(h264_420p10(), {576, 324, chroma_format::yuv420, 10}); }
TEST(ffmpeg_reader, hevc_444p12_frames_equal_ffmpegs_y4m) { expect_same_frames(hevc_444p12(), {320, 180, chroma_format::yuv444, 12}); }
TEST(ffmpeg_reader, vp9_444p8_frames_equal_ffmpegs_y4m) { expect_same_frames(vp9_444p8(), {576, 324, chroma_format::yuv444, 8}); }
TEST(ffmpeg_reader, vp9_422p10_odd_size_frames_equal_ffmpegs_y4m) { expect_same_frames(vp9_422p10_odd(), {321, 199, chroma_format::yuv422, 10}, true); }
TEST(ffmpeg_reader, av1_420p8_odd_size_frames_equal_ffmpegs_y4m) { expect_same_frames(av1_420p8_odd(), {183, 177, chroma_format::yuv420, 8}); }
TEST(ffmpeg_reader, mpeg2_frames_equal_ffmpegs_y4m) { expect_same_frames(mpeg2_420p8(), {576, 324, chroma_format::yuv420, 8}); }
TEST(ffmpeg_reader, prores_422p10_frames_equal_ffmpegs_y4m) { expect_same_frames(prores_422p10(), {321, 199, chroma_format::yuv422, 10}, true); }
TEST(ffmpeg_reader, ffv1_gray_frames_equal_ffmpegs_y4m) { expect_same_frames(ffv1_gray8(), {576, 324, chroma_format::yuv400, 8}); }
TEST(ffmpeg_reader, lossless_ffv1_equals_the_source_y4m) {
  io::ffmpeg_reader dec(ffv1_ref_420p8());
  io::y4m_reader src(fx("astronaut_576x324_420p8_ref.y4m"));
  picture a, b;
  while (src.read(b)) {
    ASSERT_TRUE(dec.read(a));
    ASSERT_EQ(std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()), 0);
  }
  EXPECT_FALSE(dec.read(a));
}

TEST(ffmpeg_reader, skip_counts_frames_and_a_hint_is_given) {
  io::ffmpeg_reader dec(h264_420p8());
  io::y4m_reader y4m(decoded_y4m(h264_420p8()));
  std::size_t n = 0;
  picture p;
  while (y4m.read(p)) ++n;
  std::size_t skipped = 0;
  while (dec.skip()) ++skipped;
  EXPECT_EQ(skipped, n);
  EXPECT_EQ(dec.frames_read(), n);
  EXPECT_TRUE(dec.frame_count_hint().has_value());
}

TEST(ffmpeg_reader, destroyed_mid_stream_with_frames_queued) {
  for (int i = 0; i < 3; ++i) {
    io::ffmpeg_reader dec(h264_420p8(), io::ffmpeg_options{2, 1, false});
    picture p;
    ASSERT_TRUE(dec.read(p));
  }
}

TEST(open_frame_source, picks_y4m_raw_and_ffmpeg_readers) {
  EXPECT_NE(dynamic_cast<io::y4m_reader*>(io::open_frame_source(fx("astronaut_576x324_420p8_ref.y4m"), std::nullopt).get()), nullptr);
  EXPECT_NE(dynamic_cast<io::ffmpeg_reader*>(io::open_frame_source(h264_420p8(), std::nullopt).get()), nullptr);
  EXPECT_TRUE(io::have_ffmpeg);
}

// --- the CLI: scores of encoded inputs equal scores of ffmpeg's Y4Ms ---------------------------------

const std::vector<std::string> quick = {"--no_prediction", "--feature", "psnr", "--feature", "float_ssim"};
const std::vector<std::string> all_five = {"--no_prediction", "--feature", "psnr",     "--feature", "float_ssim",
                                           "--feature",       "float_ms_ssim", "--feature", "psnr_hvs"};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST_F(ffmpeg_cli, encoded_pair_scores_equal_the_y4m_pair_h264_8bit_all_metrics) {
  const auto ref = ffv1_ref_420p8(), dis = h264_420p8();
  const auto a = scores(std::vector<std::string>{"-r", ref, "-d", dis} + all_five);
  const auto b = scores(std::vector<std::string>{"-r", decoded_y4m(ref), "-d", decoded_y4m(dis)} + all_five);
  EXPECT_FALSE(a.is_null());
  EXPECT_EQ(a, b);
}

TEST_F(ffmpeg_cli, encoded_pair_scores_equal_the_y4m_pair_vmaf) {
  const auto ref = ffv1_ref_420p8(), dis = h264_420p8();
  const auto a = scores({"-r", ref, "-d", dis});
  const auto b = scores({"-r", decoded_y4m(ref), "-d", decoded_y4m(dis)});
  EXPECT_FALSE(a.is_null());
  EXPECT_EQ(a, b);
  EXPECT_TRUE(a.contains("pooled_metrics") && a["pooled_metrics"].contains("vmaf")) << a.dump();
}

TEST_F(ffmpeg_cli, encoded_distorted_against_y4m_reference_10bit_444_odd) {
  struct pair {
    std::string ref, dis;
  };
  for (const auto& [ref, dis] : {pair{fx("rocket_576x324_420p10_ref.y4m"), h264_420p10()},
                                 pair{fx("astronaut_576x324_444p8_ref.y4m"), vp9_444p8()},
                                 pair{fx("chelsea_320x180_444p12_ref.y4m"), hevc_444p12()},
                                 pair{fx("motorcycle_183x177_420p8_ref.y4m"), av1_420p8_odd()},
                                 pair{fx("rocket_321x199_422p10_ref.y4m"), vp9_422p10_odd()}}) {
    SCOPED_TRACE(dis);
    const auto a = scores(std::vector<std::string>{"-r", ref, "-d", dis} + quick);
    const bool odd_deep = dis == vp9_422p10_odd();  // see decoded_raw
    const auto b = odd_deep ? scores(std::vector<std::string>{"-r", ref, "-d", decoded_raw(dis), "-w", "321", "-h", "199",
                                                              "-p", "422", "-b", "10"} + quick)
                            : scores(std::vector<std::string>{"-r", ref, "-d", decoded_y4m(dis)} + quick);
    EXPECT_FALSE(a.is_null());
    EXPECT_EQ(a, b);
  }
}

// --- pipes: read once, never reopened ---------------------------------------------------------------

TEST_F(ffmpeg_cli, pipes_standard_input_dev_stdin_and_process_substitution) {
  const auto ref = fx("astronaut_576x324_420p8_ref.y4m"), dis = h264_420p8();
  const auto files = scores(std::vector<std::string>{"-r", ref, "-d", dis} + quick);
  ASSERT_FALSE(files.is_null());
  // A container on standard input, as '-' and as /dev/stdin.
  EXPECT_EQ(scores(std::vector<std::string>{"-r", ref, "-d", "-"} + quick, "cat " + quote(dis) + " | "), files);
  EXPECT_EQ(scores(std::vector<std::string>{"-r", ref, "-d", "/dev/stdin"} + quick, "cat " + quote(dis) + " | "), files);
  // A Y4M on standard input (the bug of issue #8: it was opened twice).
  EXPECT_EQ(scores(std::vector<std::string>{"-r", "-", "-d", dis} + quick, "cat " + quote(ref) + " | "), files);
  EXPECT_EQ(scores(std::vector<std::string>{"-r", "/dev/stdin", "-d", dis} + quick, "cat " + quote(ref) + " | "), files);
  // Both through process substitution, one of them straight from a decoder.
  const auto line = quote(VQM_CLI_PATH) + " -r <(cat " + quote(ref) + ") -d <(" + quote(VQM_FFMPEG_TOOL) +
                    " -hide_banner -loglevel error -i " + quote(dis) + " -c:v ffv1 -f matroska -)" +
                    args_line(quick) + " --precision max --json -q -o " + quote(path("subst.json"));
  const auto r = bash(line, dir_);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = json::parse(slurp(path("subst.json")));
  j.erase("fps");
  EXPECT_EQ(j, files);
  // A decoder's Y4M output on a pipe.
  EXPECT_EQ(scores(std::vector<std::string>{"-r", ref, "-d", "-"} + quick,
                   quote(VQM_FFMPEG_TOOL) + " -hide_banner -loglevel error -i " + quote(dis) + " -f yuv4mpegpipe - | "),
            files);
}

TEST_F(ffmpeg_cli, an_mp4_through_a_pipe) {
  const auto ref = fx("rocket_576x324_420p10_ref.y4m"), dis = h264_420p10();
  const auto files = scores(std::vector<std::string>{"-r", ref, "-d", dis} + quick);
  EXPECT_EQ(scores(std::vector<std::string>{"-r", ref, "-d", "-"} + quick, "cat " + quote(dis) + " | "), files);
}

TEST_F(ffmpeg_cli, both_inputs_on_standard_input_is_an_error) {
  expect_clean_failure("cat " + quote(h264_420p8()) + " | ", {"-r", "-", "-d", "-"}, {"standard input"});
}

// --- bad input: one line naming the file (and the frame), non-zero exit, no output ------------------

TEST_F(ffmpeg_cli, a_file_ffmpeg_cannot_open) {
  std::ofstream(path("not_video.mp4")) << "hello, this is not a video\n";
  expect_clean_failure("", {"-r", path("not_video.mp4"), "-d", h264_420p8()}, {"not_video.mp4", "FFmpeg cannot open"});
  expect_clean_failure("", {"-r", h264_420p8(), "-d", path("missing.mkv")}, {"missing.mkv", "no such file"});
}

TEST_F(ffmpeg_cli, raw_samples_without_the_raw_flags) {
  std::ofstream(path("frames.yuv"), std::ios::binary) << std::string(384, '\x10');
  std::ofstream(path("frames.bin"), std::ios::binary) << std::string(384, '\x10');
  expect_clean_failure("", {"-r", path("frames.yuv"), "-d", h264_420p8()}, {"frames.yuv", "give -w, -h, -p and -b"});
  expect_clean_failure("", {"-r", path("frames.bin"), "-d", h264_420p8()},
                       {"frames.bin", "FFmpeg cannot open it", "give -w, -h, -p and -b"});
}

TEST_F(ffmpeg_cli, a_file_without_a_video_stream) {
  const auto audio = media("audio_only.mka", "-f lavfi -i sine=d=0.2 -c:a flac");
  expect_clean_failure("", {"-r", h264_420p8(), "-d", audio}, {"audio_only.mka", "no video stream", "audio flac"});
}

TEST_F(ffmpeg_cli, a_corrupt_packet_mid_stream) {
  // 30 frames, a keyframe every 10 (one encoder thread: the same bytes everywhere); 200 bytes damaged at
  // 60% of the file, inside a P-frame slice the decoder cannot parse.
  const auto good_path = media("testsrc2_h264.mkv", "-f lavfi -i testsrc2=s=320x240:r=25:d=1.2 -c:v libx264 -threads 1 -g 10 -crf 30");
  auto bad = slurp(good_path);
  const std::size_t at = bad.size() * 6 / 10;
  for (std::size_t i = at; i < at + 200; ++i) bad[i] = static_cast<char>(bad[i] * 7 + 13);
  std::ofstream(path("damaged.mkv"), std::ios::binary) << bad;
  expect_clean_failure("", {"-r", good_path, "-d", path("damaged.mkv")}, {"damaged.mkv: frame ", "corrupt"});
  // With the damage detected, not at the start: the frame named is a later one.
  const auto err = slurp(path("stderr.txt"));
  EXPECT_EQ(err.find("frame 0:"), std::string::npos) << err;
}

TEST_F(ffmpeg_cli, a_stream_that_changes_size_or_pixel_format) {
  const auto src = fx("chelsea_576x324_420p8_ref.y4m");
  const auto big = media("ts_big.ts", "-i " + quote(src) + " -c:v libx264 -crf 30 -f mpegts");
  const auto small = media("ts_small.ts", "-i " + quote(src) + " -vf scale=288:162 -c:v libx264 -crf 30 -f mpegts");
  const auto deep = media("ts_10bit.ts", "-i " + quote(src) + " -c:v libx264 -pix_fmt yuv420p10le -crf 30 -f mpegts");
  const auto sizes = media("ts_size_change.ts", "-i " + quote("concat:" + big + "|" + small) + " -c copy -f mpegts");
  const auto depths = media("ts_format_change.ts", "-i " + quote("concat:" + big + "|" + deep) + " -c copy -f mpegts");
  expect_clean_failure("", {"-r", sizes, "-d", sizes},
                       {"ts_size_change.ts: frame 4", "576x324 yuv420p to 288x162 yuv420p"});
  expect_clean_failure("", {"-r", depths, "-d", depths},
                       {"ts_format_change.ts: frame 4", "yuv420p to 576x324 yuv420p10le"});
}

TEST_F(ffmpeg_cli, unsupported_pixel_formats_name_the_conversion) {
  const auto rgb = media("rgb24.nut", "-f lavfi -i testsrc2=s=64x48:d=0.1 -pix_fmt rgb24 -c:v rawvideo");
  std::ofstream(path("bayer.raw"), std::ios::binary) << std::string(64 * 48 * 2, '\x40');
  const auto bayer = media("bayer.nut", "-f rawvideo -pix_fmt bayer_rggb8 -s 64x48 -i " + quote(path("bayer.raw")) + " -c:v rawvideo");
  fs::remove(path("bayer.raw"));
  const auto p9 = media("yuv420p9.mkv", "-f lavfi -i testsrc2=s=64x48:d=0.1 -pix_fmt yuv420p9le -c:v ffv1");
  expect_clean_failure("", {"-r", rgb, "-d", rgb}, {"rgb24.nut: frame 0", "pixel format rgb24", "-pix_fmt yuv444p"});
  expect_clean_failure("", {"-r", bayer, "-d", bayer}, {"bayer.nut: frame 0", "bayer_rggb8", "-pix_fmt yuv444p"});
  expect_clean_failure("", {"-r", p9, "-d", p9}, {"yuv420p9.mkv: frame 0", "yuv420p9le", "-pix_fmt yuv420p10le"});
}

TEST_F(ffmpeg_cli, a_pipe_that_closes_early) {
  const auto ref = fx("chelsea_576x324_420p8_ref.y4m");
  const auto dis = media("chelsea_h264.mkv", "-i " + quote(ref) + " -c:v libx264 -g 100 -crf 28");
  const auto size = fs::file_size(dis);
  // Cut inside the first frame: nothing decodes.
  expect_clean_failure("head -c 3000 " + quote(dis) + " | ", {"-r", ref, "-d", "-"}, {"-: no video frames", "closed early"});
  // Cut inside the last frames: the file declares its duration, so the reader names the frame cut short.
  expect_clean_failure("head -c " + std::to_string(size - 200) + " " + quote(dis) + " | ", {"-r", ref, "-d", "-"},
                       {"-: frame ", "truncated"});
  // A Matroska written as a live stream declares none: fewer frames than the reference.
  const auto live = media("chelsea_h264_live.mkv", "-i " + quote(ref) + " -c:v libx264 -g 100 -crf 28 -live 1");
  expect_clean_failure("head -c " + std::to_string(fs::file_size(live) - 200) + " " + quote(live) + " | ",
                       {"-r", ref, "-d", "-"}, {"distorted - has", "frames"});
  // A Y4M cut mid-frame.
  expect_clean_failure("head -c 500000 " + quote(ref) + " | ", {"-r", "-", "-d", dis}, {"-: frame 1", "truncated"});
  // Nothing at all.
  expect_clean_failure(": | ", {"-r", ref, "-d", "-"}, {"-: empty input"});
}

}  // namespace
