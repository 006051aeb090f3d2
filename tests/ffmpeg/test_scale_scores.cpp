// Scores of scaled inputs: scoring a pair through vqm's scaled source (session on the Cpu backend:
// VMAF v0.6.1 with its features, psnr, float_ssim) gives exactly the numbers of scoring the file the
// `ffmpeg` tool scales with the documented filter, frame by frame and in the aggregates.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scale_helpers.hpp"
#include "vqm/cpu.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/model.hpp"

namespace {

using namespace vqm;
using namespace scale_test;
using io::scale_mode;

score_table score(io::frame_source& ref, io::frame_source& dis) {
  Cpu cpu(2);
  session_config cfg;
  cfg.models.push_back(vmaf::builtin_model("vmaf_v0.6.1"));
  cfg.features = {parse_feature_request("psnr"), parse_feature_request("float_ssim")};
  cfg.depth = 2;
  session<Cpu> s(cpu, ref.format(), cfg);
  std::vector<picture> ring_ref(s.depth() + 1), ring_dis(s.depth() + 1);
  for (std::size_t i = 0;; ++i) {
    auto& r = ring_ref[i % ring_ref.size()];
    auto& d = ring_dis[i % ring_dis.size()];
    const bool hr = ref.read(r), hd = dis.read(d);
    EXPECT_EQ(hr, hd) << "frame " << i;
    if (!hr || !hd) break;
    s.push(r, d);
  }
  return s.finish();
}

// Same names, same frames, every value the same double (bit for bit).
void expect_same_scores(const score_table& a, const score_table& b) {
  ASSERT_EQ(a.names, b.names);
  ASSERT_EQ(a.frames, b.frames);
  ASSERT_GT(a.rows.size(), 0u);
  for (std::size_t r = 0; r < a.rows.size(); ++r)
    for (std::size_t k = 0; k < a.names.size(); ++k)
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a.rows[r][k]), std::bit_cast<std::uint64_t>(b.rows[r][k]))
          << a.names[k] << " frame " << a.frames[r] << ": " << a.rows[r][k] << " vs " << b.rows[r][k];
  ASSERT_EQ(a.aggregate.size(), b.aggregate.size());
  for (std::size_t i = 0; i < a.aggregate.size(); ++i) {
    EXPECT_EQ(a.aggregate[i].first, b.aggregate[i].first);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.aggregate[i].second), std::bit_cast<std::uint64_t>(b.aggregate[i].second))
        << a.aggregate[i].first;
  }
}

// A distorted file at another size than its reference (made by ffmpeg, with its own default filter).
std::string small_distorted(const std::string& fixture_name, const std::string& size) {
  std::string name = fs::path(fixture_name).stem().string();
  name += "_small_";
  name += size;
  name += ".y4m";
  return ffmpeg_output(name, "-i " + quote(fixture(fixture_name)) + " -s " + size + " -strict -1 -f yuv4mpegpipe");
}

// --scale MODE: the distorted scaled up to the reference's size.
TEST(scale_scores, distorted_scaled_to_the_reference_like_ffmpeg) {
  const auto ref = fixture("astronaut_576x324_420p8_ref.y4m");
  const auto dis = small_distorted("astronaut_576x324_420p8_x264crf35.y4m", "320x181");
  for (const auto m : {scale_mode::bicubic, scale_mode::lanczos}) {
    SCOPED_TRACE(io::to_string(m));
    auto r1 = io::open_frame_source(ref, std::nullopt);
    auto d1 = io::make_scaled_source(io::open_frame_source(dis, std::nullopt), 576, 324, m);
    const auto ours = score(*r1, *d1);
    auto r2 = io::open_frame_source(ref, std::nullopt);
    auto d2 = io::open_frame_source(ffmpeg_scaled(dis, 576, 324, m), std::nullopt);
    const auto theirs = score(*r2, *d2);
    expect_same_scores(ours, theirs);
    ASSERT_TRUE(ours.find("vmaf"));
  }
}

// --scale-to dis: the reference scaled down to the distorted's size (10-bit).
TEST(scale_scores, reference_scaled_to_the_distorted_like_ffmpeg) {
  const auto ref = fixture("rocket_576x324_420p10_ref.y4m");
  const auto dis = small_distorted("rocket_576x324_420p10_x264crf35.y4m", "288x163");
  auto r1 = io::make_scaled_source(io::open_frame_source(ref, std::nullopt), 288, 163, scale_mode::area);
  auto d1 = io::open_frame_source(dis, std::nullopt);
  const auto ours = score(*r1, *d1);
  auto r2 = io::open_frame_source(ffmpeg_scaled(ref, 288, 163, scale_mode::area), std::nullopt);
  auto d2 = io::open_frame_source(dis, std::nullopt);
  expect_same_scores(ours, score(*r2, *d2));
}

}  // namespace
