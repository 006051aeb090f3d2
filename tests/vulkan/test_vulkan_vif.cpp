// Integer VIF (feature "vif", SPEC-vmaf Part I) on the Vulkan backend: the engine's partials (the 16
// exact integer sums per frame) must equal the Cpu kernel's, hence every libvmaf value:
//  (1) every fixture pair of tests/data/reference-vmaf, with the option sets of its reference runs, and
//      every integer_vif value of those runs against libvmaf;
//  (2) random and extreme planes at 8/10/12/16 bits, sizes from the smallest the metric accepts (the
//      one-pixel rules of §4.3) to 1920x1080, every option;
//  (3) frames in flight, two gain limits and other metrics in the same frames (two requests that differ only
//      in the gain limit share one program: (1) runs VMAF's and NEG's limits through it);
//  (4) the correctly rounded double division of the shader against the host's, on random and edge operands.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu/reference/vif.hpp"
#include "vqm/cpu/vif.hpp"
#include "vqm/metrics/vif.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/vif_div_test.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

std::string show(const vif_partials& p) {
  std::string s;
  for (int k = 0; k < 4; ++k) {
    const auto& t = p.scale[static_cast<std::size_t>(k)];
    s += " s" + std::to_string(k) + "{NL=" + std::to_string(t.num_log) + " DL=" + std::to_string(t.den_log) +
         " NN=" + std::to_string(t.num_non_log) + " DN=" + std::to_string(t.den_non_log) + "}";
  }
  return s;
}

// The VIF partials of every pair (ref[i], dis[i]) for each request, `depth` frames in flight; with
// `others`, psnr and float_ssim are recorded into the same frames (their results checked by the caller).
struct run_result {
  std::vector<std::vector<vif_partials>> vif;  // [request][frame]
  std::vector<sse_partials> sse;
};
run_result run_vulkan(Vulkan& v, const std::vector<picture_view>& ref, const std::vector<picture_view>& dis,
                      const std::vector<vif_request>& requests, std::size_t depth, bool others = false) {
  run_result r;
  r.vif.assign(requests.size(), std::vector<vif_partials>(ref.size()));
  r.sse.resize(ref.size());
  std::vector<ssim_partials> ssim(ref.size());
  std::deque<Vulkan::frame> q;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    q.push_back(v.begin_frame(ref[i], dis[i]));
    if (others) v.sse(q.back(), sse_request{}, r.sse[i]);
    for (std::size_t k = 0; k < requests.size(); ++k) v.vif(q.back(), requests[k], r.vif[k][i]);
    if (others) v.ssim(q.back(), ssim_request{}, ssim[i]);
    v.submit(q.back());
    if (q.size() >= depth) {
      v.wait(q.front());
      q.pop_front();
    }
  }
  for (auto& f : q) v.wait(f);
  return r;
}

vif_partials cpu_vif(const picture_view& r, const picture_view& d, const vif_request& q) {
  return cpu::vif(r.planes[0], d.planes[0], r.format.bit_depth, q);
}

// ---------------------------------------------------------------------------------------------- (1)

TEST(VulkanVif, EveryReferencePairAndRunBitExact) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto pairs = vmaf_reference_pairs();
  ASSERT_FALSE(pairs.empty());
  Vulkan v(ctx);
  const std::vector<std::pair<std::string, option_map>> runs{
      {"vif", {}},
      {"model[vmaf_v0.6.1]", {}},
      {"model[vmaf_4k_v0.6.1]", {}},
      {"model[vmaf_b_v0.6.3]", {}},
      {"model[vmaf_v0.6.1neg]", {{"vif_enhn_gain_limit", "1.0"}}},
  };
  std::size_t frames = 0, values = 0;
  for (const auto& pair : pairs) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [refs, diss] = frames_of(j);
    std::vector<picture_view> rv, dv;
    for (std::size_t f = 0; f < refs.size(); ++f) {
      rv.push_back(refs[f].view());
      dv.push_back(diss[f].view());
    }
    // Both option sets of the reference runs, in the same frames.
    const std::vector<option_map> option_sets{{}, {{"vif_enhn_gain_limit", "1.0"}}};
    std::vector<vif_algorithm> algs;
    std::vector<vif_request> requests;
    for (const auto& o : option_sets) {
      algs.emplace_back(rv.front().format, parse_options<vif_options>(o), compat::libvmaf);
      requests.push_back(algs.back().request());
    }
    const auto got = run_vulkan(v, rv, dv, requests, v.frames_in_flight());
    for (std::size_t k = 0; k < requests.size(); ++k)
      for (std::size_t f = 0; f < rv.size(); ++f) {
        const auto want = cpu_vif(rv[f], dv[f], requests[k]);
        ASSERT_EQ(got.vif[k][f], want) << pair << " frame " << f << " option set " << k << "\n vulkan" << show(got.vif[k][f])
                                       << "\n cpu   " << show(want);
        ++frames;
      }
    // Every integer_vif value of the reference runs.
    for (const auto& [run, opts] : runs) {
      if (!j.at("features").contains(run) || j.at("features").at(run).at("status") != "ok") continue;
      const auto& metrics = j.at("features").at(run).at("metrics");
      const std::size_t k = opts.empty() ? 0 : 1;
      std::vector<double> out(algs[k].names().size());
      for (std::size_t f = 0; f < rv.size(); ++f) {
        algs[k].scores(got.vif[k][f], out.data());
        for (std::size_t n = 0; n < 4; ++n) {
          const auto& name = algs[k].names()[n];
          ASSERT_TRUE(metrics.contains(name)) << pair << " " << run << " " << name;
          const double want = to_double(metrics.at(name).at(f));
          EXPECT_TRUE(same(out[n], want)) << pair << " " << run << " frame " << f << " " << name << ": " << out[n]
                                          << " vs libvmaf " << want;
          ++values;
        }
      }
    }
  }
  std::printf("vif on Vulkan: %zu frame partials equal to the Cpu kernel's, %zu libvmaf values equal, %zu pairs\n",
              frames, values, pairs.size());
  EXPECT_GT(values, 0u);
}

// ---------------------------------------------------------------------------------------------- (2)

picture make_luma(std::uint32_t w, std::uint32_t h, unsigned bits) {
  return picture(picture_format{w, h, chroma_format::yuv400, bits});
}
void set(picture& p, std::uint32_t x, std::uint32_t y, std::uint32_t v) {
  if (p.format().bit_depth > 8)
    p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
  else
    p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
}

enum class kind { noise, smooth, flat, max_zero, max_max, identical, noisy_flat, enhanced };

// A reference/distorted pair of one kind.
std::pair<picture, picture> make_pair_of(kind k, std::uint32_t w, std::uint32_t h, unsigned bits, std::mt19937& rng) {
  const std::uint32_t maxv = (1u << bits) - 1, one = 1u << (bits - 8);
  picture r = make_luma(w, h, bits), d = make_luma(w, h, bits);
  std::uniform_int_distribution<std::uint32_t> any(0, maxv);
  std::uniform_int_distribution<int> small(-12, 12);
  const std::uint32_t flat = any(rng);
  auto clampv = [&](long v) { return static_cast<std::uint32_t>(std::clamp<long>(v, 0, maxv)); };
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint32_t a = 0, b = 0;
      switch (k) {
        case kind::noise: a = any(rng), b = any(rng); break;
        case kind::smooth:
          a = clampv(static_cast<long>(((x * 7 + y * 5) % 200) * one) + small(rng) * static_cast<long>(one));
          b = clampv(static_cast<long>(a) + small(rng) * static_cast<long>(one));
          break;
        case kind::flat: a = flat, b = flat; break;
        case kind::max_zero: a = maxv, b = 0; break;
        case kind::max_max: a = maxv, b = maxv; break;
        case kind::identical: a = b = any(rng); break;
        case kind::noisy_flat: a = flat, b = any(rng); break;
        case kind::enhanced:  // contrast boosted: gains above 1
          a = clampv(static_cast<long>(((x * 3 + y * 11) % 160 + 48) * one) + small(rng));
          b = clampv(2 * static_cast<long>(a) - static_cast<long>(128 * one));
          break;
      }
      set(r, x, y, a);
      set(d, x, y, b);
    }
  return {std::move(r), std::move(d)};
}

void check_sizes(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes, const std::vector<unsigned>& depths,
                 const std::vector<kind>& kinds, bool with_reference) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  std::mt19937 rng(20261123);
  const std::vector<vif_request> requests{{100.0, false}, {1.0, false}, {1.37, true}};
  std::size_t checked = 0;
  for (const auto& [w, h] : sizes)
    for (const unsigned bits : depths) {
      std::vector<picture> refs, diss;
      for (const kind k : kinds) {
        auto [r, d] = make_pair_of(k, w, h, bits, rng);
        refs.push_back(std::move(r));
        diss.push_back(std::move(d));
      }
      std::vector<picture_view> rv, dv;
      for (std::size_t i = 0; i < refs.size(); ++i) {
        rv.push_back(refs[i].view());
        dv.push_back(diss[i].view());
      }
      std::vector<vif_request> ok;  // skip_scale0 needs w >= 4 (the metric refuses it below)
      for (const auto& q : requests)
        if (!(q.skip_scale0 && w < 4)) ok.push_back(q);
      const auto got = run_vulkan(v, rv, dv, ok, v.frames_in_flight());
      for (std::size_t k = 0; k < ok.size(); ++k)
        for (std::size_t i = 0; i < rv.size(); ++i) {
          const auto want = with_reference ? cpu::reference::vif(rv[i].planes[0], dv[i].planes[0], bits, ok[k])
                                           : cpu_vif(rv[i], dv[i], ok[k]);
          ASSERT_EQ(got.vif[k][i], want) << w << "x" << h << " " << bits << "-bit kind " << i << " limit "
                                         << ok[k].gain_limit << " skip " << ok[k].skip_scale0 << "\n vulkan"
                                         << show(got.vif[k][i]) << "\n cpu   " << show(want);
          ++checked;
        }
    }
  std::printf("%zu random/extreme frames equal\n", checked);
}

const std::vector<kind> all_kinds{kind::noise,     kind::smooth,   kind::flat,       kind::max_zero,
                                  kind::max_max,   kind::identical, kind::noisy_flat, kind::enhanced};

// Every size class of SPEC §12, including the one-pixel rules of §4.3 (w or h < 16), against the scalar
// reference kernel.
TEST(VulkanVif, SmallSizesAndOnePixelRules) {
  check_sizes({{2, 8},   {3, 12},  {4, 8},   {5, 20},  {6, 9},  {7, 16},  {8, 8},   {9, 8},   {8, 31},
               {15, 15}, {16, 8},  {17, 9},  {23, 14}, {12, 40}, {4, 33}, {16, 16}, {18, 18}, {33, 17}},
              {8, 10, 12, 16}, all_kinds, true);
}

TEST(VulkanVif, RandomAndExtremePlanes) {
  check_sizes({{64, 8}, {100, 75}, {183, 177}, {257, 131}}, {8, 10, 12, 16}, all_kinds, false);
}

TEST(VulkanVif, FullHd) { check_sizes({{1920, 1080}}, {8, 16}, {kind::smooth}, false); }

// ---------------------------------------------------------------------------------------------- (3)

TEST(VulkanVif, FramesInFlightAndBesideOtherMetrics) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = read_all(fixture("chelsea_576x324_420p8_ref.y4m"));
  const auto diss = read_all(fixture("chelsea_576x324_420p8_noise14.y4m"));
  std::vector<picture_view> rv, dv;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    rv.push_back(refs[i].view());
    dv.push_back(diss[i].view());
  }
  const std::vector<vif_request> requests{{100.0, false}, {1.0, false}, {100.0, true}};
  Vulkan v(ctx);
  const auto alone = run_vulkan(v, rv, dv, {requests[0]}, 1);
  const auto many = run_vulkan(v, rv, dv, requests, v.frames_in_flight(), true);
  Cpu cpu;
  for (std::size_t i = 0; i < rv.size(); ++i) {
    EXPECT_EQ(alone.vif[0][i], cpu_vif(rv[i], dv[i], requests[0])) << i;
    for (std::size_t k = 0; k < requests.size(); ++k) EXPECT_EQ(many.vif[k][i], cpu_vif(rv[i], dv[i], requests[k])) << i;
    sse_partials want;
    auto f = cpu.begin_frame(rv[i], dv[i]);
    cpu.sse(f, sse_request{}, want);
    cpu.submit(f);
    cpu.wait(f);
    EXPECT_EQ(many.sse[i].sse, want.sse) << i;
  }
  // The metric (options, debug outputs) on both backends.
  const vif_options o{1.5, false, true};
  const Vif<Cpu> mc(rv.front().format, o);
  const Vif<Vulkan> mv(rv.front().format, o);
  for (std::size_t i = 0; i < rv.size(); ++i) {
    const auto a = compute(cpu, mc, rv[i], dv[i]);
    const auto b = compute(v, mv, rv[i], dv[i]);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(same(a[k], b[k])) << i << " " << mc.names()[k];
  }
}

// ---------------------------------------------------------------------------------------------- (4)

// div_rn of the shader equals the host's IEEE division on the operands VIF divides (n = s12 in 1..2^30,
// d = s1 + EPS, s1 in 2^17..2^30) and on random normal operands over a wide exponent range, including
// quotients next to powers of two and exact ones.
TEST(VulkanVif, ShaderDivisionIsCorrectlyRounded) {
  VQM_REQUIRE_VULKAN(ctx);
  if (!ctx->has_float64()) GTEST_SKIP() << "the device lacks shaderFloat64";
  std::mt19937_64 rng(7);
  std::vector<double> ops;
  auto add = [&](double n, double d) {
    ops.push_back(n);
    ops.push_back(d);
  };
  std::uniform_int_distribution<std::int64_t> s12(1, std::int64_t{1} << 30), s1(std::int64_t{1} << 17, std::int64_t{1} << 30);
  for (int i = 0; i < 1500000; ++i) add(static_cast<double>(s12(rng)), static_cast<double>(s1(rng)) + tables::vif_eps);
  // near-equal operands (g just below 1, the identical-frames case), and s12 a little above s1
  for (int i = 0; i < 300000; ++i) {
    const auto s = s1(rng);
    const auto off = static_cast<std::int64_t>(rng() % 64) - 32;
    add(static_cast<double>(std::max<std::int64_t>(1, s + off)), static_cast<double>(s) + tables::vif_eps);
  }
  // powers of two and their neighbours
  for (int e = 0; e <= 30; ++e)
    for (std::int64_t dn = -2; dn <= 2; ++dn)
      for (int f = 17; f <= 30; ++f) {
        const auto n = std::max<std::int64_t>(1, (std::int64_t{1} << e) + dn);
        add(static_cast<double>(n), static_cast<double>(std::int64_t{1} << f) + tables::vif_eps);
        add(static_cast<double>(n), static_cast<double>((std::int64_t{1} << f) - 1) + tables::vif_eps);
      }
  // random normal doubles with random mantissas over ±2^40 exponents (no overflow or subnormals)
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-40, 40);
  for (int i = 0; i < 500000; ++i) add(std::ldexp(mant(rng), ex(rng)), std::ldexp(mant(rng), ex(rng)));
  // exact quotients (small integers) and ties are impossible to miss: integer multiples
  for (int i = 0; i < 100000; ++i) {
    const double d = std::ldexp(mant(rng), ex(rng));
    const double q = static_cast<double>(rng() % 1000000 + 1);
    if (std::isfinite(d * q)) add(d * q, d);
  }
  const auto count = static_cast<std::uint32_t>(ops.size() / 2);
  vulkan::buffer in(*ctx, ops.size() * 8, vulkan::memory_kind::upload);
  vulkan::buffer out(*ctx, std::uint64_t{count} * 8, vulkan::memory_kind::readback);
  std::memcpy(in.data(), ops.data(), ops.size() * 8);
  in.flush();
  vulkan::compute_pipeline p(*ctx, vulkan::spirv::vif_div_test, 2, 4);
  vulkan::descriptor_pool pool(*ctx, 1, 2);
  const VkDescriptorSet set = pool.allocate(p.set_layout());
  vulkan::write_storage_buffers(*ctx, set, {in.range(), out.range()});
  test::run_once(*ctx, p, set, count, count);
  out.invalidate();
  const double* q = out.as<double>();
  std::size_t bad = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const double want = ops[2 * i] / ops[2 * i + 1];
    if (std::memcmp(&q[i], &want, 8) != 0 && ++bad <= 10)
      ADD_FAILURE() << "div_rn(" << ops[2 * i] << ", " << ops[2 * i + 1] << ") = " << q[i] << ", host " << want;
  }
  EXPECT_EQ(bad, 0u);
  std::printf("div_rn: %u quotients equal to the host's\n", count);
}

}  // namespace
}  // namespace vqm::test
