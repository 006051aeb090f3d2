// float_adm (libvmaf's float_adm.c) on Vulkan beyond the reference pairs (backend_reference checks those on
// both backends): the engine against the Cpu kernel (==, every debug output: each scale's binary32 num and
// den, adm2, aim, adm3) on noisy pairs at 8/10/12/16 bits, from the smallest size libvmaf accepts to
// subbands wider than one workgroup, odd sizes, every adm_rcp table and the exact division, the options
// that change the GPU work, one and several frames in flight; and what the engine refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/reference_data.hpp"
#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/fadm_div_test.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

static_assert(FloatAdmKernel<Cpu> && FloatAdmKernel<Vulkan>);

// `n` pairs of a smooth random luma and its copy, damped on the left (contrast loss: restored = distorted),
// noisy on the right (the quotients matter), with one flat patch (the decoupling divides by ~1e−30).
std::vector<std::pair<picture, picture>> noisy_pairs(std::uint32_t w, std::uint32_t h, std::uint32_t bpc,
                                                     std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  const int top = (1 << bpc) - 1, step = std::max(1, top / 64);
  std::vector<std::pair<picture, picture>> out;
  for (std::size_t i = 0; i < n; ++i) {
    const picture_format f{w, h, chroma_format::yuv400, bpc};
    picture r(f), d(f);
    int v = static_cast<int>(rng() % static_cast<unsigned>(top + 1));
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        const bool flat = x < w / 3 && y < h / 3;
        v = flat ? top / 2 : std::clamp(v + static_cast<int>(rng() % 9) * step - 4 * step, 0, top);
        const int noise = static_cast<int>(rng() % 7) - 3 - (x % 5 == 0 ? step : 0);
        const int damped = (v * 7 + top / 2) / 8 + noise * step / 2;  // the decoupling's angle test holds
        const int dv = flat ? v : std::clamp(x < w / 2 ? damped : v + noise * step * 3, 0, top);
        if (bpc > 8) {
          r.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
          d.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(dv);
        } else {
          r.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
          d.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(dv);
        }
      }
    out.emplace_back(std::move(r), std::move(d));
  }
  return out;
}

template <class B>
std::vector<std::vector<double>> run(B& b, const std::vector<std::pair<picture, picture>>& pics,
                                     const std::vector<std::string>& opts, std::size_t depth) {
  std::vector<any_metric<B>> m;
  for (const auto& o : opts) m.push_back(make_metric<B>("float_adm", option_map::parse(o), pics.front().first.format()));
  scorer<B> sc(b, std::move(m), compat::none, depth);
  std::vector<std::vector<double>> rows;
  for (const auto& [r, d] : pics)
    if (auto x = sc.push(r, d)) rows.push_back(x->values);
  while (auto x = sc.pop()) rows.push_back(x->values);
  return rows;
}

TEST(FloatAdm, VulkanEqualsCpu) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  Cpu cpu;
  // Every run of a size in one scorer (one submit per frame): the tables, the exact division, the options
  // that change the GPU's work (gain limit, no masking, scale 0 skipped, Barten weights, noise weight).
  const std::vector<std::string> opts{
      "debug=true",
      "debug=true:adm_rcp=amd",
      "debug=true:adm_rcp=intel",
      "debug=true:adm_rcp=exact",
      "debug=true:adm_enhn_gain_limit=1.2:adm_noise_weight=0.5",
      "debug=true:adm_bypass_cm=1:adm_rcp=exact",
      "debug=true:adm_skip_scale0=true:adm_skip_aim_scale=1",
      "debug=true:adm_csf_mode=1:adm_f2s3=0.7:adm_rcp=intel",
  };
  unsigned seed = 7;
  std::size_t compared = 0;
  for (const auto& [w, h, bpc] : {std::tuple{17u, 17u, 8u}, std::tuple{18u, 31u, 10u}, std::tuple{37u, 23u, 12u},
                                  std::tuple{21u, 19u, 16u}, std::tuple{131u, 45u, 8u}})
    for (std::size_t depth : {1u, 3u}) {
      const auto pics = noisy_pairs(w, h, bpc, depth == 1 ? 1 : 4, seed++);
      const auto want = run(cpu, pics, opts, 1);
      const auto got = run(gpu, pics, opts, depth);
      const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
      ASSERT_EQ(got.size(), want.size()) << what;
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i], want[i]) << what << " frame " << i;
        compared += want[i].size();
      }
      // Not trivial: the distortion is seen (adm2 < 1) and the tables and the exact division differ.
      EXPECT_LT(want[0][0], 1.0) << what;
    }
  EXPECT_GT(compared, 1000u);
}

// The tables and the exact division give different last bits on a real pair (the random pairs above
// rarely reach a quotient where they differ): the GPU reads the table its request names.
TEST(FloatAdm, TablesChangeValues) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  const auto j = load_json(vmaf_reference_dir() + "/rocket_177x99_420p8_x264crf35.json");
  const auto& [ref, dis] = frames_of(j);
  ASSERT_FALSE(ref.empty());
  std::vector<std::pair<picture, picture>> pics;
  for (std::size_t i = 0; i < 3 && i < ref.size(); ++i) pics.emplace_back(ref[i], dis[i]);
  const auto got = run(gpu, pics, {"debug=true:adm_rcp=amd", "debug=true:adm_rcp=intel", "debug=true:adm_rcp=exact"}, 1);
  std::vector<double> by[3];
  for (const auto& row : got)
    for (std::size_t k = 0; k < row.size(); ++k) by[3 * k / row.size()].push_back(row[k]);
  EXPECT_NE(by[0], by[1]);  // amd and intel (amd and exact agree on this pair)
  EXPECT_NE(by[1], by[2]);  // intel and exact
}

// adm_p_norm other than 3 takes glibc's powf per pixel, which the GPU does not reproduce: refused on Vulkan
// with the standard one-line error when the frame is recorded, accepted on the Cpu.
TEST(FloatAdm, VulkanRefusesOtherPNorms) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  const auto pics = noisy_pairs(32, 32, 8, 1, 5);
  try {
    (void)run(gpu, pics, {"adm_p_norm=2.5"}, 1);
    ADD_FAILURE() << "adm_p_norm=2.5 was accepted on Vulkan";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::unsupported_format);
    EXPECT_NE(std::string(e.what()).find("adm_p_norm=3"), std::string::npos) << e.what();
  }
  Cpu cpu;
  EXPECT_EQ(run(cpu, pics, {"adm_p_norm=2.5"}, 1).size(), 1u);
}

// adm_rcp=exact's division (shaders/fadm_div.glsl) is correctly rounded whatever the driver's division:
// candidates moved up to 4 ulps off (Vulkan allows 2.5) still give the host's n / x, on random operands,
// signs, zeros, tiny divisors (o + 1e−30) and exact ties (an odd 25-bit quotient, rounded to even).
TEST(FloatAdm, ExactDivisionFromAnyCandidate) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  if (!ctx->has_float64()) GTEST_SKIP() << "no shaderFloat64";
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> mag(-300.0f, 300.0f);
  std::vector<float> ops;
  for (int i = 0; i < 4000; ++i) {
    ops.push_back(mag(rng));
    ops.push_back(i % 10 == 0 ? 1e-30f : mag(rng) + 1e-30f);
  }
  for (std::uint32_t m = (1u << 24) - 401; m < (1u << 24); m += 2) {  // ties: m / 2 halfway between floats
    ops.push_back(static_cast<float>(m));
    ops.push_back(m % 4 == 1 ? 2.0f : -2.0f);
  }
  ops.insert(ops.end(), {0.0f, 3.0f, -0.0f, 3.0f, 0.0f, -1e-30f, 1.0f, 3.0f, 2.0f, 3.0f});
  const auto count = static_cast<std::uint32_t>(ops.size() / 2);
  vulkan::buffer in(*ctx, ops.size() * 4, vulkan::memory_kind::upload);
  vulkan::buffer out(*ctx, std::uint64_t{count} * 4, vulkan::memory_kind::readback);
  std::memcpy(in.data(), ops.data(), ops.size() * 4);
  in.flush();
  struct {
    std::uint32_t count;
    std::int32_t off;
  } pc{count, 0};
  vulkan::compute_pipeline p(*ctx, vulkan::spirv::fadm_div_test, 2, sizeof pc);
  vulkan::descriptor_pool pool(*ctx, 1, 2);
  const VkDescriptorSet set = pool.allocate(p.set_layout());
  vulkan::write_storage_buffers(*ctx, set, {in.range(), out.range()});
  for (std::int32_t off = -4; off <= 4; ++off) {
    pc.off = off;
    test::run_once(*ctx, p, set, pc, count);
    out.invalidate();
    const float* q = out.as<float>();
    std::size_t bad = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      const float want = ops[2 * i] / ops[2 * i + 1];
      if (std::memcmp(&q[i], &want, 4) != 0 && ++bad <= 10)
        ADD_FAILURE() << ops[2 * i] << " / " << ops[2 * i + 1] << " = " << q[i] << ", host " << want << " (candidate "
                      << off << " ulps off)";
    }
    EXPECT_EQ(bad, 0u) << off;
  }
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
