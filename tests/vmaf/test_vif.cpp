// Integer VIF (feature "vif", SPEC-vmaf Part I) on the Cpu backend:
//  (1) every integer_vif value of libvmaf's reference runs (tests/data/reference-vmaf), bit for bit;
//  (2) the optimised kernel against the scalar reference kernel on random and extreme planes, every ISA,
//      alone and in the pass that shares two gain limits (VMAF and NEG);
//  (4) options, output names and the size domain.
// (3), the log2 table of §9 and the filters: test_vif_tables.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/reference_data.hpp"
#include "cpu/random_planes.hpp"
#include "vqm/cpu/reference/vif.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/vif.hpp"
#include "vqm/metrics/vif.hpp"
#include "vqm/tables/vif.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using vqm::test::vmaf_reference_dir;
using vqm::test::vmaf_reference_pairs;

using vqm::cpu::isa;

std::string show(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string show(const vqm::vif_scale_sums& t) {
  return "NL=" + std::to_string(t.num_log) + " DL=" + std::to_string(t.den_log) +
         " NN=" + std::to_string(t.num_non_log) + " DN=" + std::to_string(t.den_non_log);
}

// Every instruction-set path this machine can run; the cap is restored afterwards.
std::vector<isa> paths() {
  return vqm::cpu::available_isas();
}
struct isa_guard {
  explicit isa_guard(isa i) : before(vqm::cpu::max_isa()) { vqm::cpu::set_max_isa(i); }
  ~isa_guard() { vqm::cpu::set_max_isa(before); }
  isa before;
};
const char* name(isa i) { return vqm::cpu::isa_name(i).data(); }

// ---------------------------------------------------------------------------------------------- (1)

// The reference runs that carry integer_vif outputs, and the options each one used.
const std::vector<std::pair<std::string, vqm::option_map>>& vif_runs() {
  static const std::vector<std::pair<std::string, vqm::option_map>> runs{
      {"vif", {}},
      {"model[vmaf_v0.6.1]", {}},
      {"model[vmaf_4k_v0.6.1]", {}},
      {"model[vmaf_b_v0.6.3]", {}},
      {"model[vmaf_v0.6.1neg]", {{"vif_enhn_gain_limit", "1.0"}}},
  };
  return runs;
}

TEST(VifReference, EveryPairAndRunBitExact) {
  const auto pairs = vmaf_reference_pairs();
  ASSERT_GE(pairs.size(), 20u) << "reference-vmaf data missing";
  std::size_t compared = 0, runs_checked = 0;
  for (const auto& pair : pairs) {
    const auto j = vqm::test::load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [refs, diss] = vqm::test::frames_of(j);
    ASSERT_EQ(refs.size(), diss.size()) << pair;
    ASSERT_EQ(refs.size(), j.at("frames").get<std::size_t>()) << pair;
    std::map<std::string, std::vector<vqm::vif_partials>> cache;  // per option set
    for (const auto& [run, opts] : vif_runs()) {
      if (!j.at("features").contains(run)) continue;
      const auto& r = j.at("features").at(run);
      if (r.at("status") != "ok") continue;
      const auto o = vqm::parse_options<vqm::vif_options>(opts);
      const vqm::vif_algorithm alg(refs.at(0).format(), o, vqm::compat::libvmaf);
      auto& parts = cache[vqm::options_suffix(o)];
      if (parts.empty()) {
        for (std::size_t f = 0; f < refs.size(); ++f) {
          const auto rv = refs[f].view(), dv = diss[f].view();
          parts.push_back(vqm::cpu::vif(rv.planes[0], dv.planes[0], rv.format.bit_depth, alg.request()));
        }
        // every other instruction-set path gives the same sums
        for (const isa i : paths()) {
          const isa_guard g(i);
          for (std::size_t f = 0; f < refs.size(); ++f) {
            const auto rv = refs[f].view(), dv = diss[f].view();
            EXPECT_EQ(vqm::cpu::vif(rv.planes[0], dv.planes[0], rv.format.bit_depth, alg.request()), parts[f])
                << pair << " run " << run << " frame " << f << " " << name(i);
          }
        }
      }
      ++runs_checked;
      std::size_t found = 0;
      std::vector<double> out(alg.names().size());
      for (std::size_t f = 0; f < refs.size(); ++f) {
        alg.scores(parts[f], out.data());
        for (std::size_t k = 0; k < alg.names().size(); ++k) {
          const auto& metrics = r.at("metrics");
          if (!metrics.contains(alg.names()[k])) continue;
          ++found;
          const double want = vqm::test::to_double(metrics.at(alg.names()[k]).at(f));
          ++compared;
          EXPECT_TRUE(vqm::test::same(out[k], want))
              << pair << " run " << run << " frame " << f << " " << alg.names()[k] << ": got " << show(out[k])
              << ", libvmaf " << show(want) << " (scale sums "
              << show(parts[f].scale[k < 4 ? k : 0]) << ")";
        }
      }
      EXPECT_EQ(found, 4 * refs.size()) << pair << " run " << run << ": not every integer_vif output was found";
    }
  }
  EXPECT_GE(runs_checked, pairs.size());
  std::printf("compared %zu integer_vif values from %zu runs of %zu pairs\n", compared, runs_checked, pairs.size());
}

// The reference kernel alone on a few fixture pairs (the test above runs the optimised one).
TEST(VifReference, ReferenceKernelOnFixtures) {
  for (const std::string pair : {"rocket_177x99_420p8_noise10", "cellauto_8x8_420p8_noise20",
                                 "chelsea_16x16_420p8_noise12", "astronaut_176x176_420p16_boxblur1",
                                 "rocket_321x199_422p10_x264crf33"}) {
    const auto j = vqm::test::load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [refs, diss] = vqm::test::frames_of(j);
    const auto& r = j.at("features").at("vif");
    ASSERT_EQ(r.at("status"), "ok") << pair;
    const vqm::vif_algorithm alg(refs.at(0).format());
    std::vector<double> out(alg.names().size());  // sized by names(): scores() writes the debug layout too
    for (std::size_t f = 0; f < std::min<std::size_t>(refs.size(), 3); ++f) {
      const auto rv = refs[f].view(), dv = diss[f].view();
      alg.scores(vqm::cpu::reference::vif(rv.planes[0], dv.planes[0], rv.format.bit_depth, alg.request()),
                 out.data());
      for (int k = 0; k < 4; ++k) {
        const double want = vqm::test::to_double(r.at("metrics").at(alg.names()[k]).at(f));
        EXPECT_TRUE(vqm::test::same(out[k], want))
            << pair << " frame " << f << " " << alg.names()[k] << ": got " << show(out[k]) << ", libvmaf " << show(want);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------- (2)

struct plane_pair {
  vqm::test::random_plane ref, dis;
  std::string what;
};

vqm::test::random_plane filled(std::uint32_t w, std::uint32_t h, std::uint32_t bits, std::uint32_t pad,
                               std::uint32_t value, std::mt19937& rng) {
  auto p = vqm::test::make_plane(w, h, bits, pad, vqm::test::content::flat, rng);
  const std::size_t bps = bits > 8 ? 2 : 1;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::byte* d = p.storage.data() + y * static_cast<std::size_t>(p.view.stride) + x * bps;
      if (bps == 2) {
        const auto s = static_cast<std::uint16_t>(value);
        std::memcpy(d, &s, 2);
      } else {
        *d = static_cast<std::byte>(value);
      }
    }
  return p;
}

// Random and extreme content of one size: the kinds of random_planes.hpp (uniform = full-range noise,
// smooth, flat), distorted by noise or identical, plus flat-vs-noise, max-vs-zero and max-vs-max.
std::vector<plane_pair> pairs_of_size(std::uint32_t w, std::uint32_t h, std::uint32_t bits, std::mt19937& rng) {
  using vqm::test::content;
  std::uniform_int_distribution<std::uint32_t> pad(0, 37);
  const std::uint32_t maxv = (1u << bits) - 1;
  const std::string size = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) + "-bit ";
  std::vector<plane_pair> out;
  auto add = [&](vqm::test::random_plane r, vqm::test::random_plane d, const std::string& what) {
    r.view.data = r.storage.data();
    d.view.data = d.storage.data();
    out.push_back({std::move(r), std::move(d), size + what});
  };
  const int amp = 1 << (bits - 8);
  for (auto kind : {content::uniform, content::smooth, content::flat}) {
    const auto k = std::to_string(static_cast<int>(kind));
    auto r = vqm::test::make_plane(w, h, bits, pad(rng), kind, rng);
    add(r, vqm::test::distort(r, bits, 3 * amp, rng), "kind " + k + " noise 3");
    add(r, vqm::test::distort(r, bits, 60 * amp, rng), "kind " + k + " noise 60");
    add(r, r, "kind " + k + " identical");
  }
  add(filled(w, h, bits, pad(rng), maxv / 2, rng), vqm::test::make_plane(w, h, bits, pad(rng), content::uniform, rng),
      "flat vs full-range noise");
  add(vqm::test::make_plane(w, h, bits, pad(rng), content::uniform, rng), filled(w, h, bits, pad(rng), 0, rng),
      "noise vs zero");
  add(filled(w, h, bits, pad(rng), maxv, rng), filled(w, h, bits, pad(rng), 0, rng), "max vs zero");
  add(filled(w, h, bits, pad(rng), maxv, rng), filled(w, h, bits, pad(rng), maxv, rng), "max vs max");
  {  // a checkerboard of 0 and max: the largest variances there are
    auto r = filled(w, h, bits, pad(rng), 0, rng);
    const std::size_t bps = bits > 8 ? 2 : 1;
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = (y & 1); x < w; x += 2) {
        std::byte* d = r.storage.data() + y * static_cast<std::size_t>(r.view.stride) + x * bps;
        if (bps == 2) {
          const auto s = static_cast<std::uint16_t>(maxv);
          std::memcpy(d, &s, 2);
        } else {
          *d = static_cast<std::byte>(maxv);
        }
      }
    add(r, r, "checkerboard identical");
    add(r, vqm::test::distort(r, bits, 100 * amp, rng), "checkerboard noise");
    add(r, vqm::test::make_plane(w, h, bits, pad(rng), content::uniform, rng), "checkerboard vs noise");
  }
  return out;
}

// Also the pass with a second gain limit (VMAF and NEG): both results equal the reference's at their limit.
void expect_kernels_agree(const plane_pair& p, std::uint32_t bits, const vqm::vif_request& q, const std::string& what) {
  const auto want = vqm::cpu::reference::vif(p.ref.view, p.dis.view, bits, q);
  vqm::vif_request q2 = q;
  q2.gain_limit = q.gain_limit == 1.0 ? 100.0 : 1.0;
  const auto want2 = vqm::cpu::reference::vif(p.ref.view, p.dis.view, bits, q2);
  for (const isa i : paths()) {
    const isa_guard g(i);
    const auto got = vqm::cpu::vif(p.ref.view, p.dis.view, bits, q);
    vqm::vif_partials both, both2;
    vqm::cpu::vif_limits(p.ref.view, p.dis.view, bits, q, true, q2.gain_limit, both, both2);
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(got.scale[s], want.scale[s]) << p.what << " " << what << " " << name(i) << " scale " << s
                                             << ": got " << show(got.scale[s]) << ", reference " << show(want.scale[s]);
      EXPECT_EQ(both.scale[s], want.scale[s]) << p.what << " " << what << " " << name(i) << " two limits, scale " << s;
      EXPECT_EQ(both2.scale[s], want2.scale[s])
          << p.what << " " << what << " " << name(i) << " two limits, the second (" << show(q2.gain_limit) << "), scale "
          << s << ": got " << show(both2.scale[s]) << ", reference " << show(want2.scale[s]);
    }
  }
}

TEST(VifKernels, OptimisedEqualsReferenceSmallSizes) {
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<std::uint32_t> any(2, 40), tall(8, 40);
  const std::array<vqm::vif_request, 3> requests{vqm::vif_request{}, vqm::vif_request{1.0, false},
                                                 vqm::vif_request{1.37, true}};
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
    for (std::uint32_t w = 2; w <= 40; ++w) sizes.emplace_back(w, tall(rng));  // every width, incl. < 16
    for (std::uint32_t h = 8; h <= 40; ++h) sizes.emplace_back(any(rng), h);    // every height, incl. < 16
    sizes.emplace_back(8, 8);
    sizes.emplace_back(16, 16);
    for (const auto& [w, h] : sizes) {
      const auto cases = pairs_of_size(w, h, bits, rng);
      for (std::size_t c = 0; c < cases.size(); ++c) {
        const auto& q = requests[c % requests.size()];
        if (q.skip_scale0 && w < 4) continue;
        expect_kernels_agree(cases[c], bits, q, "egl " + show(q.gain_limit) + (q.skip_scale0 ? " skip0" : ""));
      }
      if (HasFailure()) return;
    }
  }
}

TEST(VifKernels, OptimisedEqualsReferenceLargerSizes) {
  std::mt19937 rng(7);
  const std::array<std::pair<std::uint32_t, std::uint32_t>, 6> sizes{
      {{64, 48}, {97, 61}, {131, 67}, {200, 35}, {255, 129}, {333, 17}}};
  for (std::uint32_t bits : {8u, 9u, 10u, 11u, 12u, 14u, 15u, 16u})
    for (const auto& [w, h] : sizes) {
      const auto cases = pairs_of_size(w, h, bits, rng);
      for (std::size_t c = 0; c < cases.size(); c += 2)
        expect_kernels_agree(cases[c], bits, vqm::vif_request{c % 4 == 0 ? 100.0 : 1.0, c % 3 == 1},
                             c % 4 == 0 ? "default" : "egl 1");
      if (HasFailure()) return;
    }
}

// Rows wider than 8192 (AVX2) and 16384 (AVX-512) columns: the row accumulators are flushed inside the row.
TEST(VifKernels, OptimisedEqualsReferenceWideRows) {
  std::mt19937 rng(8192);
  for (std::uint32_t bits : {8u, 16u})
    for (const auto& [w, h] : {std::pair{8200u, 9u}, std::pair{8193u, 16u}, std::pair{16421u, 9u}}) {
      const auto cases = pairs_of_size(w, h, bits, rng);
      for (std::size_t c = 0; c < cases.size(); c += 3) expect_kernels_agree(cases[c], bits, vqm::vif_request{}, "default");
    }
}

TEST(VifKernels, OptimisedEqualsReference1080p) {
  std::mt19937 rng(1080);
  for (std::uint32_t bits : {8u, 10u}) {
    auto r = vqm::test::make_plane(1920, 1080, bits, 5, vqm::test::content::smooth, rng);
    auto d = vqm::test::distort(r, bits, 9 << (bits - 8), rng);
    d.view.data = d.storage.data();
    expect_kernels_agree(plane_pair{std::move(r), std::move(d), "1920x1080 " + std::to_string(bits) + "-bit smooth"},
                         bits, vqm::vif_request{}, "default");
  }
}

// The kernels are called from many threads at once (the Cpu backend's pool).
TEST(VifKernels, ConcurrentCallsAgree) {
  std::mt19937 rng(99);
  std::vector<plane_pair> cases;
  for (auto [w, h] : {std::pair{120u, 70u}, {37u, 9u}, {300u, 41u}, {5u, 12u}})
    for (auto& c : pairs_of_size(w, h, 8, rng)) cases.push_back(std::move(c));
  std::vector<vqm::vif_partials> want;
  for (const auto& c : cases) want.push_back(vqm::cpu::reference::vif(c.ref.view, c.dis.view, 8, {}));
  std::vector<std::vector<vqm::vif_partials>> got(4, std::vector<vqm::vif_partials>(cases.size()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 3; ++rep)
        for (std::size_t c = 0; c < cases.size(); ++c)
          got[t][(c + t * 5) % cases.size()] =
              vqm::cpu::vif(cases[(c + t * 5) % cases.size()].ref.view, cases[(c + t * 5) % cases.size()].dis.view, 8, {});
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t)
    for (std::size_t c = 0; c < cases.size(); ++c) EXPECT_EQ(got[t][c], want[c]) << cases[c].what << " thread " << t;
}

// ---------------------------------------------------------------------------------------------- (4)

TEST(VifOptions, ParseAndSuffix) {
  using vqm::option_map;
  using vqm::vif_options;
  using vqm::parse_options;
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({})), "");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_enhn_gain_limit", "1.0"}})), "_egl_1");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_enhn_gain_limit", "1.37"}})), "_egl_1.37");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_enhn_gain_limit", "100"}})), "");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_enhn_gain_limit", "100.0"}})), "");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>(option_map::parse("vif_skip_scale0=true:vif_enhn_gain_limit=1.5"))),
            "_egl_1.5_ssclz");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_skip_scale0", "true"}})), "_ssclz");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_skip_scale0", "false"}})), "");
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"debug", "true"}})), "");
  EXPECT_TRUE(parse_options<vif_options>({{"debug", "true"}}).debug);
  EXPECT_DOUBLE_EQ(parse_options<vif_options>({{"vif_enhn_gain_limit", "1.0"}}).vif_enhn_gain_limit, 1.0);
  // libvmaf normalises through binary32 and %g: 1.23456789 -> "1.23457".
  EXPECT_EQ(parse_options<vif_options>({{"vif_enhn_gain_limit", "1.23456789"}}).vif_enhn_gain_limit, 1.23457);
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>({{"vif_enhn_gain_limit", "1.23456789"}})), "_egl_1.23457");
  // The last value wins.
  EXPECT_EQ(vqm::options_suffix(parse_options<vif_options>(option_map::parse("vif_enhn_gain_limit=2:vif_enhn_gain_limit=3"))), "_egl_3");

  auto rejected = [](const option_map& m) {
    try {
      (void)parse_options<vif_options>(m);
    } catch (const vqm::error& e) {
      return e.code() == vqm::errc::invalid_argument;
    }
    return false;
  };
  EXPECT_TRUE(rejected({{"vif_enhn_gain_limit", "0.5"}}));
  EXPECT_TRUE(rejected({{"vif_enhn_gain_limit", "100.5"}}));
  EXPECT_TRUE(rejected({{"vif_enhn_gain_limit", "abc"}}));
  EXPECT_TRUE(rejected({{"vif_skip_scale0", "yes"}}));
  EXPECT_TRUE(rejected({{"egl", "1.0"}}));  // aliases are for names only
  EXPECT_TRUE(rejected({{"ssclz", "true"}}));
  EXPECT_TRUE(rejected({{"adm_enhn_gain_limit", "1.0"}}));
  EXPECT_FALSE(rejected({{"vif_enhn_gain_limit", "1"}}));
}

TEST(VifOptions, NamesAndRequest) {
  const vqm::picture_format f{64, 64, vqm::chroma_format::yuv420, 8};
  const vqm::vif_algorithm plain(f);
  EXPECT_EQ(plain.names(), (std::vector<std::string>{"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                                                     "integer_vif_scale3"}));
  EXPECT_EQ(plain.request().gain_limit, 100.0);
  EXPECT_FALSE(plain.request().skip_scale0);
  const vqm::vif_algorithm neg(f, vqm::parse_options<vqm::vif_options>({{"vif_enhn_gain_limit", "1.0"}}));
  EXPECT_EQ(neg.names().at(3), "integer_vif_scale3_egl_1");
  EXPECT_EQ(neg.request().gain_limit, 1.0);
  const vqm::vif_algorithm dbg(f, vqm::parse_options<vqm::vif_options>(vqm::option_map::parse("debug=true:vif_skip_scale0=true")));
  ASSERT_EQ(dbg.names().size(), 15u);
  EXPECT_EQ(dbg.names()[4], "integer_vif_ssclz");
  EXPECT_EQ(dbg.names()[14], "integer_vif_den_scale3_ssclz");
  EXPECT_TRUE(dbg.request().skip_scale0);
  EXPECT_STREQ(vqm::vif_algorithm::feature_name, "vif");
}

TEST(VifOptions, ScoresFromSums) {
  const vqm::picture_format f{64, 64, vqm::chroma_format::yuv420, 8};
  vqm::vif_partials p;
  p.scale[0] = {0, 0, 0, 100};          // all flat, no distortion variance: exactly 1
  p.scale[1] = {2048 * 10, 2048 * 20, 0, 0};  // 10 / 20
  p.scale[2] = {0, 0, 65025 * 16384 * 2, 1};  // 1 − 2 = −1
  // scale 3 empty: 0/0
  const vqm::vif_algorithm plain(f);
  std::vector<double> out(plain.names().size());
  plain.scores(p, out.data());
  EXPECT_EQ(out[0], 1.0);
  EXPECT_EQ(out[1], 0.5);
  EXPECT_EQ(out[2], -1.0);
  EXPECT_TRUE(std::isnan(out[3]));
  const vqm::vif_algorithm dbg(f, vqm::parse_options<vqm::vif_options>({{"debug", "true"}, {"vif_skip_scale0", "true"}}));
  p.scale[3] = {0, 0, 0, 7};
  out.assign(15, -99.0);
  dbg.scores(p, out.data());
  EXPECT_EQ(out[0], 0.0);
  EXPECT_EQ(out[1], 0.5);
  EXPECT_EQ(out[5], 10.0 + -1.0 + 7.0);  // num, scales 1..3
  EXPECT_EQ(out[6], 20.0 + 1.0 + 7.0);   // den
  EXPECT_EQ(out[4], 16.0 / 28.0);
  EXPECT_EQ(out[7], 0.0);   // num_scale0 with skip
  EXPECT_EQ(out[8], -1.0);  // den_scale0 with skip
  EXPECT_EQ(out[9], 10.0);
  EXPECT_EQ(out[10], 20.0);
}

TEST(VifOptions, SizeDomain) {
  auto why = [](std::uint32_t w, std::uint32_t h, std::uint32_t bits = 8, bool skip = false) {
    vqm::vif_options o;
    o.vif_skip_scale0 = skip;
    return vqm::vif_algorithm::unsupported({w, h, vqm::chroma_format::yuv420, bits}, o);
  };
  EXPECT_EQ(why(8, 8), "");
  EXPECT_EQ(why(2, 8), "");
  EXPECT_EQ(why(1920, 1080, 16), "");
  EXPECT_EQ(why(4, 8, 8, true), "");
  EXPECT_NE(why(16, 7), "");
  EXPECT_NE(why(100, 1), "");
  EXPECT_NE(why(1, 16), "");
  EXPECT_NE(why(3, 16, 8, true), "");
  EXPECT_NE(why(64, 64, 9), "");
  EXPECT_NE(why(64, 64, 14), "");
  EXPECT_THROW(vqm::vif_algorithm({16, 7, vqm::chroma_format::yuv420, 8}), vqm::error);
  try {
    vqm::vif_algorithm a({16, 7, vqm::chroma_format::yuv420, 8});
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::unsupported_format);
    EXPECT_NE(std::string(e.what()).find("16x7"), std::string::npos) << e.what();
  }
}

}  // namespace
