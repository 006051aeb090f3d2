// speed_chroma and speed_temporal on the Cpu backend beyond the default runs backend_reference checks:
// speed_chroma as each vmaf_v1.0.16 model runs it (its values inside tests/data/reference-vmaf-v1's model
// runs, under their suffixed names), every prescale method against libvmaf (tests/data/speed-prescale),
// option parsing and output names, and the inputs vqm refuses where libvmaf fails or crashes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "common/six_digit_runs.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

namespace {

const std::string v1_dir = std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf-v1";

// Every frame's values of the given features (name -> options) on a pair, by output name.
std::map<std::string, std::vector<double>> measure(const nlohmann::json& pair,
                                                   const std::vector<std::pair<std::string, std::string>>& features) {
  const auto& [ref, dis] = frames_of(pair);
  Cpu cpu;
  std::vector<any_metric<Cpu>> m;
  for (const auto& [name, opts] : features)
    m.push_back(make_metric<Cpu>(name, option_map::parse(opts), ref.front().format(), compat::libvmaf));
  scorer<Cpu> sc(cpu, std::move(m), compat::libvmaf);
  const auto names = sc.names();
  std::map<std::string, std::vector<double>> out;
  const auto take = [&](const frame_result& r) {
    for (std::size_t k = 0; k < names.size(); ++k) out[names[k]].push_back(r.values[k]);
  };
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (auto r = sc.push(ref[i], dis[i])) take(*r);
  while (auto r = sc.pop()) take(*r);
  return out;
}

picture_format format(std::uint32_t w, std::uint32_t h, chroma_format c = chroma_format::yuv420, std::uint32_t bpc = 8) {
  picture_format f;
  f.width = w;
  f.height = h;
  f.chroma = c;
  f.bit_depth = bpc;
  return f;
}

std::string chroma_why(const picture_format& f, const char* opts = "") {
  return speed_chroma_algorithm::unsupported(f, parse_options<speed_chroma_options>(option_map::parse(opts)));
}
std::string temporal_why(const picture_format& f, const char* opts = "") {
  return speed_temporal_algorithm::unsupported(f, parse_options<speed_temporal_options>(option_map::parse(opts)));
}

}  // namespace

// The speed_chroma values of every vmaf_v1.0.16 model run libvmaf finished, by --feature speed_chroma with
// the model's options (v1's, plus speed_prescale 0.6 or 0.5 with bilinear), under the same names.
TEST(speed_cpu, v1_model_speed_values_match_libvmaf) {
  std::size_t compared = 0;
  const std::regex prescale("_ps_([0-9.]+)_psm_([a-z0-9]+)_");
  for (const auto& pair : reference_pairs(v1_dir)) {
    const auto j = load_json(v1_dir + "/" + pair + ".json");
    std::set<std::string> opts;
    for (const auto& [key, run] : j.at("features").items()) {
      if (!key.starts_with("model[vmaf_v1.0.16") || run.at("status") != "ok") continue;
      for (const auto& [name, v] : run.at("metrics").items()) {
        if (!name.starts_with("speed_chroma_uv")) continue;
        std::string o = "speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_weight_var_mode=5:speed_max_val=45";
        if (std::smatch m; std::regex_search(name, m, prescale))
          o += ":speed_prescale=" + m[1].str() + ":speed_prescale_method=" + m[2].str();
        opts.insert(o);
      }
    }
    if (opts.empty()) continue;
    std::vector<std::pair<std::string, std::string>> features;
    for (const auto& o : opts) features.emplace_back("speed_chroma", o);
    const auto got = measure(j, features);
    for (const auto& [key, run] : j.at("features").items()) {
      if (!key.starts_with("model[vmaf_v1.0.16") || run.at("status") != "ok") continue;
      for (const auto& [name, v] : run.at("metrics").items()) {
        if (!name.starts_with("speed_chroma")) continue;
        const auto it = got.find(name);
        ASSERT_NE(it, got.end()) << pair << " " << key << ": vqm has no output named " << name;
        ASSERT_EQ(it->second.size(), v.size()) << pair << " " << name;
        for (std::size_t i = 0; i < v.size(); ++i, ++compared)
          EXPECT_PRED2(same, it->second[i], to_double(v[i])) << pair << " " << key << " " << name << " frame " << i;
      }
    }
  }
  EXPECT_GT(compared, 1500u);
  std::printf("[ speed ] %zu model-run speed_chroma values compared with libvmaf\n", compared);
}

// Every prescale method, down and up, and the |ps − 1| < 1e-3 trap, against libvmaf's own runs.
TEST(speed_cpu, prescale_methods_match_libvmaf) {
  std::size_t compared = 0, refused = 0;
  const std::string dir = std::string(VQM_TEST_DATA_DIR) + "/speed-prescale";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    const auto run = load_json(e.path().string());
    const auto pair = load_json(v1_dir + "/" + run.at("pair").get<std::string>() + ".json");
    const auto args = run.at("cli_args").get<std::string>();
    const auto at = args.find("speed_chroma=") + 13;
    const auto opts = args.substr(at, args.find(' ', at) - at);
    const auto what = e.path().filename().string();
    if (run.at("status") != "ok") {
      try {
        (void)make_metric<Cpu>("speed_chroma", option_map::parse(opts), frames_of(pair).first.front().format());
        ADD_FAILURE() << what << ": accepted; libvmaf crashes";
      } catch (const error& err) {
        EXPECT_EQ(err.code(), errc::unsupported_format) << err.what();
        ++refused;
      }
      continue;
    }
    const auto got = measure(pair, {{"speed_chroma", opts}});
    std::set<std::string> names;
    for (const auto& [k, v] : got) names.insert(k);
    EXPECT_EQ(names, run.at("keys").get<std::set<std::string>>()) << what;
    for (const auto& [name, v] : run.at("metrics").items())
      for (const auto& [full, values] : got) {
        // libvmaf's file holds the values under the names without the suffix.
        if (!full.starts_with(name + "_") || full.starts_with("speed_chroma_uv") != (name == "speed_chroma_uv")) continue;
        ASSERT_EQ(values.size(), v.size()) << what;
        for (std::size_t i = 0; i < v.size(); ++i, ++compared)
          EXPECT_PRED2(same, values[i], to_double(v[i])) << what << " " << full << " frame " << i;
      }
  }
  EXPECT_GT(compared, 250u);
  EXPECT_GE(refused, 5u);
  std::printf("[ speed ] %zu prescaled values compared with libvmaf, %zu refusals\n", compared, refused);
}

// Options no %.17g reference covers (weight modes 1-4 and 6, kernel scales, speed_use_ref_diff, the
// temporal prescale, an uncapped speed_temporal) against libvmaf's stock %.6f output
// (tests/data/speed_options.json): the names exactly, the values to libvmaf's six decimals.
TEST(speed_cpu, other_options_match_libvmaf_to_six_decimals) {
  const auto j = load_json(std::string(VQM_TEST_DATA_DIR) + "/speed_options.json");
  std::size_t compared = 0;
  for (const auto& run : j.at("runs")) {
    nlohmann::json pair;
    pair["pair"] = run.at("distorted");
    pair["reference"]["file"] = run.at("reference");
    pair["distorted"]["file"] = run.at("distorted");
    const auto what = run.at("feature").get<std::string>() + "=" + run.at("options").get<std::string>();
    const auto got = measure(pair, {{run.at("feature").get<std::string>(), run.at("options").get<std::string>()}});
    const auto& frames = run.at("frames");
    for (std::size_t i = 0; i < frames.size(); ++i) {
      ASSERT_EQ(frames[i].size(), got.size()) << what;
      for (const auto& [name, v] : frames[i].items()) {
        const auto it = got.find(name);
        ASSERT_NE(it, got.end()) << what << ": vqm has no output named " << name;
        EXPECT_EQ(six_digits(it->second.at(i)), v.get<std::string>()) << what << " " << name << " frame " << i;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 150u);
}

TEST(speed_cpu, options_and_output_names) {
  using C = speed_chroma_options;
  const auto v1 = parse_options<C>(option_map::parse(
      "speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_weight_var_mode=5:speed_max_val=45:speed_prescale=0.6:"
      "speed_prescale_method=bilinear"));
  EXPECT_EQ(scale_method_named(v1.speed_prescale_method), scale_method::bilinear);
  EXPECT_EQ(options_suffix(v1), "_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5");
  EXPECT_EQ(printed_names(speed_chroma_algorithm::provided, options_suffix(v1))[2],
            "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5");
  // A default given explicitly does not rename (strcmp with the default, as libvmaf).
  EXPECT_EQ(options_suffix(parse_options<C>(option_map::parse("speed_prescale_method=nearest:speed_prescale=1.0"))), "");
  EXPECT_EQ(options_suffix(parse_options<C>(option_map::parse("speed_prescale_method=lanczos4:speed_kernelscale=0.5"))),
            "_ks_0.5_psm_lanczos4");
  for (const char* m : {"bicubic", "nearest", "lanczos4", "bilinear"})
    EXPECT_EQ(detail::option_text(parse_options<C>(option_map::parse(std::string("speed_prescale_method=") + m))
                                      .speed_prescale_method),
              m);
  // Only libvmaf's four names (it matches them with strcmp, so case and spaces matter).
  for (const char* bad : {"speed_prescale_method=Bilinear", "speed_prescale_method=cubic", "speed_prescale_method=",
                          "speed_weight_var_mode=7", "speed_prescale=0.05", "speed_sigma_nn=3"}) {
    try {
      (void)parse_options<C>(option_map::parse(bad));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << bad;
    }
  }
  try {
    (void)parse_options<C>(option_map::parse("speed_prescale_method=area"));
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("expected one of nearest, bilinear, bicubic, lanczos4"), std::string::npos)
        << e.what();
  }
  bool described = false;
  for (const auto& o : describe_options<C>())
    if (o.name == "speed_prescale_method") {
      described = true;
      EXPECT_EQ(o.type, "string");
      EXPECT_EQ(o.default_value, "nearest");
      EXPECT_EQ(o.range, "nearest, bilinear, bicubic, lanczos4");
      EXPECT_EQ(o.alias, "psm");
    }
  EXPECT_TRUE(described);
  using T = speed_temporal_options;
  const auto t = parse_options<T>(option_map::parse("speed_use_ref_diff=true:speed_max_val=10"));
  EXPECT_EQ(options_suffix(t), "_mxv_10_urd");
  EXPECT_THROW((void)parse_options<T>(option_map::parse("speed_weight_var_mode=1")), error);  // chroma's only
  EXPECT_TRUE(algorithm::temporal<speed_temporal_algorithm>(t));
}

TEST(speed_cpu, refusals_name_the_limit) {
  // Chroma working size = floor(luma / subsampling); the plane must reach 80x80 after prescale.
  EXPECT_EQ(chroma_why(format(183, 177)), "");  // chroma 91x88
  EXPECT_NE(chroma_why(format(177, 99)).find("at least 80x80"), std::string::npos) << chroma_why(format(177, 99));
  EXPECT_NE(chroma_why(format(177, 99)).find("88x49"), std::string::npos);
  EXPECT_EQ(chroma_why(format(177, 99), "speed_prescale=1.7"), "");
  EXPECT_NE(chroma_why(format(576, 324), "speed_prescale=0.37").find("prescaled 107x60"), std::string::npos)
      << chroma_why(format(576, 324), "speed_prescale=0.37");
  EXPECT_EQ(chroma_why(format(576, 324, chroma_format::yuv444), "speed_prescale=0.37"), "");
  EXPECT_EQ(chroma_why(format(160, 80, chroma_format::yuv422)), "");
  EXPECT_NE(chroma_why(format(158, 80, chroma_format::yuv422)), "");
  EXPECT_EQ(chroma_why(format(576, 324, chroma_format::yuv400)), "");  // as 4:2:0 with mid-grey chroma
  EXPECT_NE(chroma_why(format(576, 324, chroma_format::yuv420, 9)).find("not 9-bit"), std::string::npos);
  EXPECT_NE(chroma_why(format(576, 324), "speed_kernelscale=1.3").find("invalid speed_kernelscale 1.3"),
            std::string::npos);
  EXPECT_EQ(chroma_why(format(576, 324), "speed_kernelscale=0.5"), "");
  EXPECT_EQ(temporal_why(format(80, 80)), "");
  EXPECT_NE(temporal_why(format(79, 80)).find("luma plane of at least 80x80"), std::string::npos);
  EXPECT_EQ(temporal_why(format(576, 324), "speed_prescale=0.5:speed_prescale_method=bicubic"), "");
  EXPECT_NE(temporal_why(format(576, 324), "speed_prescale=1.7").find("does not enlarge"), std::string::npos);
  EXPECT_NE(temporal_why(format(960, 324), "speed_prescale=1.0009"), "");  // the trap grows 960 to 961
  EXPECT_EQ(temporal_why(format(576, 324), "speed_prescale=0.99901"), "");
  EXPECT_THROW((void)make_metric<Cpu>("speed_chroma", {}, format(176, 144)), error);  // chroma 88x72
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
