// Integer ADM (feature "adm", SPEC-vmaf Part II) on the Vulkan backend: the engine's partials (the 36 exact
// integer accumulators per frame) must equal the Cpu kernel's, hence every libvmaf value:
//  (1) every fixture pair of tests/data/reference-vmaf that adm supports (luma >= 33x33), with the option
//      sets of its reference runs, and every integer_adm value of those runs against libvmaf;
//  (2) random and extreme planes at 8/10/12/16 bits, sizes from 33x33 (odd ones included) to 1920x1080,
//      gain limits 1 and 100, skip options, a non-default viewing geometry (computed CSF multipliers);
//  (3) frames in flight, several requests and other metrics in the same frames (two requests that differ
//      only in the gain limit share one program's DWT: (1) runs VMAF's and NEG's limits through it);
//  (4) the shader's int64 -> binary32 conversion (round to nearest even) against the host's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/reference/adm.hpp"
#include "vqm/metrics/adm.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/adm_cvt_test.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

std::string show(const adm_partials& p) {
  std::string s;
  for (int k = 0; k < 4; ++k) {
    s += "\n  s" + std::to_string(k) + " den";
    for (int b = 0; b < 3; ++b) s += " " + std::to_string(p.den[k][b]);
    s += " dlm";
    for (int b = 0; b < 3; ++b) s += " " + std::to_string(p.dlm[k][b]);
    s += " aim";
    for (int b = 0; b < 3; ++b) s += " " + std::to_string(p.aim[k][b]);
  }
  return s;
}

// The ADM partials of every pair (ref[i], dis[i]) for each request, `depth` frames in flight; with
// `others`, psnr, vif and float_ssim are recorded into the same frames (psnr checked by the caller).
struct run_result {
  std::vector<std::vector<adm_partials>> adm;  // [request][frame]
  std::vector<sse_partials> sse;
};
run_result run_vulkan(Vulkan& v, const std::vector<picture_view>& ref, const std::vector<picture_view>& dis,
                      const std::vector<adm_request>& requests, std::size_t depth, bool others = false) {
  run_result r;
  r.adm.assign(requests.size(), std::vector<adm_partials>(ref.size()));
  r.sse.resize(ref.size());
  std::vector<ssim_partials> ssim(ref.size());
  std::vector<vif_partials> vif(ref.size());
  std::deque<Vulkan::frame> q;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    q.push_back(v.begin_frame(ref[i], dis[i]));
    if (others) v.sse(q.back(), sse_request{}, r.sse[i]);
    if (others) v.vif(q.back(), vif_request{}, vif[i]);
    for (std::size_t k = 0; k < requests.size(); ++k) v.adm(q.back(), requests[k], r.adm[k][i]);
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

adm_partials cpu_adm(const picture_view& r, const picture_view& d, const adm_request& q) {
  return cpu::adm(r.planes[0], d.planes[0], r.format.bit_depth, q);
}

// ---------------------------------------------------------------------------------------------- (1)

TEST(VulkanAdm, EveryReferencePairAndRunBitExact) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto pairs = vmaf_reference_pairs();
  ASSERT_FALSE(pairs.empty());
  Vulkan v(ctx);
  const std::vector<std::pair<std::string, std::size_t>> runs{
      {"adm", 0}, {"model[vmaf_v0.6.1]", 0}, {"model[vmaf_4k_v0.6.1]", 0}, {"model[vmaf_b_v0.6.3]", 0},
      {"model[vmaf_v0.6.1neg]", 1}};
  std::size_t frames = 0, values = 0, used = 0;
  for (const auto& pair : pairs) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [refs, diss] = frames_of(j);
    std::vector<picture_view> rv, dv;
    for (std::size_t f = 0; f < refs.size(); ++f) {
      rv.push_back(refs[f].view());
      dv.push_back(diss[f].view());
    }
    const auto& fmt = rv.front().format;
    if (fmt.width < 33 || fmt.height < 33) continue;  // libvmaf crashes or reads outside (SPEC §2)
    ++used;
    const std::vector<option_map> option_sets{{}, {{"adm_enhn_gain_limit", "1.0"}}};
    std::vector<adm_algorithm> algs;
    std::vector<adm_request> requests;
    for (const auto& o : option_sets) {
      algs.emplace_back(fmt, parse_options<adm_options>(o), compat::libvmaf);
      requests.push_back(algs.back().request());
    }
    const auto got = run_vulkan(v, rv, dv, requests, v.frames_in_flight());
    for (std::size_t k = 0; k < requests.size(); ++k)
      for (std::size_t f = 0; f < rv.size(); ++f) {
        const auto want = cpu_adm(rv[f], dv[f], requests[k]);
        ASSERT_EQ(got.adm[k][f], want) << pair << " frame " << f << " option set " << k << "\n vulkan"
                                       << show(got.adm[k][f]) << "\n cpu" << show(want);
        ++frames;
      }
    for (const auto& [run, k] : runs) {
      if (!j.at("features").contains(run) || j.at("features").at(run).at("status") != "ok") continue;
      const auto& metrics = j.at("features").at(run).at("metrics");
      std::vector<double> out(algs[k].names().size());
      for (std::size_t f = 0; f < rv.size(); ++f) {
        algs[k].scores(got.adm[k][f], out.data());
        for (std::size_t n = 0; n < 7; ++n) {
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
  std::printf("adm on Vulkan: %zu frame partials equal to the Cpu kernel's, %zu libvmaf values equal, %zu pairs\n",
              frames, values, used);
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

enum class kind { noise, smooth, flat, max_zero, zero_max, checker, identical, noisy_flat, enhanced, inverted };

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
        case kind::max_zero: a = ((x ^ y) & 1) ? maxv : 0, b = 0; break;  // sign extremes of the bands
        case kind::zero_max: a = 0, b = ((x + y) % 3) ? maxv : 0; break;
        case kind::checker: a = ((x ^ y) & 1) ? maxv : 0, b = ((x ^ y) & 1) ? 0 : maxv; break;
        case kind::identical: a = b = any(rng); break;
        case kind::noisy_flat: a = flat, b = any(rng); break;
        case kind::enhanced:  // contrast boosted: gains above 1
          a = clampv(static_cast<long>(((x * 3 + y * 11) % 160 + 48) * one) + small(rng));
          b = clampv(2 * static_cast<long>(a) - static_cast<long>(128 * one));
          break;
        case kind::inverted: a = any(rng), b = maxv - a; break;
      }
      set(r, x, y, a);
      set(d, x, y, b);
    }
  return {std::move(r), std::move(d)};
}

// The requests of the option sets: defaults, egl 1 (NEG), egl 1.37 with skip_aim, skip_scale0, and a
// non-default geometry (nvd 4.5, rdh 2160: computed scale-0 multipliers).
std::vector<adm_request> test_requests(const picture_format& f) {
  const std::vector<option_map> sets{{},
                                     {{"adm_enhn_gain_limit", "1.0"}},
                                     {{"adm_enhn_gain_limit", "1.37"}, {"adm_skip_aim", "true"}},
                                     {{"adm_skip_scale0", "true"}},
                                     {{"adm_norm_view_dist", "4.5"}, {"adm_ref_display_height", "2160"}}};
  std::vector<adm_request> out;
  for (const auto& o : sets) out.push_back(adm_algorithm(f, parse_options<adm_options>(o)).request());
  return out;
}

void check_sizes(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes, const std::vector<unsigned>& depths,
                 const std::vector<kind>& kinds, bool with_reference, bool all_requests = true) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  std::mt19937 rng(20261123);
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
      auto requests = test_requests(rv.front().format);
      if (!all_requests) requests.resize(2);
      const auto got = run_vulkan(v, rv, dv, requests, v.frames_in_flight());
      for (std::size_t k = 0; k < requests.size(); ++k)
        for (std::size_t i = 0; i < rv.size(); ++i) {
          const auto want = with_reference ? cpu::reference::adm(rv[i].planes[0], dv[i].planes[0], bits, requests[k])
                                           : cpu_adm(rv[i], dv[i], requests[k]);
          ASSERT_EQ(got.adm[k][i], want) << w << "x" << h << " " << bits << "-bit kind " << i << " request " << k
                                         << "\n vulkan" << show(got.adm[k][i]) << "\n cpu" << show(want);
          ++checked;
        }
    }
  std::printf("%zu random/extreme frames equal\n", checked);
}

const std::vector<kind> all_kinds{kind::noise,    kind::smooth,    kind::flat,       kind::max_zero, kind::zero_max,
                                  kind::checker,  kind::identical, kind::noisy_flat, kind::enhanced, kind::inverted};

// The smallest sizes (every subband axis >= 5 at every scale), odd ones, against the scalar reference.
TEST(VulkanAdm, SmallAndOddSizes) {
  check_sizes({{33, 33}, {34, 35}, {47, 33}, {33, 70}, {65, 39}}, {8, 10, 12, 16}, all_kinds, true);
}

TEST(VulkanAdm, RandomAndExtremePlanes) {
  check_sizes({{100, 75}, {183, 177}, {257, 131}}, {8, 10, 12, 16}, all_kinds, false);
}

TEST(VulkanAdm, FullHd) { check_sizes({{1920, 1080}}, {8, 16}, {kind::smooth, kind::noise}, false, false); }

// ---------------------------------------------------------------------------------------------- (3)

TEST(VulkanAdm, FramesInFlightAndBesideOtherMetrics) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = read_all(fixture("chelsea_576x324_420p8_ref.y4m"));
  const auto diss = read_all(fixture("chelsea_576x324_420p8_noise14.y4m"));
  std::vector<picture_view> rv, dv;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    rv.push_back(refs[i].view());
    dv.push_back(diss[i].view());
  }
  const auto requests = test_requests(rv.front().format);
  Vulkan v(ctx);
  const auto alone = run_vulkan(v, rv, dv, {requests[0]}, 1);
  const auto many = run_vulkan(v, rv, dv, requests, v.frames_in_flight(), true);
  Cpu cpu;
  for (std::size_t i = 0; i < rv.size(); ++i) {
    EXPECT_EQ(alone.adm[0][i], cpu_adm(rv[i], dv[i], requests[0])) << i;
    for (std::size_t k = 0; k < requests.size(); ++k) EXPECT_EQ(many.adm[k][i], cpu_adm(rv[i], dv[i], requests[k])) << i;
    sse_partials want;
    auto f = cpu.begin_frame(rv[i], dv[i]);
    cpu.sse(f, sse_request{}, want);
    cpu.submit(f);
    cpu.wait(f);
    EXPECT_EQ(many.sse[i].sse, want.sse) << i;
  }
  // The metric (options, debug outputs) on both backends.
  adm_options o;
  o.enhn_gain_limit = 1.5;
  o.debug = true;
  const Adm<Cpu> mc(rv.front().format, o);
  const Adm<Vulkan> mv(rv.front().format, o);
  for (std::size_t i = 0; i < rv.size(); ++i) {
    const auto a = compute(cpu, mc, rv[i], dv[i]);
    const auto b = compute(v, mv, rv[i], dv[i]);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(same(a[k], b[k])) << i << " " << mc.names()[k];
  }
}

TEST(VulkanAdm, RefusesSmallFrames) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  const picture p = make_luma(32, 64, 8);
  adm_partials out;
  auto f = v.begin_frame(p.view(), p.view());
  EXPECT_THROW(v.adm(f, adm_request{}, out), error);
}

// ---------------------------------------------------------------------------------------------- (4)

// i64_to_f32_rn (the angle test's conversions, §7.1) equals the host's static_cast<float> (round to nearest
// even) on edge values: every power of two and its neighbours, halfway cases above 2^24 with even and odd
// mantissas, both signs, the int64 extremes, and random values of every magnitude. Also reports how the
// driver's own float(int64_t) compares (not used by the engine).
TEST(VulkanAdm, Int64ToFloatRoundsToNearestEven) {
  VQM_REQUIRE_VULKAN(ctx);
  if (!ctx->has_int64()) GTEST_SKIP() << "the device lacks shaderInt64";
  std::vector<std::int64_t> in{0, 1, -1, std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(),
                               std::numeric_limits<std::int64_t>::min() + 1};
  for (int e = 0; e < 63; ++e) {
    const std::int64_t p = std::int64_t{1} << e;
    for (std::int64_t d = -3; d <= 3; ++d) {
      in.push_back(p + d);
      in.push_back(-(p + d));
    }
    if (e >= 25) {  // halfway and near-halfway cases: mantissa m (even/odd) and a remainder of half ± 1
      const std::int64_t ulp = std::int64_t{1} << (e - 23), half = ulp / 2;
      for (std::int64_t m : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, (std::int64_t{1} << 23) - 1})
        for (std::int64_t r : {half - 1, half, half + 1}) {
          const std::int64_t v = p + m * ulp + r;
          in.push_back(v);
          in.push_back(-v);
        }
    }
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200000; ++i) {
    const int bits = static_cast<int>(rng() % 63);
    const auto v = static_cast<std::int64_t>(rng() >> (63 - bits));
    in.push_back((rng() & 1) ? v : -v);
  }
  const auto count = static_cast<std::uint32_t>(in.size());
  vulkan::buffer dummy(*ctx, 16, vulkan::memory_kind::device_local);
  vulkan::buffer src(*ctx, std::uint64_t{count} * 8, vulkan::memory_kind::upload);
  vulkan::buffer out(*ctx, std::uint64_t{count} * 8, vulkan::memory_kind::readback);
  std::memcpy(src.data(), in.data(), std::size_t{count} * 8);
  src.flush();
  vulkan::compute_pipeline p(*ctx, vulkan::spirv::adm_cvt_test, 3, 4);
  vulkan::descriptor_pool pool(*ctx, 1, 3);
  const VkDescriptorSet set = pool.allocate(p.set_layout());
  vulkan::write_storage_buffers(*ctx, set, {dummy.range(), out.range(), src.range()});
  test::run_once(*ctx, p, set, count, count);
  out.invalidate();
  const float* f = out.as<float>();
  std::size_t bad = 0, driver_differs = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const float want = static_cast<float>(in[i]);
    if (std::memcmp(&f[i], &want, 4) != 0 && ++bad <= 10)
      ADD_FAILURE() << "i64_to_f32_rn(" << in[i] << ") = " << f[i] << ", host " << want;
    if (std::memcmp(&f[count + i], &want, 4) != 0) ++driver_differs;
  }
  EXPECT_EQ(bad, 0u);
  std::printf("i64_to_f32_rn: %u conversions equal to the host's; the driver's float(int64_t) differs on %zu\n", count,
              driver_differs);
}

}  // namespace
}  // namespace vqm::test
