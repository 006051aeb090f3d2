// float_motion (libvmaf's float_motion.c) beyond the reference pairs (backend_reference checks those on
// both backends): refused inputs and options, output names and suffixes, and the Vulkan engine against the
// Cpu kernel (==) on random streams at 8/10/12/16 bits, sizes from 3x3 up (odd ones, rows wider than one
// workgroup), one and several frames in flight, every option that changes the host math.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

static_assert(FloatMotionKernel<Cpu> && FloatMotionKernel<Vulkan>);

TEST(FloatMotion, RefusesWhatLibvmafCannotDo) {
  const auto refused = [](picture_format f, const std::string& opts) {
    try {
      (void)make_metric<Cpu>("float_motion", option_map::parse(opts), f);
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::unsupported_format) << e.what();
      return true;
    }
    return false;
  };
  EXPECT_TRUE(refused({2, 8, chroma_format::yuv420, 8}, ""));
  EXPECT_TRUE(refused({8, 2, chroma_format::yuv420, 8}, ""));
  EXPECT_TRUE(refused({8, 8, chroma_format::yuv420, 9}, ""));
  EXPECT_TRUE(refused({8, 8, chroma_format::yuv420, 14}, ""));
  EXPECT_TRUE(refused({8, 8, chroma_format::yuv420, 8}, "motion_add_uv=true"));
  EXPECT_TRUE(refused({8, 8, chroma_format::yuv420, 8}, "motion_add_scale1=true"));
  EXPECT_TRUE(refused({8, 8, chroma_format::yuv420, 8}, "motion_filter_size=3"));
  EXPECT_FALSE(refused({3, 3, chroma_format::yuv400, 16}, ""));
  EXPECT_FALSE(refused({3, 3, chroma_format::yuv400, 10}, "motion_filter_size=7"));
}

TEST(FloatMotion, NamesInLibvmafOrderWithSuffixes) {
  const picture_format f{16, 16, chroma_format::yuv420, 8};
  const auto names = [&](const std::string& opts) { return make_metric<Cpu>("float_motion", option_map::parse(opts), f).names(); };
  EXPECT_EQ(names(""), (std::vector<std::string>{"motion2", "motion"}));
  EXPECT_EQ(names("debug=false"), (std::vector<std::string>{"motion2"}));
  EXPECT_EQ(names("motion_fps_weight=2:motion_force_zero=true"),
            (std::vector<std::string>{"motion2_force_0_mfw_2", "motion_force_0_mfw_2"}));
}

// Frames of a random walk (so that consecutive frames are alike, as video), `bpc` bits.
std::vector<picture> walk(std::uint32_t w, std::uint32_t h, std::uint32_t bpc, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  const int top = (1 << bpc) - 1;
  std::vector<picture> out;
  std::vector<int> v(std::size_t{w} * h);
  for (auto& x : v) x = static_cast<int>(rng() % (static_cast<unsigned>(top) + 1));
  for (std::size_t i = 0; i < n; ++i) {
    picture p(picture_format{w, h, chroma_format::yuv400, bpc});
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        int& s = v[std::size_t{y} * w + x];
        s = std::clamp(s + static_cast<int>(rng() % 65) - 32 - (i == 3 ? top / 3 : 0), 0, top);
        if (bpc > 8) p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(s);
        else p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(s);
      }
    out.push_back(std::move(p));
  }
  return out;
}

// Every per-frame value and end-of-stream series of one stream.
template <class B>
std::pair<std::vector<std::vector<double>>, std::vector<named_series>> run(B& b, const std::vector<picture>& pics,
                                                                           const std::string& opts, std::size_t depth) {
  std::vector<any_metric<B>> m;
  m.push_back(make_metric<B>("float_motion", option_map::parse(opts), pics.front().format()));
  scorer<B> sc(b, std::move(m), compat::none, depth);
  std::vector<std::vector<double>> rows;
  for (const auto& p : pics)
    if (auto r = sc.push(p, p)) rows.push_back(r->values);
  while (auto r = sc.pop()) rows.push_back(r->values);
  return {rows, sc.finish()};
}

TEST(FloatMotion, VulkanEqualsCpu) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan vk(ctx);
  Vulkan* gpu = &vk;
  Cpu cpu;
  unsigned seed = 1;
  for (const auto& [w, h, bpc] : {std::tuple{3u, 3u, 8u}, std::tuple{5u, 4u, 10u}, std::tuple{37u, 11u, 12u},
                                  std::tuple{300u, 3u, 16u}, std::tuple{3u, 70u, 8u}, std::tuple{129u, 67u, 8u}})
    for (const char* opts : {"", "motion_fps_weight=1.7:motion_blend_factor=0.3:motion_blend_offset=2",
                             "motion_max_val=3:debug=false", "motion_force_zero=true"})
      for (std::size_t frames : {1u, 2u, 6u}) {
        const auto pics = walk(w, h, bpc, frames, seed++);
        const auto want = run(cpu, pics, opts, 1);
        const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit " +
                                 opts + " " + std::to_string(frames) + " frames";
        for (std::size_t depth : {1u, 3u}) {
          const auto got = run(*gpu, pics, opts, depth);
          EXPECT_EQ(got.first, want.first) << what;
          EXPECT_EQ(got.second, want.second) << what;
        }
        ASSERT_EQ(want.second.size(), 2u);
        if (frames == 1 || std::string(opts).find("force") != std::string::npos) {
          for (const auto& [name, s] : want.second)
            for (double x : s) EXPECT_EQ(x, 0.0) << what << " " << name;
        }
      }
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
