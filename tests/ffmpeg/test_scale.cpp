// vqm::io scaling (ffmpeg_scale.hpp): every frame scaled by vqm equals, sample for sample, the frame the
// `ffmpeg` tool writes with the filter docs/scaling.md documents (ffmpeg_scale_filter), for every mode,
// up and down, odd sizes, 8 to 16 bits, 4:2:0, 4:2:2, 4:4:4 and gray; plus the API's errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scale_helpers.hpp"

namespace {

using namespace vqm;
using namespace scale_test;
using io::scale_mode;

struct scale_case {
  std::string input;  // a fixture name, or a path
  std::uint32_t width, height;
  std::vector<scale_mode> modes;
};

const std::vector<scale_mode> all_modes = {scale_mode::bicubic, scale_mode::bilinear, scale_mode::lanczos,
                                           scale_mode::neighbor, scale_mode::area,    scale_mode::spline};

void expect_like_ffmpeg(const scale_case& c) {
  const std::string in = c.input.find('/') == std::string::npos ? fixture(c.input) : c.input;
  for (const auto m : c.modes) {
    SCOPED_TRACE(in + " -> " + std::to_string(c.width) + "x" + std::to_string(c.height) + " " + io::to_string(m));
    auto ours = io::make_scaled_source(io::open_frame_source(in, std::nullopt), c.width, c.height, m);
    auto src_format = io::open_frame_source(in, std::nullopt)->format();
    auto expected = src_format;
    expected.width = c.width;
    expected.height = c.height;
    EXPECT_EQ(ours->format(), expected);
    // FFmpeg 5.1's Y4M muxer writes odd-width chroma rows one sample short above 8 bits: raw output there.
    const bool raw = expected.bit_depth > 8 && expected.width % 2 == 1 && expected.chroma != chroma_format::yuv444;
    const auto theirs_path = ffmpeg_scaled(in, c.width, c.height, m, raw);
    auto theirs = io::open_frame_source(theirs_path, raw ? std::optional(expected) : std::nullopt);
    expect_same_frames(*ours, *theirs);
  }
}

TEST(scale_like_ffmpeg, yuv420p8_down_and_up_every_mode) {
  expect_like_ffmpeg({"astronaut_576x324_420p8_ref.y4m", 320, 181, all_modes});
  expect_like_ffmpeg({"astronaut_576x324_420p8_ref.y4m", 1001, 577, all_modes});
}

TEST(scale_like_ffmpeg, yuv420p10_down_and_up_every_mode) {
  expect_like_ffmpeg({"rocket_576x324_420p10_ref.y4m", 287, 163, all_modes});
  expect_like_ffmpeg({"rocket_576x324_420p10_ref.y4m", 1280, 720, all_modes});
}

TEST(scale_like_ffmpeg, yuv444) {
  expect_like_ffmpeg({"astronaut_576x324_444p8_ref.y4m", 799, 451, {scale_mode::bicubic, scale_mode::lanczos, scale_mode::neighbor}});
  expect_like_ffmpeg({"astronaut_576x324_444p8_ref.y4m", 175, 99, {scale_mode::area, scale_mode::bilinear}});
  expect_like_ffmpeg({"chelsea_320x180_444p12_ref.y4m", 641, 359, {scale_mode::bicubic, scale_mode::spline}});
}

TEST(scale_like_ffmpeg, yuv422_gray_16bit_and_odd_inputs) {
  expect_like_ffmpeg({"rocket_321x199_422p10_ref.y4m", 577, 325, {scale_mode::bicubic, scale_mode::lanczos}});
  expect_like_ffmpeg({"coffee_576x324_422p8_ref.y4m", 355, 200, {scale_mode::bicubic}});
  // Tagged XCOLORRANGE=FULL: without in_range/out_range vf_scale would convert it to limited range.
  expect_like_ffmpeg({"camera_576x324_gray8_ref.y4m", 300, 201, {scale_mode::bicubic, scale_mode::area}});
  expect_like_ffmpeg({"astronaut_176x176_420p16_ref.y4m", 97, 263, {scale_mode::bicubic, scale_mode::lanczos}});
  expect_like_ffmpeg({"motorcycle_183x177_420p8_ref.y4m", 576, 324, {scale_mode::bicubic, scale_mode::neighbor}});
  expect_like_ffmpeg({"coffee_576x324_420p8_mpeg2_400k.y4m", 1, 1, {scale_mode::bicubic}});  // C420mpeg2 siting tag
}

// Samples at 0 and at the maximum: the filters overshoot and must clip as FFmpeg's do.
TEST(scale_like_ffmpeg, random_planes_with_extremes) {
  const auto p10 = random_y4m("random_420p10.y4m", {97, 61, chroma_format::yuv420, 10}, "C420p10", 3);
  expect_like_ffmpeg({p10, 203, 131, all_modes});
  expect_like_ffmpeg({p10, 45, 30, {scale_mode::bicubic, scale_mode::lanczos}});
  const auto p8 = random_y4m("random_444p8.y4m", {64, 48, chroma_format::yuv444, 8}, "C444", 2);
  expect_like_ffmpeg({p8, 151, 97, {scale_mode::bicubic, scale_mode::lanczos, scale_mode::spline}});
  const auto p12 = random_y4m("random_420p12.y4m", {50, 40, chroma_format::yuv420, 12}, "C420p12", 2);
  expect_like_ffmpeg({p12, 33, 77, {scale_mode::lanczos}});
}

// A full-range tag vf_scale would act on (the documented filter keeps samples as stored).
TEST(scale_like_ffmpeg, full_range_tagged_input) {
  const auto full = ffmpeg_output("rocket_420p10_full.y4m", "-i " + quote(fixture("rocket_576x324_420p10_ref.y4m")) +
                                                                " -color_range pc -strict -1 -f yuv4mpegpipe");
  ASSERT_NE(slurp(full).substr(0, 120).find("XCOLORRANGE=FULL"), std::string::npos);
  expect_like_ffmpeg({full, 320, 181, {scale_mode::bicubic}});
}

// The comparison is not vacuous: modes give different pictures.
TEST(scale_source, modes_differ) {
  const auto in = fixture("astronaut_576x324_420p8_ref.y4m");
  auto a = io::make_scaled_source(io::open_frame_source(in, std::nullopt), 320, 181, scale_mode::bicubic);
  auto b = io::make_scaled_source(io::open_frame_source(in, std::nullopt), 320, 181, scale_mode::neighbor);
  picture pa, pb;
  ASSERT_TRUE(a->read(pa));
  ASSERT_TRUE(b->read(pb));
  ASSERT_EQ(pa.bytes().size(), pb.bytes().size());
  EXPECT_NE(std::memcmp(pa.bytes().data(), pb.bytes().data(), pa.bytes().size()), 0);
}

TEST(scale_source, keeps_buffers_and_counts_frames) {
  const auto in = fixture("rocket_576x324_420p10_ref.y4m");
  const auto frames = io::open_frame_source(in, std::nullopt);
  std::size_t n = 0;
  while (frames->skip()) ++n;
  auto s = io::make_scaled_source(io::open_frame_source(in, std::nullopt), 200, 100, scale_mode::bicubic);
  EXPECT_EQ(s->path(), in);
  picture pic;
  ASSERT_TRUE(s->read(pic));
  const std::byte* data = pic.plane_data(0);
  ASSERT_TRUE(s->skip());
  std::size_t read = 2;
  while (s->read(pic)) {
    EXPECT_EQ(pic.plane_data(0), data);  // the caller's picture is reused, not reallocated
    ++read;
  }
  EXPECT_EQ(read, n);
  EXPECT_EQ(s->frames_read(), n);
}

TEST(scale_source, same_size_is_the_input_itself) {
  auto in = io::open_frame_source(fixture("astronaut_576x324_420p8_ref.y4m"), std::nullopt);
  const auto* raw = in.get();
  auto s = io::make_scaled_source(std::move(in), 576, 324, scale_mode::lanczos);
  EXPECT_EQ(s.get(), raw);
}

TEST(scale_modes, parse_and_names) {
  for (const auto& i : io::scale_modes) {
    EXPECT_EQ(io::parse_scale_mode(i.name), i.mode);
    EXPECT_STREQ(io::to_string(i.mode), i.name);
    EXPECT_NE(io::scale_mode_names().find(i.name), std::string::npos);
    EXPECT_EQ(io::sws_flags(i.mode) & (SWS_ACCURATE_RND | SWS_BITEXACT), SWS_ACCURATE_RND | SWS_BITEXACT);
  }
  EXPECT_FALSE(io::parse_scale_mode("Bicubic"));
  EXPECT_FALSE(io::parse_scale_mode(""));
  EXPECT_FALSE(io::parse_scale_mode("fast_bilinear"));
  EXPECT_EQ(io::ffmpeg_scale_filter(1920, 1080, scale_mode::lanczos),
            "scale=1920:1080:flags=lanczos+accurate_rnd+bitexact:in_range=tv:out_range=tv");
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;  // one line
    return msg;
  }
  return "(no error)";
}

TEST(scale_errors, one_line_naming_the_input_and_problem) {
  const picture_format f11{64, 48, chroma_format::yuv420, 11};
  auto msg = error_of([&] { io::picture_scaler s(f11, 32, 24, scale_mode::bicubic, "in.y4m"); });
  EXPECT_NE(msg.find("in.y4m"), std::string::npos) << msg;
  EXPECT_NE(msg.find("11-bit"), std::string::npos) << msg;

  const picture_format f8{64, 48, chroma_format::yuv420, 8};
  msg = error_of([&] { io::picture_scaler s(f8, 0, 24, scale_mode::bicubic, "in.y4m"); });
  EXPECT_NE(msg.find("in.y4m"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0x24"), std::string::npos) << msg;
  msg = error_of([&] { io::picture_scaler s(f8, 40000, 24, scale_mode::bicubic, "in.y4m"); });
  EXPECT_NE(msg.find("40000x24"), std::string::npos) << msg;

  io::picture_scaler s(f8, 32, 24, scale_mode::bicubic, "in.y4m");
  picture other({64, 48, chroma_format::yuv444, 8}), out;
  msg = error_of([&] { s.scale(other, out); });
  EXPECT_NE(msg.find("in.y4m"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4:4:4"), std::string::npos) << msg;

  msg = error_of([&] { (void)io::make_scaled_source(nullptr, 32, 24, scale_mode::bicubic); });
  EXPECT_NE(msg.find("no input"), std::string::npos) << msg;
}

}  // namespace
