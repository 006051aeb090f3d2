// The CLI's --scale / --scale-to (apps/vqm/scale_options.hpp): which input gets scaled to which size,
// with which filter (the frames equal those the `ffmpeg` tool writes with the documented filter), and the
// flags' errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scale_helpers.hpp"
#include "scale_options.hpp"

namespace {

using namespace vqm;
using namespace scale_test;
using io::scale_mode;

const std::string ref_path = fixture("astronaut_576x324_420p8_ref.y4m");

// A distorted input at 320x181, made by ffmpeg with its own default filter.
std::string small_dis() {
  return ffmpeg_output("astronaut_crf35_320x181.y4m", "-i " + quote(fixture("astronaut_576x324_420p8_x264crf35.y4m")) +
                                                          " -s 320x181 -strict -1 -f yuv4mpegpipe");
}

struct opened {
  std::unique_ptr<io::frame_source> ref, dis;
  const io::frame_source *ref0, *dis0;  // before apply_scaling
};

opened open_and_scale(const cli::scale_options& o) {
  opened p{io::open_frame_source(ref_path, std::nullopt), io::open_frame_source(small_dis(), std::nullopt), nullptr,
           nullptr};
  p.ref0 = p.ref.get();
  p.dis0 = p.dis.get();
  cli::apply_scaling(o, p.ref, p.dis);
  return p;
}

void expect_frames_of(io::frame_source& s, const std::string& input, std::uint32_t w, std::uint32_t h, scale_mode m) {
  auto theirs = io::open_frame_source(ffmpeg_scaled(input, w, h, m), std::nullopt);
  expect_same_frames(s, *theirs);
}

TEST(scale_cli, no_flags_no_scaling) {
  auto p = open_and_scale({});
  EXPECT_EQ(p.ref.get(), p.ref0);
  EXPECT_EQ(p.dis.get(), p.dis0);
}

TEST(scale_cli, scale_scales_the_distorted_to_the_reference) {
  auto p = open_and_scale({"lanczos", ""});
  EXPECT_EQ(p.ref.get(), p.ref0);
  expect_frames_of(*p.dis, small_dis(), 576, 324, scale_mode::lanczos);
  EXPECT_EQ(p.dis->path(), small_dis());  // messages still name the file
}

TEST(scale_cli, scale_to_dis_scales_the_reference_with_bicubic_by_default) {
  auto p = open_and_scale({"", "dis"});
  EXPECT_EQ(p.dis.get(), p.dis0);
  expect_frames_of(*p.ref, ref_path, 320, 181, scale_mode::bicubic);
}

TEST(scale_cli, scale_to_size_scales_both) {
  auto p = open_and_scale({"area", "200x113"});
  expect_frames_of(*p.ref, ref_path, 200, 113, scale_mode::area);
  expect_frames_of(*p.dis, small_dis(), 200, 113, scale_mode::area);
  auto q = open_and_scale({"", "ref"});
  expect_frames_of(*q.dis, small_dis(), 576, 324, scale_mode::bicubic);
}

TEST(scale_cli, sizes) {
  EXPECT_EQ(cli::parse_size("1920x1080"), (std::pair<std::uint32_t, std::uint32_t>{1920, 1080}));
  for (const char* bad : {"0x5", "5x0", "x5", "5x", "-1x5", "1920X1080", " 1x1", "1x1 ", "1x1x1", "ref", "",
                          "99999999999x1"})
    EXPECT_FALSE(cli::parse_size(bad)) << bad;
}

std::string parse_error(const std::vector<std::string>& args) {
  CLI::App app;
  cli::scale_options o;
  cli::add_scale_options(app, o);
  std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(rev);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return {};
}

TEST(scale_cli, flag_errors) {
  EXPECT_EQ(parse_error({"--scale", "spline", "--scale-to", "64x48"}), "");
  auto msg = parse_error({"--scale", "cubic"});
  EXPECT_NE(msg.find("unknown scaling mode 'cubic'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bicubic, bilinear"), std::string::npos) << msg;
  msg = parse_error({"--scale-to", "64"});
  EXPECT_NE(msg.find("'64' is not ref, dis or a size WxH"), std::string::npos) << msg;

  try {
    (void)open_and_scale({"", "40000x10"});
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("--scale-to 40000x10"), std::string::npos) << e.what();
  }
  try {
    (void)open_and_scale({"cubic", ""});  // past the flag's check (a library caller)
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("--scale cubic: unknown mode"), std::string::npos) << e.what();
  }
}

}  // namespace
