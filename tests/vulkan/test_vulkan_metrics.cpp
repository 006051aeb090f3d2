// Every metric on Cpu and Vulkan against libvmaf's values (tests/data/reference, compat::libvmaf), and
// Vulkan against Cpu on every fixture pair in the default mode with extra options (lcs, every SSIM scale).
// Tolerances (issue #3 §4): psnr/mse/apsnr/float_psnr identical doubles; float_ssim/float_ms_ssim
// (and their l/c/s outputs) |Δ| <= 1e-8; psnr_hvs* |Δ| <= 1e-6 dB. The largest |Δ| per output is
// printed at the end (docs/vulkan.md quotes it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>
#include <string_view>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/pooling.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

double tolerance(const std::string& out) {
  if (out.starts_with("float_ssim") || out.starts_with("float_ms_ssim")) return 1e-8;
  if (out.starts_with("psnr_hvs")) return 1e-6;
  return 0.0;  // psnr_*, mse_*, apsnr_*, float_psnr: identical doubles
}

// Largest |Δ| seen per backend and output name family, printed by the environment at exit.
std::map<std::string, double>& max_delta() {
  static std::map<std::string, double> m;
  return m;
}
void note(const std::string& table, const std::string& out, double d) {
  std::string family = out;
  for (const char* f : {"float_ms_ssim_l", "float_ms_ssim_c", "float_ms_ssim_s"})
    if (out.starts_with(f)) family = f;
  auto& v = max_delta()[table + " " + family];
  v = std::max(v, d);
}

class report : public testing::Environment {
 public:
  void TearDown() override {
    if (max_delta().empty()) return;
    std::printf("\nmax |delta| per output (backend vs reference):\n");
    for (const auto& [k, v] : max_delta()) std::printf("  %-48s %.3g\n", k.c_str(), v);
  }
};
const auto* const env = testing::AddGlobalTestEnvironment(new report);

void expect_close(const std::string& table, const std::string& out, double got, double want, const std::string& where) {
  const double d = abs_diff(got, want);
  note(table, out, d);
  const double tol = tolerance(out);
  if (tol == 0.0)
    EXPECT_PRED2(same, got, want) << where << " " << out << ": got " << std::hexfloat << got << ", want " << want;
  else
    EXPECT_LE(d, tol) << where << " " << out << ": got " << std::hexfloat << got << ", want " << want;
}

// Runs libvmaf finished although its filters read outside its buffers (their values are undefined): vqm
// refuses these inputs (tests/cli/check_reference.py lists the same).
inline bool libvmaf_out_of_bounds(std::string_view pair, std::string_view key) {
  return pair == "cellauto_8x8_420p8_noise20" && key == "float_vif";  // 8x8: the 17-tap filter reads rows -1, 8
}

// The backends of the typed tests; Vulkan shares the test program's context.
template <class B>
struct backend_of;
template <>
struct backend_of<Cpu> {
  static Cpu* get(std::string*) {
    static Cpu c;
    return &c;
  }
  static std::size_t depth(Cpu&) { return 1; }
};
template <>
struct backend_of<Vulkan> {
  static Vulkan* get(std::string* why) {
    auto ctx = vk_context(why);
    if (!ctx) return nullptr;
    static Vulkan v(ctx);
    return &v;
  }
  static std::size_t depth(Vulkan& v) { return v.frames_in_flight(); }
};

template <class B>
class backend_reference : public testing::Test {};
using backends = testing::Types<Cpu, Vulkan>;
TYPED_TEST_SUITE(backend_reference, backends);

// All feature runs of a pair in one scorer (one submit per frame on Vulkan), each output against libvmaf's
// values in `dir`; with `registered_only`, runs of features vqm does not have yet (and model runs) are left
// out, so each new feature is checked against every value there is for it as soon as it is registered;
// features in `skip` are left out too (checked by their own suites). With `pooled`, a run's recorded pooled
// statistics are compared too (libvmaf's pooling of the per-frame values, io::pool).
template <class B>
std::size_t check_reference_dir(B& b, const std::string& dir, bool registered_only,
                                std::initializer_list<std::string_view> skip = {}, bool pooled = false) {
  const std::string table = std::string(B::name) + " vs libvmaf";
  std::size_t compared = 0;
  for (const auto& pair : reference_pairs(dir)) {
    const auto j = load_json(dir + "/" + pair + ".json");
    const auto& [ref, dis] = frames_of(j);
    EXPECT_FALSE(ref.empty()) << pair;
    if (ref.empty()) continue;
    const auto format = ref.front().format();
    struct run_t {
      std::string key;
      std::size_t first;  // first column in the scorer's names
      std::vector<std::string> names;
    };
    std::vector<run_t> runs;
    std::vector<any_metric<B>> metrics;
    std::size_t col = 0;
    for (const auto& [key, run] : j.at("features").items()) {
      const auto args = run.at("cli_args").template get<std::string>();
      const auto [name, opts] = split_feature_args(args);
      if (registered_only && (!args.starts_with("--feature ") ||
                              std::find(metric_names.begin(), metric_names.end(), name) == metric_names.end()))
        continue;
      if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
      // A feature whose engine this backend lacks (make_metric refuses it) is checked on the backends that
      // run it.
      if (!runs_on<B>(name)) continue;
      // libvmaf's float_adm divides with the RCPSS of the CPU that ran it: reference-vmaf's runs were made on
      // AMD (Zen 3), so the test names that table (adm_rcp does not rename outputs).
      std::string o = opts;
      if (name == "float_adm") o += o.empty() ? "adm_rcp=amd" : ":adm_rcp=amd";
      const auto options = option_map::parse(o);
      // Refused inputs: libvmaf failed, its value is undefined (libvmaf_out_of_bounds, float_adm below
      // 17x17), or its ciede on odd-height 4:2:0 reads chroma past the end of its picture.
      const bool outside = libvmaf_out_of_bounds(pair, key) || (name == "ciede" && ciede_reads_past_picture(format)) ||
                           (name == "float_adm" && (format.width < 17 || format.height < 17));
      if (outside || run.at("status").template get<std::string>() != "ok") {
        try {
          (void)make_metric<B>(name, options, format, compat::libvmaf);
          ADD_FAILURE() << pair << " " << key << " was accepted; libvmaf: " << run.at("status");
        } catch (const error& e) {
          EXPECT_EQ(e.code(), errc::unsupported_format) << e.what();
        }
        continue;
      }
      metrics.push_back(make_metric<B>(name, options, format, compat::libvmaf));
      runs.push_back({key, col, metrics.back().names()});
      col += metrics.back().names().size();
    }
    if (metrics.empty()) continue;
    scorer<B> sc(b, std::move(metrics), compat::libvmaf, backend_of<B>::depth(b));
    std::vector<frame_result> results;
    for (std::size_t i = 0; i < ref.size(); ++i)
      if (auto r = sc.push(ref[i], dis[i])) results.push_back(std::move(*r));
    while (auto r = sc.pop()) results.push_back(std::move(*r));
    EXPECT_EQ(results.size(), ref.size()) << pair;
    if (results.size() != ref.size()) continue;
    const auto agg = sc.aggregate();
    const auto finished = sc.finish();  // end-of-stream series (float_motion's motion2, motion3)
    for (const auto& r : runs) {
      const auto& run = j.at("features").at(r.key);
      const auto& expected = run.at("metrics");
      std::set<std::string> want, have(r.names.begin(), r.names.end()), at_end;
      for (const auto& [k, v] : expected.items()) want.insert(k);
      for (const auto& [name, series] : finished) {
        if (!expected.contains(name)) continue;
        have.insert(name);
        at_end.insert(name);
        EXPECT_EQ(series.size(), results.size()) << pair << " " << name;
        for (std::size_t i = 0; i < results.size() && i < series.size(); ++i) {
          expect_close(table, name, series[i], to_double(expected.at(name)[i]),
                       pair + " " + r.key + " frame " + std::to_string(i));
          ++compared;
        }
      }
      EXPECT_EQ(have, want) << pair << " " << r.key;
      for (std::size_t k = 0; k < r.names.size(); ++k) {
        const auto& out = r.names[k];
        if (!expected.contains(out) || at_end.contains(out)) continue;
        std::vector<double> series;
        for (std::size_t i = 0; i < results.size(); ++i) {
          series.push_back(results[i].values[r.first + k]);
          expect_close(table, out, series.back(), to_double(expected.at(out)[i]),
                       pair + " " + r.key + " frame " + std::to_string(i));
          ++compared;
        }
        if (!pooled || !run.contains("pooled")) continue;
        const auto& want_pool = run.at("pooled").at(out);
        const auto p = io::pool(series);
        const std::pair<const char*, double> stats[] = {
            {"min", p.min}, {"max", p.max}, {"mean", p.mean}, {"harmonic_mean", p.harmonic_mean}};
        for (const auto& [stat, got] : stats)
          expect_close(table, out, got, to_double(want_pool.at(stat)), pair + " " + r.key + " pooled " + stat);
      }
      if (run.contains("aggregate"))
        for (const auto& [k, v] : run.at("aggregate").items()) {
          const auto& name = k;  // Clang 14 cannot capture a structured binding in a lambda
          const auto it = std::find_if(agg.begin(), agg.end(), [&](const auto& a) { return a.first == name; });
          EXPECT_NE(it, agg.end()) << pair << " missing aggregate " << name;
          if (it != agg.end()) expect_close(table, name, it->second, to_double(v), pair + " " + r.key);
        }
    }
  }
  return compared;
}

TYPED_TEST(backend_reference, every_pair_every_feature_matches_libvmaf) {
  using B = TypeParam;
  std::string why;
  B* b = backend_of<B>::get(&why);
  if (!b) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const std::size_t compared = check_reference_dir(*b, reference_dir(), false);
  if (!std::getenv("VQM_TEST_PAIRS")) {
    EXPECT_GT(compared, 4000u);
  }
  std::printf("[ %s ] %zu per-frame values compared with libvmaf\n", B::name.data(), compared);
}

// libvmaf 3.2's further features (tests/data/reference-vmaf-v1): every run of a registered feature.
TYPED_TEST(backend_reference, every_registered_feature_of_libvmaf_3_2_matches) {
  using B = TypeParam;
  std::string why;
  B* b = backend_of<B>::get(&why);
  if (!b) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const std::size_t compared = check_reference_dir(*b, std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf-v1", true);
  if (!std::getenv("VQM_TEST_PAIRS")) {
    EXPECT_GT(compared, 400u);  // float_moment: 4 outputs of every frame of every pair
  }
  std::printf("[ %s ] %zu per-frame values compared with libvmaf\n", B::name.data(), compared);
}

// libvmaf 3.2's other features in tests/data/reference-vmaf (ciede, float_vif, float_adm, float_motion,
// cambi): every run of a registered one. Its adm/vif/motion runs are the VMAF suites' (tests/vmaf).
TYPED_TEST(backend_reference, every_registered_feature_of_reference_vmaf_matches) {
  using B = TypeParam;
  std::string why;
  B* b = backend_of<B>::get(&why);
  if (!b) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const std::size_t compared = check_reference_dir(*b, std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf", true,
                                                   {"adm", "vif", "motion"});
  std::printf("[ %s ] %zu per-frame values compared with libvmaf\n", B::name.data(), compared);
}

// float_ansnr (tests/data/reference-ansnr): every frame and the pooled statistics of every pair.
TYPED_TEST(backend_reference, every_float_ansnr_value_matches) {
  using B = TypeParam;
  std::string why;
  B* b = backend_of<B>::get(&why);
  if (!b) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const std::size_t compared =
      check_reference_dir(*b, std::string(VQM_TEST_DATA_DIR) + "/reference-ansnr", true, {}, true);
  if (!std::getenv("VQM_TEST_PAIRS")) {
    EXPECT_EQ(compared, 222u);  // 2 outputs of the 111 frames of the 26 pairs
  }
  std::printf("[ %s ] %zu per-frame values compared with libvmaf\n", B::name.data(), compared);
}

// Vulkan against Cpu in the default mode (ceil chroma, which the reference test cannot cover), the first
// frame of every pair, every output enabled, SSIM at forced scales (odd ones exercise the inexact box
// weight; the automatic scale and scale 1 are in the reference test).
TEST(VulkanVsCpu, EveryPairEveryOutputEveryScale) {
  std::string why;
  Vulkan* gpu = backend_of<Vulkan>::get(&why);
  if (!gpu) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Cpu cpu;
  const std::vector<std::pair<std::string, std::string>> features{
      {"psnr", "enable_mse=true:enable_apsnr=true"},
      {"psnr", "enable_chroma=false:reduced_hbd_peak=true"},
      {"float_psnr", ""},
      {"float_ssim", "scale=2:enable_lcs=true"},
      {"float_ssim", "scale=3:enable_lcs=true"},
      {"float_ssim", "scale=5:enable_db=true:clip_db=true"},
      {"float_ms_ssim", "enable_lcs=true"},
      {"psnr_hvs", ""},
      {"float_moment", ""},
  };
  std::size_t compared = 0;
  for (const auto& pair : reference_pairs()) {
    const auto j = load_json(reference_dir() + "/" + pair + ".json");
    const auto& [ref, dis] = frames_of(j);
    const auto format = ref.front().format();
    std::vector<any_metric<Cpu>> mc;
    std::vector<any_metric<Vulkan>> mv;
    for (const auto& [name, opts] : features) {
      const auto o = option_map::parse(opts);
      try {
        mc.push_back(make_metric<Cpu>(name, o, format));
      } catch (const error&) {
        continue;  // not defined for this input (tiny, 16-bit psnr_hvs, gray): covered by the reference test
      }
      mv.push_back(make_metric<Vulkan>(name, o, format));
    }
    scorer<Cpu> sc(cpu, std::move(mc));
    scorer<Vulkan> sv(*gpu, std::move(mv), compat::none, gpu->frames_in_flight());
    ASSERT_EQ(sc.names(), sv.names());
    std::vector<frame_result> rc, rv;
    for (std::size_t i = 0; i < 1; ++i) {
      if (auto r = sc.push(ref[i], dis[i])) rc.push_back(std::move(*r));
      if (auto r = sv.push(ref[i], dis[i])) rv.push_back(std::move(*r));
    }
    while (auto r = sc.pop()) rc.push_back(std::move(*r));
    while (auto r = sv.pop()) rv.push_back(std::move(*r));
    ASSERT_EQ(rc.size(), rv.size());
    for (std::size_t i = 0; i < rc.size(); ++i)
      for (std::size_t k = 0; k < sc.names().size(); ++k) {
        expect_close("vulkan vs cpu", sc.names()[k], rv[i].values[k], rc[i].values[k],
                     pair + " frame " + std::to_string(i));
        ++compared;
      }
    const auto ac = sc.aggregate(), av = sv.aggregate();
    ASSERT_EQ(ac.size(), av.size());
    for (std::size_t k = 0; k < ac.size(); ++k) expect_close("vulkan vs cpu", ac[k].first, av[k].second, ac[k].second, pair);
  }
  if (!std::getenv("VQM_TEST_PAIRS")) {
    EXPECT_GT(compared, 500u);
  }
}

// float_moment's 16-bit squares round in binary32 and libvmaf adds them serially in double: the Vulkan
// engine's exact integer sums are that double up to 2^21 luma samples, and larger 16-bit input is refused.
TEST(VulkanFloatMoment, SixteenBitAboveTwoMegasamplesIsRefused) {
  std::string why;
  Vulkan* gpu = backend_of<Vulkan>::get(&why);
  if (!gpu) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  for (const auto& [w, h, ok] : {std::tuple{2048u, 1024u, true}, std::tuple{2048u, 1026u, false}}) {
    picture ref(picture_format{w, h, chroma_format::yuv400, 16}), dis(ref.format());
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        ref.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(65535 - (x * 7 + y) % 977);
        dis.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(60000 + (x + 3 * y) % 5535);
      }
    std::vector<any_metric<Vulkan>> mv;
    mv.push_back(make_metric<Vulkan>("float_moment", {}, ref.format()));
    scorer<Vulkan> sv(*gpu, std::move(mv), compat::none, 1);
    if (!ok) {
      try {
        (void)sv.push(ref, dis);
        while (sv.pop()) {
        }
        ADD_FAILURE() << w << "x" << h << " 16-bit was accepted";
      } catch (const error& e) {
        EXPECT_EQ(e.code(), errc::unsupported_format) << e.what();
        EXPECT_NE(std::string(e.what()).find("Cpu backend"), std::string::npos) << e.what();
      }
      continue;
    }
    std::vector<any_metric<Cpu>> mc;
    mc.push_back(make_metric<Cpu>("float_moment", {}, ref.format()));
    Cpu cpu;
    scorer<Cpu> sc(cpu, std::move(mc), compat::none, 1);
    auto rv = sv.push(ref, dis);
    if (!rv) rv = sv.pop();
    auto rc = sc.push(ref, dis);
    if (!rc) rc = sc.pop();
    ASSERT_TRUE(rv && rc);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_PRED2(same, rv->values[k], rc->values[k]) << k;
  }
}

// float_vif's options on Vulkan against libvmaf's own output (tests/data/float_vif_options.json, whose %.6f
// pins the binary32 per-scale num/den): the runs at kernel scale 1; other kernel scales are refused there.
TEST(VulkanFloatVif, OptionsMatchLibvmafAtKernelScaleOne) {
  std::string why;
  Vulkan* gpu = backend_of<Vulkan>::get(&why);
  if (!gpu) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const auto six = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return std::string(buf);
  };
  std::size_t compared = 0, refused = 0;
  const auto j = load_json(std::string(VQM_TEST_DATA_DIR) + "/float_vif_options.json");
  for (const auto& run : j.at("runs")) {
    const auto ref = read_all(fixture(run.at("reference").get<std::string>()));
    const auto dis = read_all(fixture(run.at("distorted").get<std::string>()));
    const auto opts = run.at("options").get<std::string>();
    std::vector<any_metric<Vulkan>> m;
    m.push_back(make_metric<Vulkan>("float_vif", option_map::parse(opts), ref.front().format(), compat::libvmaf));
    const auto names = m.front().names();
    scorer<Vulkan> sv(*gpu, std::move(m), compat::libvmaf, 1);
    const auto& frames = run.at("frames");
    if (opts.find("vif_kernelscale") != std::string::npos) {
      EXPECT_THROW(
          {
            (void)sv.push(ref[0], dis[0]);
            while (sv.pop()) {
            }
          },
          error);
      ++refused;
      continue;
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
      auto r = sv.push(ref[i], dis[i]);
      if (!r) r = sv.pop();
      ASSERT_TRUE(r.has_value());
      for (std::size_t k = 0; k < names.size(); ++k) {
        ASSERT_TRUE(frames[i].contains(names[k])) << names[k];
        EXPECT_EQ(six(r->values[k]), six(frames[i].at(names[k]).get<double>())) << opts << " " << names[k];
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 90u);
  EXPECT_EQ(refused, 4u);
}

}  // namespace
}  // namespace vqm::test
