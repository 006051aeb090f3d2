// cambi's Vulkan engine against the Cpu kernel (==, every output) on banded random pictures: 8/10/12/16
// bits, full_ref, eotf=pq with a visibility threshold, hrs, resized encodes and sources, windows, topk,
// contrasts, odd sizes and sizes at the refusal limits, several frames in flight; the v1 models' cambi
// option set against libvmaf's model runs; the frame error for samples above the bit depth. The plain,
// full_ref and eotf=pq runs of the reference JSONs are backend_reference's (test_vulkan_metrics.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

static_assert(CambiKernel<Cpu> && CambiKernel<Vulkan>);

Vulkan* gpu() {
  static std::shared_ptr<Vulkan> v = [] {
    auto ctx = vk_context();
    return ctx ? std::make_shared<Vulkan>(ctx) : nullptr;
  }();
  return v.get();
}

// Flat bands one 10-bit code apart (what cambi detects), tilted per frame, with noisy patches (unmasked
// areas) and a few large steps; `bpc` bits.
std::vector<picture> banded(std::uint32_t w, std::uint32_t h, std::uint32_t bpc, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  const int top = (1 << bpc) - 1;
  const int unit = bpc >= 10 ? 1 << (bpc - 10) : 1;
  std::vector<picture> out;
  for (std::size_t i = 0; i < n; ++i) {
    picture p(picture_format{w, h, chroma_format::yuv420, bpc});
    const int start = top / 16 + static_cast<int>(rng() % static_cast<unsigned>(top / 6));  // visible banding
    const int period = 6 + static_cast<int>(rng() % 20);
    const int tilt = static_cast<int>(rng() % 5);
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        const int xi = static_cast<int>(x), yi = static_cast<int>(y);
        int v = start + unit * ((xi + tilt * yi / 4) / period) + (xi > static_cast<int>(w) * 2 / 3 ? top / 6 : 0);
        if (((xi / 37 + yi / 29) % 5) == 0) v += static_cast<int>(rng() % 7) - 3;  // noisy patches
        v = std::clamp(v, 0, top);
        if (bpc > 8) p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
        else p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
      }
    out.push_back(std::move(p));
  }
  return out;
}

template <class B>
std::vector<std::vector<double>> scores(B& b, const std::vector<picture>& ref, const std::vector<picture>& dis,
                                        const std::string& opts, std::size_t depth) {
  std::vector<any_metric<B>> m;
  m.push_back(make_metric<B>("cambi", option_map::parse(opts), ref.front().format(), compat::libvmaf));
  scorer<B> sc(b, std::move(m), compat::libvmaf, depth);
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (auto r = sc.push(ref[i], dis[i])) out.push_back(r->values);
  while (auto r = sc.pop()) out.push_back(r->values);
  return out;
}

TEST(VulkanCambi, RunsOnVulkan) { EXPECT_TRUE(runs_on<Vulkan>("cambi")); }

// Every output of every frame equal to the Cpu kernel's, for each (size, depth, options).
TEST(VulkanCambi, EqualsCpuOnBandedPictures) {
  Vulkan* v = gpu();
  if (!v) GTEST_SKIP() << "no Vulkan device on this machine";
  Cpu cpu;
  struct run_t {
    std::uint32_t w, h, bpc;
    std::string opts;
  };
  const std::vector<run_t> runs{
      {320, 216, 8, ""},                                  // anti-dithering (8-bit encode)
      {333, 217, 10, "full_ref=true"},                    // odd sizes, both scores and their difference
      {401, 239, 12, "eotf=pq:cambi_vis_lum_threshold=1:cambi_max_val=5"},
      {250, 221, 16, "cambi_eotf=pq:max_log_contrast=5:topk=0.3"},
      {576, 324, 8, "enc_width=400:enc_height=300:src_width=480:src_height=320:full_ref=true"},
      {576, 324, 10, "enc_width=431:enc_height=277:enc_bitdepth=8:window_size=33:cambi_topk=1"},
      {300, 240, 10, "enc_bitdepth=10:max_log_contrast=0:tvi_threshold=0.01"},
      {1920, 216, 8, "max_log_contrast=3:window_size=15"},  // at the elongation limit: the last scale is half a window
      {216, 100, 10, "cambi_topk=0.0001"},
      {1920, 1080, 8, "cambi_high_res_speedup=1080:full_ref=true:src_width=960:src_height=540"},
  };
  std::size_t compared = 0;
  for (const auto& r : runs) {
    const std::size_t frames = r.w * r.h > 1000000 ? 1 : 2;
    const auto ref = banded(r.w, r.h, r.bpc, frames, r.w + r.bpc);
    const auto dis = banded(r.w, r.h, r.bpc, frames, r.h * 7 + r.bpc);
    const auto want = scores(cpu, ref, dis, r.opts, 1);
    for (const std::size_t depth : {std::size_t{1}, v->frames_in_flight()}) {
      if (depth == 1 && &r != &runs.front()) continue;  // one frame at a time: the first run is enough
      const auto got = scores(*v, ref, dis, r.opts, depth);
      ASSERT_EQ(got.size(), want.size()) << r.opts;
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].size(), want[i].size());
        for (std::size_t k = 0; k < got[i].size(); ++k) {
          EXPECT_PRED2(same, got[i][k], want[i][k])
              << r.w << "x" << r.h << " " << r.bpc << "-bit " << r.opts << " frame " << i << " output " << k;
          ++compared;
        }
      }
    }
    // The banding must be found, or the comparison proves little.
    EXPECT_GT(*std::max_element(want.front().begin(), want.front().end()), 0.0) << r.opts;
  }
  std::printf("[ cambi ] %zu Vulkan values equal to the Cpu's\n", compared);
}

// What the Cpu backend refuses, the Vulkan backend refuses (the host algorithm decides for both).
TEST(VulkanCambi, RefusesWhatCpuRefuses) {
  const auto refused = [](const picture_format& f, const std::string& opts) {
    try {
      (void)make_metric<Vulkan>("cambi", option_map::parse(opts), f);
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::unsupported_format) << e.what();
      return true;
    }
    return false;
  };
  const picture_format small{183, 177, chroma_format::yuv420, 8}, thin{4000, 216, chroma_format::yuv420, 8};
  EXPECT_TRUE(refused(small, ""));
  EXPECT_TRUE(refused(thin, ""));
  EXPECT_TRUE(refused({576, 324, chroma_format::yuv420, 8}, "heatmaps_path=/tmp/x"));
  EXPECT_TRUE(refused({3840, 2160, chroma_format::yuv420, 8}, "window_size=127"));
  EXPECT_FALSE(refused({1920, 216, chroma_format::yuv420, 8}, ""));
}

// A sample above the input's bit depth is libvmaf's frame error, on the GPU as on the Cpu.
TEST(VulkanCambi, OutOfRangeSamplesAreAFrameError) {
  Vulkan* v = gpu();
  if (!v) GTEST_SKIP() << "no Vulkan device on this machine";
  auto ref = banded(320, 216, 10, 1, 1), dis = banded(320, 216, 10, 1, 2);
  dis[0].row<std::uint16_t>(0, 7)[9] = 1024;
  try {
    (void)scores(*v, ref, dis, "", 1);
    ADD_FAILURE() << "a 10-bit sample of 1024 was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::bad_input);
    EXPECT_NE(std::string(e.what()).find("(9, 7) exceeds 10-bit range"), std::string::npos) << e.what();
  }
}

// The v1.0.16 models' cambi values on Vulkan: cli.every_vmaf_v1_model_value_vulkan compares every one.

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
