// Integer ADM (SPEC-vmaf Part II): libvmaf's values reproduced exactly, the SPEC's check values, the optimised
// kernel against the scalar reference (alone and sharing its DWT between two gain limits), option parsing
// and output names.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/reference/adm.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/metrics/adm.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using vqm::test::vmaf_reference_dir;
using vqm::test::vmaf_reference_pairs;

using vqm::adm_algorithm;
using vqm::adm_options;
using vqm::parse_options;
using vqm::adm_partials;
using vqm::cpu::isa;

std::string g17(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

nlohmann::json load_pair(const std::string& pair) {
  return vqm::test::load_json(vmaf_reference_dir() + "/" + pair + ".json");
}

vqm::picture_format format_of(const nlohmann::json& j) {
  const auto& r = j.at("reference");
  return {r.at("width").get<std::uint32_t>(), r.at("height").get<std::uint32_t>(), vqm::chroma_format::yuv420,
          r.at("bitdepth").get<std::uint32_t>()};
}

std::vector<isa> paths() {
  return vqm::cpu::available_isas();
}
struct isa_guard {
  explicit isa_guard(isa i) : before(vqm::cpu::max_isa()) { vqm::cpu::set_max_isa(i); }
  ~isa_guard() { vqm::cpu::set_max_isa(before); }
  isa before;
};

std::string describe(const adm_partials& p) {
  std::string s;
  for (int sc = 0; sc < 4; ++sc)
    for (int b = 0; b < 3; ++b)
      // Appended piece by piece: GCC 12's -Wrestrict misfires on "literal" + std::string temporaries at -O3.
      for (const std::string& piece : {std::string("s"), std::to_string(sc), std::string("b"), std::to_string(b),
                                       std::string(" den "), std::to_string(p.den[sc][b]), std::string(" dlm "),
                                       std::to_string(p.dlm[sc][b]), std::string(" aim "),
                                       std::to_string(p.aim[sc][b]), std::string("\n")})
        s += piece;
  return s;
}

struct run_spec {
  const char* key;
  double egl;
};
constexpr run_spec runs[] = {{"adm", 100.0},
                             {"model[vmaf_v0.6.1]", 100.0},
                             {"model[vmaf_4k_v0.6.1]", 100.0},
                             {"model[vmaf_b_v0.6.3]", 100.0},
                             {"model[vmaf_v0.6.1neg]", 1.0}};

// (1) Every adm value of every pair and run, with ==; the optimised kernel equals the reference kernel on
// every fixture frame too.
TEST(AdmReference, EveryPairEveryRun) {
  std::size_t compared = 0, refused = 0;
  for (const auto& pair : vmaf_reference_pairs()) {
    const auto j = load_pair(pair);
    const auto fmt = format_of(j);
    std::map<double, std::vector<adm_partials>> parts;  // by egl
    for (const auto& run : runs) {
      if (!j.at("features").contains(run.key)) continue;
      const auto& r = j.at("features").at(run.key);
      adm_options o;
      o.enhn_gain_limit = run.egl;
      const auto why = adm_algorithm::unsupported(fmt, o);
      if (r.at("status") != "ok") {
        EXPECT_FALSE(why.empty()) << pair << " " << run.key << ": libvmaf fails, vqm must refuse";
        EXPECT_EQ(why.find('\n'), std::string::npos);
        EXPECT_THROW(adm_algorithm(fmt, o), vqm::error);
        ++refused;
        continue;
      }
      ASSERT_TRUE(why.empty()) << pair << ": " << why;
      const adm_algorithm alg(fmt, o);
      auto& p = parts[run.egl];
      if (p.empty()) {
        const auto& [rf, df] = vqm::test::frames_of(j);
        ASSERT_EQ(rf.size(), df.size());
        for (std::size_t f = 0; f < rf.size(); ++f) {
          const auto rv = rf[f].view().planes[0], dv = df[f].view().planes[0];
          p.push_back(vqm::cpu::adm(rv, dv, fmt.bit_depth, alg.request()));
          const auto want = vqm::cpu::reference::adm(rv, dv, fmt.bit_depth, alg.request());
          EXPECT_TRUE(p.back() == want) << pair << " frame " << f << " egl " << run.egl << ": optimised\n"
                                        << describe(p.back()) << "reference\n"
                                        << describe(want);
        }
      }
      const auto& metrics = r.at("metrics");
      std::vector<double> out(alg.names().size());
      for (std::size_t f = 0; f < p.size(); ++f) {
        alg.scores(p[f], out.data());
        for (std::size_t n = 0; n < alg.names().size(); ++n) {
          const auto& name = alg.names()[n];
          ASSERT_TRUE(metrics.contains(name)) << pair << " " << run.key << " lacks " << name;
          ASSERT_EQ(metrics.at(name).size(), p.size()) << pair << " " << run.key << " " << name;
          const double want = vqm::test::to_double(metrics.at(name)[f]);
          EXPECT_TRUE(vqm::test::same(out[n], want)) << pair << " " << run.key << " frame " << f << " " << name
                                                     << ": got " << g17(out[n]) << ", libvmaf " << g17(want);
          ++compared;
        }
      }
    }
  }
  std::printf("compared %zu values, %zu runs refused\n", compared, refused);
  EXPECT_GE(compared, 2000u);
  EXPECT_GE(refused, 10u);
}

// (2) SPEC §11 check values: astronaut crf35, frame 0, default options.
TEST(AdmReference, SpecCheckValues) {
  const auto j = load_pair("astronaut_576x324_420p8_x264crf35");
  const auto fmt = format_of(j);
  adm_options o;
  o.debug = true;
  const adm_algorithm alg(fmt, o);
  const auto& [rf, df] = vqm::test::frames_of(j);
  const auto rv = rf[0].view().planes[0], dv = df[0].view().planes[0];
  for (int variant = 0; variant < 2; ++variant) {
    const auto p = variant == 0 ? vqm::cpu::reference::adm(rv, dv, 8, alg.request())
                                : vqm::cpu::adm(rv, dv, 8, alg.request());
    const std::uint64_t den[4][3] = {{963850849156, 1016285200439, 10846329928},
                                     {18130829069871, 18213246969622, 859764858966},
                                     {20874212609883, 20354863934172, 2745917687534},
                                     {29621112429397, 28948990178511, 3516590116990}};
    const std::int64_t dlm[4][3] = {{3939618399153, 3158305628759, 3702888385},
                                    {1377166827387, 1268287772331, 1882743243},
                                    {2528467021826, 2470605086339, 38390379391},
                                    {10428484881878, 9934825625524, 359290370855}};
    const std::int64_t aim[4][3] = {{2698187025167, 1810385932165, 92688796459},
                                    {13406476437, 15835344794, 7854472},
                                    {1016768613, 714717388, 864135},
                                    {4993234, 8204405, 43384}};
    for (int s = 0; s < 4; ++s)
      for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(p.den[s][b], den[s][b]) << "variant " << variant << " scale " << s << " band " << b;
        EXPECT_EQ(p.dlm[s][b], dlm[s][b]) << "variant " << variant << " scale " << s << " band " << b;
        EXPECT_EQ(p.aim[s][b], aim[s][b]) << "variant " << variant << " scale " << s << " band " << b;
      }
    std::vector<double> out(alg.names().size());
    alg.scores(p, out.data());
    ASSERT_EQ(out.size(), 7u + 3u + 8u);
    const double num_scale[4] = {33.35757827758789, 41.46609878540039, 87.19285583496094, 164.26304626464844};
    const double den_scale[4] = {35.180694580078125, 47.22715759277344, 97.10380554199219, 171.126708984375};
    const double head[7] = {0.93053017054030396, 0.041484160759537356, 0.94452300489038332, 0.948178501753555,
                            0.8780138568353183,  0.89793448720456892,  0.95989134156519507};
    for (int i = 0; i < 7; ++i) EXPECT_EQ(out[i], head[i]) << alg.names()[i];
    EXPECT_EQ(out[7], head[0]);
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(out[10 + 2 * s], num_scale[s]) << s;
      EXPECT_EQ(out[11 + 2 * s], den_scale[s]) << s;
    }
  }
}

// §6.1/§6.2 factor and multiplier check values.
TEST(AdmCsf, DefaultFactorsAndMultipliers) {
  const std::uint32_t hv[4] = {0x3C8E63BA, 0x3D030286, 0x3D31A788, 0x3D3B140B};
  const std::uint32_t d[4] = {0x3BC106AA, 0x3C6A46A3, 0x3CC7DC06, 0x3D0041C9};
  for (int s = 0; s < 4; ++s) {
    const auto [fhv, fd] = vqm::adm_csf::factors(s, adm_options{});
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, &fhv, 4);
    std::memcpy(&b, &fd, 4);
    EXPECT_EQ(a, hv[s]) << s;
    EXPECT_EQ(b, d[s]) << s;
  }
  const adm_algorithm alg({576, 324, vqm::chroma_format::yuv420, 8});
  const vqm::adm_request def;
  EXPECT_EQ(alg.request().irf0[0], 36453);
  EXPECT_EQ(alg.request().irf0[2], 49417);
  for (int s = 0; s < 3; ++s)
    for (int b = 0; b < 3; ++b) EXPECT_EQ(alg.request().irf[s][b], def.irf[s][b]) << s << " " << b;
  EXPECT_EQ(alg.request().irf[0][0], 137373792u);
  EXPECT_EQ(alg.request().irf[2][2], 134487184u);
  // nvd·rdh ≠ 3240: IRF0 computed from the factors (truncation, not the hard-coded values).
  adm_options o;
  o.ref_display_height = 2160;
  const adm_algorithm far({576, 324, vqm::chroma_format::yuv420, 8}, o);
  const auto [fhv, fd] = vqm::adm_csf::factors(0, o);
  EXPECT_EQ(far.request().irf0[0], static_cast<std::uint16_t>(static_cast<double>(fhv) * 2097152.0));
  EXPECT_EQ(far.request().irf0[2], static_cast<std::uint16_t>(static_cast<double>(fd) * 8388608.0));
  EXPECT_NE(far.request().irf0[0], 36453);
}

// CSF modes 1–3 and a non-default geometry (§6.2 computed IRF0, §12.1): frame 0 of rocket_177x99 crf35, values
// of the SPEC's prototype (vmaf-proto/adm.py, which matched the CLI on two pairs per mode), adm2 / scale0 / scale3.
TEST(AdmCsf, OtherModesMatchPrototype) {
  struct row {
    const char* opts;
    const char* suffix;
    double adm2, scale0, scale3;
  };
  const row rows[] = {
      {"adm_csf_mode=1", "_csf_1", NAN, 0.04800462180462003, NAN},
      {"adm_csf_mode=2", "_csf_2", 0.9221238633758567, 0.9104825676188054, 0.9593803693429712},
      {"adm_csf_mode=3:adm_ref_display_height=2160:adm_norm_view_dist=1.5", "_csf_3_nvd_1.5_rdh_2160",
       0.9215443095291911, 0.9141443566041874, 0.9581400795002415},
      {"adm_csf_mode=3:adm_ref_display_height=1000:adm_norm_view_dist=4", "_csf_3_nvd_4_rdh_1000", NAN, NAN, NAN},
      {"adm_csf_mode=1:adm_csf_scale=2.5:adm_csf_diag_scale=0.5", "_scfd_0.5_csf_1_scf_2.5", 0.010449825686368652,
       0.023275278071402915, 0.006973516555661704},
      {"adm_norm_view_dist=4.5:adm_ref_display_height=2160", "_nvd_4.5_rdh_2160", 0.9642891278579862,
       0.9824111013905868, 0.9699867605828805},
  };
  const auto j = load_pair("rocket_177x99_420p8_x264crf35");
  const auto fmt = format_of(j);
  const auto& [rf, df] = vqm::test::frames_of(j);
  const auto rv = rf[0].view().planes[0], dv = df[0].view().planes[0];
  for (const auto& r : rows) {
    const auto o = parse_options<adm_options>(vqm::option_map::parse(r.opts));
    EXPECT_EQ(vqm::options_suffix(o), r.suffix) << r.opts;
    const adm_algorithm alg(fmt, o);
    const auto p = vqm::cpu::adm(rv, dv, 8, alg.request());
    EXPECT_TRUE(p == vqm::cpu::reference::adm(rv, dv, 8, alg.request())) << r.opts;
    std::vector<double> out(alg.names().size());
    alg.scores(p, out.data());
    EXPECT_TRUE(vqm::test::same(out[0], r.adm2)) << r.opts << " adm2 " << g17(out[0]);
    EXPECT_TRUE(vqm::test::same(out[3], r.scale0)) << r.opts << " scale0 " << g17(out[3]);
    EXPECT_TRUE(vqm::test::same(out[6], r.scale3)) << r.opts << " scale3 " << g17(out[6]);
  }
}

// ---- (3) optimised kernel == reference kernel ----

struct plane_buf {
  std::vector<std::byte> bytes;
  vqm::plane_view view;
};

enum class kind { noise, flat, max_vs_zero, checker, smooth, related, extreme_related, scaled, blocks };
constexpr int kinds = 9;

// ref and dis planes of w × h at bpc with strides wider than the rows.
// value_bits > bpc: samples beyond the bit depth (libvmaf uses them as they are, SPEC §1).
std::pair<plane_buf, plane_buf> make_pair_planes(std::uint32_t w, std::uint32_t h, unsigned bpc, kind k,
                                                 std::mt19937& rng, unsigned value_bits = 0) {
  const std::uint32_t maxv = (1u << (value_bits ? value_bits : bpc)) - 1u;
  const std::size_t bps = bpc > 8 ? 2 : 1;
  std::uniform_int_distribution<std::uint32_t> pad(0, 9), full(0, maxv);
  std::normal_distribution<double> gauss(0.0, 1.0);
  auto mk = [&](auto&& sample) {
    plane_buf p;
    const std::size_t stride = (w + pad(rng)) * bps;
    p.bytes.assign(stride * h, std::byte{0x5a});
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        const std::uint32_t v = std::min<std::uint32_t>(sample(x, y), maxv);
        if (bps == 1) p.bytes[y * stride + x] = static_cast<std::byte>(v);
        else {
          const std::uint16_t u = static_cast<std::uint16_t>(v);
          std::memcpy(&p.bytes[y * stride + 2 * x], &u, 2);
        }
      }
    p.view = vqm::plane_view{p.bytes.data(), static_cast<std::ptrdiff_t>(stride), w, h};
    return p;
  };
  auto clampd = [&](double v) -> std::uint32_t { return v < 0 ? 0u : v > maxv ? maxv : static_cast<std::uint32_t>(v); };
  const double fx = 0.05 + 0.3 * std::uniform_real_distribution<double>(0, 1)(rng);
  const double fy = 0.05 + 0.3 * std::uniform_real_distribution<double>(0, 1)(rng);
  std::vector<double> base(static_cast<std::size_t>(w) * h);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x)
      base[y * w + x] = (0.5 + 0.35 * std::sin(fx * x + 0.7 * std::cos(fy * y)) + 0.05 * gauss(rng)) * maxv;
  const std::uint32_t c1 = full(rng), c2 = full(rng);
  switch (k) {
    case kind::noise:
      return {mk([&](auto, auto) { return full(rng); }), mk([&](auto, auto) { return full(rng); })};
    case kind::flat:
      return {mk([&](auto, auto) { return c1; }), mk([&](auto, auto) { return c2; })};
    case kind::max_vs_zero:
      return {mk([&](auto, auto) { return maxv; }), mk([&](auto, auto) { return 0u; })};
    case kind::checker:
      return {mk([&](auto x, auto y) { return ((x ^ y) & 1) ? maxv : 0u; }),
              mk([&](auto x, auto y) { return ((x + y / 2) & 1) ? 0u : maxv; })};
    case kind::smooth:
      return {mk([&](auto x, auto y) { return clampd(base[y * w + x]); }),
              mk([&](auto x, auto y) { return clampd(base[y * w + x] * 1.3 - 0.15 * maxv); })};
    case kind::related:
      return {mk([&](auto x, auto y) { return clampd(base[y * w + x]); }),
              mk([&](auto x, auto y) { return clampd(base[y * w + x] + 0.03 * maxv * gauss(rng)); })};
    case kind::extreme_related:
      return {mk([&](auto x, auto y) { return ((x * 7 + y * 3) % 5 < 2) ? maxv : full(rng) / 8; }),
              mk([&](auto x, auto y) { return ((x * 7 + y * 3) % 5 < 2) ? full(rng) : 0u; })};
    case kind::scaled: {
      // high-contrast content and a gain/offset copy: (h, v) vectors nearly parallel, the angle test and the
      // gain limit decide
      const double g = 0.5 + std::uniform_real_distribution<double>(0, 1)(rng), o = 0.2 * gauss(rng) * maxv;
      return {mk([&](auto x, auto y) { return clampd(base[y * w + x] * 1.6 - 0.3 * maxv); }),
              mk([&](auto x, auto y) { return clampd((base[y * w + x] * 1.6 - 0.3 * maxv) * g + o + gauss(rng)); })};
    }
    case kind::blocks: {
      std::vector<std::uint32_t> tile(64);
      for (auto& t : tile) t = full(rng);
      return {mk([&](auto x, auto y) { return tile[(y / 3 % 8) * 8 + x / 5 % 8]; }),
              mk([&](auto x, auto y) { return clampd(tile[(y / 3 % 8) * 8 + x / 5 % 8] * 0.9 + 4 * gauss(rng)); })};
    }
  }
  return {};
}

void check_case(std::uint32_t w, std::uint32_t h, unsigned bpc, kind k, std::mt19937& rng, int& checked,
                unsigned value_bits = 0) {
  auto [r, d] = make_pair_planes(w, h, bpc, k, rng, value_bits);
  std::array<vqm::adm_partials, 2> by_limit;  // opt 0 (gain limit 100) and opt 1 (1): VMAF's and NEG's
  for (int opt = 0; opt < 5; ++opt) {
    vqm::adm_request q;
    q.enhn_gain_limit = (opt & 1) ? 1.0 : 100.0;
    q.skip_scale0 = opt == 2;
    q.skip_aim = opt == 3;
    if (opt == 3) q.enhn_gain_limit = 1.37;
    if (opt == 4) {  // any multipliers (computed IRF0, other CSF modes), any gain limit
      std::uniform_int_distribution<std::uint32_t> u16(1, 65535), u32v;
      for (auto& v : q.irf0) v = static_cast<std::uint16_t>(u16(rng));
      for (auto& r : q.irf)
        for (auto& v : r) v = (rng() & 1) ? u32v(rng) : u32v(rng) >> 4;
      q.enhn_gain_limit = std::uniform_real_distribution<double>(1.0, 100.0)(rng);
    }
    const auto want = vqm::cpu::reference::adm(r.view, d.view, bpc, q);
    for (isa i : paths()) {
      isa_guard g(i);
      const auto got = vqm::cpu::adm(r.view, d.view, bpc, q);
      EXPECT_TRUE(got == want) << w << "x" << h << " " << bpc << "-bit kind " << static_cast<int>(k) << " opt " << opt
                               << " isa " << static_cast<int>(i) << "\ngot\n"
                               << describe(got) << "want\n"
                               << describe(want);
      ++checked;
    }
    if (opt < 2) by_limit[static_cast<std::size_t>(opt)] = want;
  }
  // The pass that shares the DWT between two gain limits, in either order.
  for (int first = 0; first < 2; ++first) {
    vqm::adm_request q;
    q.enhn_gain_limit = first == 0 ? 100.0 : 1.0;
    for (isa i : paths()) {
      isa_guard g(i);
      vqm::adm_partials a, b;
      vqm::cpu::adm_limits(r.view, d.view, bpc, q, true, first == 0 ? 1.0 : 100.0, a, b);
      EXPECT_TRUE(a == by_limit[static_cast<std::size_t>(first)] && b == by_limit[static_cast<std::size_t>(1 - first)])
          << w << "x" << h << " " << bpc << "-bit kind " << static_cast<int>(k) << " two limits, first " << first
          << " isa " << static_cast<int>(i);
    }
  }
}

TEST(AdmKernel, OptimisedEqualsReferenceSmallSizes) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::uint32_t> size(33, 80);
  int checked = 0;
  for (unsigned bpc : {8u, 10u, 12u, 16u})
    for (int k = 0; k < kinds; ++k)
      for (int rep = 0; rep < 8; ++rep) {
        std::uint32_t w = size(rng) | 1u, h = size(rng) | (rep % 3 == 0 ? 1u : 0u);
        if (rep % 3 == 2) w = std::min<std::uint32_t>(w + 1, 80);  // even widths too
        check_case(w, h, bpc, static_cast<kind>(k), rng, checked);
      }
  EXPECT_GT(checked, 1000 * static_cast<int>(paths().size()));  // per instruction-set path
}

TEST(AdmKernel, OptimisedEqualsReferenceMinimumAndFullHd) {
  std::mt19937 rng(777);
  int checked = 0;
  check_case(33, 33, 8, kind::noise, rng, checked);
  check_case(33, 34, 16, kind::extreme_related, rng, checked);
  check_case(1920, 1080, 8, kind::related, rng, checked);
  check_case(645, 199, 10, kind::noise, rng, checked);
  check_case(331, 257, 12, kind::scaled, rng, checked);
  check_case(67, 45, 10, kind::noise, rng, checked, 16);  // 16-bit values in a 10-bit picture
  check_case(71, 39, 12, kind::extreme_related, rng, checked, 16);
  EXPECT_GT(checked, 0);
}

// ---- (4) options and names ----

TEST(AdmOptions, ParseAndSuffix) {
  auto parse = [](const char* s) { return parse_options<adm_options>(vqm::option_map::parse(s)); };
  EXPECT_EQ(vqm::options_suffix(adm_options{}), "");
  EXPECT_EQ(vqm::options_suffix(parse("adm_enhn_gain_limit=1.0")), "_egl_1");
  EXPECT_EQ(parse("adm_enhn_gain_limit=1.0").enhn_gain_limit, 1.0);
  EXPECT_EQ(vqm::options_suffix(parse("adm_skip_scale0=true:adm_enhn_gain_limit=1.2:adm_csf_mode=1")), "_csf_1_egl_1.2_ssz");
  EXPECT_EQ(vqm::options_suffix(parse("adm_noise_weight=0")), "_nw_0");
  EXPECT_EQ(vqm::options_suffix(parse("adm_noise_weight=0.03125")), "");
  EXPECT_EQ(vqm::options_suffix(parse("adm_skip_aim=true:debug=true")), "");
  EXPECT_EQ(vqm::options_suffix(parse("adm_ref_display_height=2160:adm_norm_view_dist=1.5")), "_nvd_1.5_rdh_2160");
  EXPECT_EQ(vqm::options_suffix(parse("adm_csf_diag_scale=2:adm_csf_scale=0.5:adm_dlm_weight=0.25:adm_min_val=0.1")),
            "_scfd_2_scf_0.5_dlmw_0.25_min_0.1");
  EXPECT_THROW(parse("adm_bogus=1"), vqm::error);
  EXPECT_THROW(parse("egl=1"), vqm::error);
  EXPECT_THROW(parse("adm_enhn_gain_limit=0.5"), vqm::error);
  EXPECT_THROW(parse("adm_enhn_gain_limit=abc"), vqm::error);
  for (const char* v : {"nan", "-nan", "NAN", "inf", "infinity", "1e999"})  // NaN fails every comparison
    EXPECT_THROW(parse((std::string("adm_enhn_gain_limit=") + v).c_str()), vqm::error) << v;
  EXPECT_THROW(parse("adm_csf_mode=4"), vqm::error);
  EXPECT_THROW(parse("adm_ref_display_height=0"), vqm::error);
  EXPECT_THROW(parse("adm_skip_aim=yes"), vqm::error);
  EXPECT_TRUE(parse("adm_skip_aim=true").skip_aim);
  EXPECT_EQ(parse("adm_norm_view_dist=3.5:adm_norm_view_dist=4").norm_view_dist, 4.0);
}

TEST(AdmOptions, NamesAndRefusals) {
  const vqm::picture_format f{64, 48, vqm::chroma_format::yuv420, 10};
  adm_options o;
  o.enhn_gain_limit = 1.0;
  const adm_algorithm a(f, o);
  const std::vector<std::string> want = {"integer_adm2_egl_1",       "integer_aim_egl_1",
                                         "integer_adm3_egl_1",       "integer_adm_scale0_egl_1",
                                         "integer_adm_scale1_egl_1", "integer_adm_scale2_egl_1",
                                         "integer_adm_scale3_egl_1"};
  EXPECT_EQ(a.names(), want);
  EXPECT_EQ(a.request().enhn_gain_limit, 1.0);
  o.debug = true;
  EXPECT_EQ(adm_algorithm(f, o).names().size(), 18u);
  EXPECT_EQ(adm_algorithm(f, o).names()[9], "integer_adm_den_egl_1");
  // sizes
  for (auto [w, h] : {std::pair{32u, 64u}, {64u, 32u}, {16u, 16u}, {8u, 8u}}) {
    const auto why = adm_algorithm::unsupported({w, h, vqm::chroma_format::yuv420, 8}, {});
    EXPECT_NE(why.find("33x33"), std::string::npos) << why;
  }
  EXPECT_TRUE(adm_algorithm::unsupported({33, 33, vqm::chroma_format::yuv400, 16}, {}).empty());
  adm_options near;
  near.norm_view_dist = 1.0;
  EXPECT_FALSE(adm_algorithm::unsupported(f, near).empty());
  EXPECT_THROW(adm_algorithm(f, near), vqm::error);
}

// Flat identical frames: every scale and adm2 exactly 1, aim 0 (SPEC §14.2); skip options.
TEST(AdmScores, FlatAndSkipOptions) {
  std::vector<std::uint8_t> flat(64 * 40, 77);
  const vqm::plane_view v{reinterpret_cast<const std::byte*>(flat.data()), 64, 64, 40};
  const vqm::picture_format f{64, 40, vqm::chroma_format::yuv420, 8};
  const adm_algorithm a(f);
  std::vector<double> out(a.names().size());
  a.scores(vqm::cpu::adm(v, v, 8, a.request()), out.data());
  EXPECT_EQ(out[0], 1.0);
  EXPECT_EQ(out[1], 0.0);
  EXPECT_EQ(out[2], 1.0);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(out[3 + s], 1.0);
  adm_options o;
  o.skip_scale0 = true;
  o.skip_aim = true;
  const adm_algorithm b(f, o);
  EXPECT_EQ(b.names()[0], "integer_adm2_ssz");
  const auto p = vqm::cpu::adm(v, v, 8, b.request());
  for (int bb = 0; bb < 3; ++bb) EXPECT_EQ(p.den[0][bb], 0u);
  b.scores(p, out.data());
  EXPECT_EQ(out[1], 0.0);
  EXPECT_EQ(out[3], 0.0);
  EXPECT_EQ(out[4], 1.0);
}

}  // namespace
