// VMAF model evaluation (SPEC-vmaf Part B) against libvmaf: predictions from libvmaf's own feature values
// (tests/data/reference-vmaf{,-v1}) and the CLI edge cases (tests/data/vmaf-cli), compared with ==; the
// model loader's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/detail/json.hpp"
#include "vqm/vmaf/model.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using vqm::vmaf::model;
using series_map = std::map<std::string, std::vector<std::optional<double>>>;

std::string data_dir() { return std::string(VQM_TEST_DATA_DIR); }
std::string cli_dir() { return data_dir() + "/vmaf-cli"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The printed name of a model feature (A.6), written out here independently of the extractors' code.
std::string printed_key(const vqm::vmaf::model_feature& f) {
  struct opt {
    const char* name;
    const char* alias;
    bool is_bool;
    double def;
    const char* text_def = nullptr;  // a string option's default
  };
  static const std::map<std::string, std::vector<opt>> table = {
      {"motion",
       {{"motion_blend_factor", "mbf", false, 1.0},
        {"motion_blend_offset", "mbo", false, 40.0},
        {"motion_five_frame_window", "mffw", true, 0},
        {"motion_force_zero", "force_0", true, 0},
        {"motion_fps_weight", "mfw", false, 1.0},
        {"motion_max_val", "mmxv", false, 10000.0},
        {"motion_moving_average", "mma", true, 0}}},  // sorted by name
      {"adm",
       {{"adm_csf_mode", "csf", false, 0.0},
        {"adm_dlm_weight", "dlmw", false, 0.5},
        {"adm_enhn_gain_limit", "egl", false, 100.0},
        {"adm_min_val", "min", false, 0.0},
        {"adm_noise_weight", "nw", false, 0.03125},
        {"adm_norm_view_dist", "nvd", false, 3.0},
        {"adm_ref_display_height", "rdh", false, 1080.0}}},
      {"vif", {{"vif_enhn_gain_limit", "egl", false, 100.0}}},
      {"float_adm", {{"adm_enhn_gain_limit", "egl", false, 100.0}}},  // the float models set only these
      {"float_vif", {{"vif_enhn_gain_limit", "egl", false, 100.0}}},
      {"float_motion", {}},
      {"cambi",
       {{"cambi_high_res_speedup", "hrs", false, 0.0},
        {"cambi_max_val", "cmxv", false, 1000.0},
        {"cambi_vis_lum_threshold", "vlt", false, 0.0}}},
      {"speed_chroma",
       {{"speed_kernelscale", "ks", false, 1.0},
        {"speed_max_val", "mxv", false, 1000.0},
        {"speed_nn_floor", "nnf", false, 0.0},
        {"speed_prescale", "ps", false, 1.0},
        {"speed_prescale_method", "psm", false, 0.0, "nearest"},
        {"speed_sigma_nn", "snn", false, 0.29},
        {"speed_weight_var_mode", "wvm", false, 0.0}}},
  };
  std::string suffix;
  for (const auto& o : table.at(f.extractor)) {
    const std::string* v = nullptr;
    for (const auto& [k, val] : f.options.items())
      if (k == o.name) v = &val;
    if (!v) continue;
    if (o.is_bool) {
      if (*v == "true") suffix += std::string("_") + o.alias;
    } else if (o.text_def) {
      if (*v != o.text_def) suffix += std::string("_") + o.alias + "_" + *v;
    } else {
      const double d = std::atof(v->c_str());
      if (d != o.def) suffix += std::string("_") + o.alias + "_" + vqm::detail::format_g(d);
    }
  }
  return vqm::vmaf::printed_name(f.name, suffix);
}

std::vector<std::string> printed_keys(const model& m) {
  std::vector<std::string> keys;
  for (const auto& f : m.features()) keys.push_back(printed_key(f));
  return keys;
}

// Predicts every output of `m` at frame i from `series` (libvmaf's own feature values).
std::map<std::string, double> predict_all(const model& m, const std::vector<std::string>& keys,
                                          const std::function<double(const std::string&)>& value_of) {
  std::vector<double> f;
  for (const auto& k : keys) f.push_back(value_of(k));
  std::map<std::string, double> out;
  if (!m.is_collection()) {
    out[m.name()] = m.predict(f);
    return out;
  }
  const auto b = m.predict_bootstrap(f);
  const auto names = m.output_names();
  out[names[0]] = b.main;
  for (std::size_t k = 0; k < b.members.size(); ++k) out[names[1 + k]] = b.members[k];
  const std::size_t s = 1 + b.members.size();
  out[names[s]] = b.bagging;
  out[names[s + 1]] = b.stddev;
  out[names[s + 2]] = b.ci_p95_lo;
  out[names[s + 3]] = b.ci_p95_hi;
  return out;
}

// Every model run of `dir` for `versions`: the model's outputs predicted from libvmaf's own feature values.
// `runs` counts the model runs (an out-parameter: the check stops a run's frames on a missing output).
void check_reference_predictions(const std::string& dir, const std::vector<std::string>& versions,
                                 std::size_t& runs) {
  std::size_t compared = 0;
  runs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json" || e.path().stem() == "manifest") continue;
    const auto j = vqm::test::load_json(e.path().string());
    for (const auto& version : versions) {
      const auto key = std::string("model[") + version + "]";
      if (!j.at("features").contains(key)) continue;
      const auto& run = j.at("features").at(key);
      if (run.at("status") != "ok") continue;
      ++runs;
      const auto& metrics = run.at("metrics");
      const model m = vqm::vmaf::builtin_model(version);
      const auto keys = printed_keys(m);
      const auto names = m.output_names();
      const std::size_t frames = metrics.at("vmaf").size();
      for (std::size_t i = 0; i < frames; ++i) {
        const auto out = predict_all(m, keys, [&](const std::string& k) {
          return vqm::test::to_double(metrics.at(k).at(i));
        });
        for (const auto& n : names) {
          ASSERT_TRUE(metrics.contains(n)) << e.path() << " " << key << " has no " << n;
          const double want = vqm::test::to_double(metrics.at(n).at(i));
          EXPECT_TRUE(vqm::test::same(out.at(n), want))
              << e.path().stem() << " " << key << " " << n << "[" << i << "]: " << out.at(n) << " vs " << want;
          ++compared;
        }
      }
    }
  }
  std::printf("compared %zu predicted values in %zu model runs\n", compared, runs);
}

TEST(VmafModel, ReferencePredictionsAreBitExact) {
  std::size_t runs = 0;
  check_reference_predictions(data_dir() + "/reference-vmaf",
                              {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3"}, runs);
  EXPECT_GT(runs, 80u);
}

// VMAF v1: cambi, speed_chroma, adm3 with v1's options, motion3; includes the frames whose speed_chroma is
// exactly 0 and enters the SVM through chroma_correction_parameter (SPEC-vmaf B.9).
TEST(VmafModel, V1ReferencePredictionsAreBitExact) {
  std::size_t runs = 0;
  check_reference_predictions(data_dir() + "/reference-vmaf-v1",
                              {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_3d0h_2160",
                               "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
                               "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"},
                              runs);
  EXPECT_GE(runs, 8u * 18);  // every pair but 1920x1080 (its fixture is not bundled)
}

// libvmaf XML (%.17g): per-frame attributes.
series_map read_xml(const std::string& path, std::size_t& frames) {
  const std::string t = read_text(path);
  series_map s;
  frames = 0;
  std::vector<std::pair<std::size_t, std::map<std::string, double>>> rows;
  for (std::size_t p = t.find("<frame "); p != std::string::npos; p = t.find("<frame ", p + 1)) {
    const std::size_t end = t.find("/>", p);
    std::size_t q = p + 7, num = 0;
    std::map<std::string, double> row;
    while (q < end) {
      const std::size_t eq = t.find("=\"", q);
      if (eq == std::string::npos || eq > end) break;
      std::size_t b = t.find_last_of(' ', eq) + 1;
      const std::string name = t.substr(b, eq - b);
      const std::size_t close = t.find('"', eq + 2);
      const std::string val = t.substr(eq + 2, close - eq - 2);
      if (name == "frameNum") num = std::stoul(val);
      else row[name] = std::strtod(val.c_str(), nullptr);
      q = close + 1;
    }
    rows.emplace_back(num, std::move(row));
    frames = std::max(frames, num + 1);
  }
  for (auto& [i, row] : rows)
    for (auto& [k, v] : row) {
      auto& col = s[k];
      col.resize(frames);
      col[i] = v;
    }
  return s;
}

struct cli_case {
  const char* xml;
  std::vector<const char*> specs;  // load_model specs, in CLI order
};

TEST(VmafModel, CliEdgeCasesAreBitExact) {
  const std::string c = cli_dir() + "/";
  const std::vector<cli_case> cases = {
      {"e5a", {"version=vmaf_v0.6.1:enable_transform"}},
      {"e5b", {"version=vmaf_b_v0.6.3:enable_transform"}},
      {"e5c", {"version=vmaf_v0.6.1:disable_clip"}},
      {"e5d", {"version=vmaf_v0.6.1neg:name=vmaf_neg", "version=vmaf_v0.6.1"}},
      {"e6", {"version=vmaf_v0.6.1"}},
      {"e7", {"version=vmaf_v0.6.1:motion.motion_force_zero=true"}},
      {"e9", {"version=vmaf_b_v0.6.3"}},
      {"e10", {"path=CLI/custom_knots.json"}},
      {"e11", {"path=CLI/custom_poly_knots.json"}},
      {"e12", {"version=vmaf_b_v0.6.3:enable_transform"}},
      {"e13", {"version=vmaf_b_v0.6.3"}},
      {"e14", {"path=CLI/custom_knots_x0.json"}},
      {"e15", {"path=CLI/custom_knots_extrap.json"}},
      {"e16", {"path=CLI/custom_knots_invalid.json"}},
  };
  std::size_t compared = 0;
  for (const auto& cs : cases) {
    std::size_t frames = 0;
    const auto s = read_xml(c + cs.xml + ".xml", frames);
    ASSERT_GT(frames, 0u) << cs.xml;
    for (std::string spec : cs.specs) {
      if (const auto p = spec.find("CLI/"); p != std::string::npos) spec.replace(p, 4, c);
      const model m = vqm::vmaf::load_model(spec);
      const auto keys = printed_keys(m);
      for (std::size_t i = 0; i < frames; ++i) {
        if (!s.at(m.name())[i]) continue;  // not predicted (subsample)
        const auto out = predict_all(m, keys, [&](const std::string& k) {
          const auto& col = s.at(k);
          if (!col[i]) throw std::runtime_error(std::string(cs.xml) + ": no " + k);
          return *col[i];
        });
        for (const auto& n : m.output_names()) {
          ASSERT_TRUE(s.count(n)) << cs.xml << " has no " << n;
          EXPECT_TRUE(vqm::test::same(out.at(n), *s.at(n)[i]))
              << cs.xml << " " << n << "[" << i << "]: " << out.at(n) << " vs " << *s.at(n)[i];
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 200u);
  std::printf("compared %zu predicted values in %zu CLI cases\n", compared, cases.size());
}

TEST(VmafModel, BuiltinModelFacts) {
  const auto versions = vqm::vmaf::builtin_versions();
  EXPECT_EQ(versions.size(), 17u);
  for (auto v : versions) {
    EXPECT_EQ(vqm::vmaf::builtin_model_text(v),
              read_text(data_dir() + "/../../include/vqm/vmaf/models/" + std::string(v) + ".json"));
    if (v.starts_with("vmaf_v1.")) {
      const model m = vqm::vmaf::builtin_model(v);
      ASSERT_EQ(m.features().size(), 4u) << v;
      EXPECT_EQ(m.features()[0].extractor, "cambi");
      EXPECT_EQ(m.features()[1].extractor, "speed_chroma");
      EXPECT_EQ(m.features()[2].name, "VMAF_integer_feature_adm3_score");
      EXPECT_EQ(m.features()[3].name, "VMAF_integer_feature_motion3_score");
      continue;
    }
    const model m = vqm::vmaf::builtin_model(v);
    const bool fl = v.starts_with("vmaf_float_");
    ASSERT_EQ(m.features().size(), 6u) << v;
    EXPECT_EQ(m.features()[0].name, fl ? "VMAF_feature_adm2_score" : "VMAF_integer_feature_adm2_score");
    EXPECT_EQ(m.features()[1].name, fl ? "VMAF_feature_motion2_score" : "VMAF_integer_feature_motion2_score");
    for (const auto& f : m.features()) EXPECT_EQ(f.extractor.starts_with("float_"), fl) << v << " " << f.name;
    EXPECT_EQ(m.features()[0].extractor, fl ? "float_adm" : "adm");
    EXPECT_EQ(m.features()[1].extractor, fl ? "float_motion" : "motion");
    EXPECT_EQ(m.features()[5].extractor, fl ? "float_vif" : "vif");
    EXPECT_EQ(m.is_collection(), v.ends_with("b_v0.6.3"));
  }
  const model neg = vqm::vmaf::builtin_model("vmaf_v0.6.1neg");
  EXPECT_EQ(neg.features()[0].options.items().size(), 1u);
  EXPECT_EQ(neg.features()[0].options.items()[0].first, "adm_enhn_gain_limit");
  EXPECT_EQ(neg.features()[0].options.items()[0].second, "1");  // 1.0 normalised (A.2)
  EXPECT_EQ(printed_key(neg.features()[0]), "integer_adm2_egl_1");
  EXPECT_EQ(printed_key(neg.features()[1]), "integer_motion2");
  const model b = vqm::vmaf::load_model("version=vmaf_b_v0.6.3:name=x");
  EXPECT_EQ(b.members().size(), 20u);
  const auto n = b.output_names();
  ASSERT_EQ(n.size(), 25u);
  EXPECT_EQ(n[0], "x");
  EXPECT_EQ(n[1], "x_0001");
  EXPECT_EQ(n[20], "x_0020");
  EXPECT_EQ(n[21], "x_bagging");
  EXPECT_EQ(n[24], "x_ci_p95_hi");
  EXPECT_EQ(vqm::vmaf::load_model("vmaf_4k_v0.6.1").source(), "vmaf_4k_v0.6.1");
  const std::string knots = cli_dir() + "/custom_knots.json";
  EXPECT_EQ(vqm::vmaf::load_model(knots).source(), knots);
  EXPECT_TRUE(vqm::vmaf::load_model(knots).main().transform().enabled);
  EXPECT_FALSE(vqm::vmaf::load_model("path=" + knots + ":disable_clip").main().clip().has_value());
  EXPECT_FALSE(vqm::vmaf::builtin_model("vmaf_v0.6.1").main().transform().enabled);
  EXPECT_TRUE(vqm::vmaf::load_model("version=vmaf_v0.6.1:enable_transform=true").main().transform().enabled);
  EXPECT_FALSE(vqm::vmaf::load_model("version=vmaf_4k_v0.6.1:enable_transform").main().transform().enabled);  // none in file
  const model o = vqm::vmaf::load_model("version=vmaf_v0.6.1:motion.motion_fps_weight=1.23456789:adm.debug=true");
  EXPECT_EQ(printed_key(o.features()[1]), "integer_motion2_mfw_1.23457");
  EXPECT_EQ(o.features()[0].options.items().at(0).second, "true");
  EXPECT_EQ(o.features()[2].options.items().size(), 0u);
}

TEST(VmafModel, Aliases) {
  using vqm::vmaf::alias_of;
  EXPECT_EQ(alias_of("VMAF_integer_feature_adm2_score"), "integer_adm2");
  EXPECT_EQ(alias_of("VMAF_integer_feature_motion_sad_score"), "VMAF_integer_feature_motion_sad_score");
  EXPECT_EQ(alias_of("VMAF_integer_feature_vif_scale3_score"), "integer_vif_scale3");
  EXPECT_EQ(alias_of("whatever"), "whatever");
  EXPECT_EQ(vqm::vmaf::extractor_of("VMAF_integer_feature_motion3_score"), "motion");
  EXPECT_EQ(vqm::vmaf::extractor_of("VMAF_feature_adm2_score"), "float_adm");
  EXPECT_EQ(vqm::vmaf::extractor_of("Cambi_feature_cambi_score"), "cambi");
  EXPECT_EQ(vqm::vmaf::extractor_of("Speed_chroma_feature_speed_chroma_uv_score"), "speed_chroma");
  EXPECT_EQ(vqm::vmaf::extractor_of("VMAF_feature_adm3_score"), "float_adm");
  EXPECT_EQ(vqm::vmaf::printed_name("VMAF_integer_feature_motion_sad_score", "_mffw"),
            "VMAF_integer_feature_motion_sad_score_mffw");
}

// ---- model loader errors -----------------------------------------------------------------------------

std::string v061_text() { return vqm::vmaf::builtin_model_text("vmaf_v0.6.1"); }

std::string replace(std::string s, const std::string& from, const std::string& to, bool last = false) {
  const auto p = last ? s.rfind(from) : s.find(from);
  if (p == std::string::npos) throw std::runtime_error("test setup: no " + from);
  return s.replace(p, from.size(), to);
}

void expect_model_error(const std::string& text, const std::string& needle) {
  try {
    (void)vqm::vmaf::model_from_json(text, "m.json");
    ADD_FAILURE() << "accepted a model expected to fail with: " << needle;
  } catch (const vqm::error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(needle), std::string::npos) << m;
    EXPECT_NE(m.find("m.json"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(VmafModel, LoaderErrors) {
  const std::string t = v061_text();
  expect_model_error("{", "invalid JSON");
  expect_model_error("[]", "top level");
  expect_model_error("{}", "neither a model_dict");
  expect_model_error(replace(t, "\"LIBSVMNUSVR\"", "\"XGBOOST\""), "unknown model_type 'XGBOOST'");
  expect_model_error(replace(t, "\"linear_rescale\"", "\"clip_0to1\""), "unknown norm_type 'clip_0to1'");
  expect_model_error(replace(t, "\"VMAF_integer_feature_adm2_score\"", "\"VMAF_feature_ansnr_score\""),
                     "feature VMAF_feature_ansnr_score is not available");
  expect_model_error(replace(t, "svm_type nu_svr", "svm_type nu_svr\\nfoo 1"), "unknown key 'foo'");
  expect_model_error(replace(t, "kernel_type rbf", "kernel_type linear"), "kernel_type linear");
  expect_model_error(replace(t, "total_sv 211", "total_sv 212"), "total_sv is 212");
  expect_model_error(replace(t, "\"score_clip\": [", "\"score_clip\": [1, ", true), "score_clip");  // model_dict's
  expect_model_error(replace(t, "1:", "0:"), "bad or unordered index");
  EXPECT_THROW((void)vqm::vmaf::builtin_model("vmaf_v9"), vqm::error);
  try {
    (void)vqm::vmaf::builtin_model("vmaf_v9");
  } catch (const vqm::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown VMAF model version 'vmaf_v9' (built in: vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, "
              "vmaf_4k_v0.6.1neg, vmaf_b_v0.6.3, vmaf_v1.0.16_3d0h, vmaf_v1.0.16_5d0h, vmaf_v1.0.16_3d0h_2160, "
              "vmaf_v1.0.16_1d5h_2160, vmaf_v1.0.16_hfr_3d0h, vmaf_v1.0.16_hfr_5d0h, vmaf_v1.0.16_hfr_3d0h_2160, "
              "vmaf_v1.0.16_hfr_1d5h_2160, vmaf_float_v0.6.1, vmaf_float_v0.6.1neg, vmaf_float_4k_v0.6.1, "
              "vmaf_float_b_v0.6.3)");
  }
  // chroma_correction_parameter (SPEC-vmaf B.9) names the speed_chroma and adm3 inputs; 0 writes no score.
  expect_model_error(replace(t, "\"model_type\"", "\"chroma_correction_parameter\": 120.0, \"model_type\""),
                     "chroma_correction_parameter needs a feature named *speed_chroma*");
  const std::string v1 = vqm::vmaf::builtin_model_text("vmaf_v1.0.16_3d0h");
  expect_model_error(replace(v1, "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": 0"),
                     "chroma_correction_parameter 0 makes libvmaf write no score");
  expect_model_error(replace(v1, "VMAF_integer_feature_adm3_score", "VMAF_integer_feature_adm2_score"),
                     "chroma_correction_parameter needs a feature named *adm3*");
  try {
    (void)vqm::vmaf::model_from_file("/nonexistent/m.json");
    ADD_FAILURE();
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::io);
    EXPECT_EQ(std::string(e.what()), "VMAF model /nonexistent/m.json: cannot open the file: No such file or directory");
  }
  // Issue #25: no NaN or infinity in the libsvm text; no endless file read; names every output can hold.
  expect_model_error(replace(t, "gamma 0.04\\n", "gamma nan\\n"), "'nan' is not a finite number (gamma)");
  expect_model_error(replace(t, "1:0.65734273", "1:-inf"), "'-inf' is not a finite number (value)");
  for (const char* dev : {"/dev/zero", "/dev/urandom"}) {
    try {
      (void)vqm::vmaf::model_from_file(dev);
      ADD_FAILURE() << dev;
    } catch (const vqm::error& e) {
      EXPECT_EQ(std::string(e.what()), "VMAF model " + std::string(dev) + ": is a device or socket, not a file (give a model .json file)");
    }
  }
  EXPECT_THROW((void)vqm::vmaf::load_model("version=vmaf_v0.6.1:name=a<b"), vqm::error);
  EXPECT_EQ(vqm::vmaf::load_model("version=vmaf_v0.6.1:name=v-1.0_x").name(), "v-1.0_x");
  EXPECT_THROW((void)vqm::vmaf::load_model("version=vmaf_v0.6.1:bogus=1"), vqm::error);
  EXPECT_THROW((void)vqm::vmaf::load_model("version=vmaf_v0.6.1:foo.bar=1"), vqm::error);
  // Any feature takes overloads: VMAF v1's cambi, float_adm's vqm option adm_rcp.
  const model v1m = vqm::vmaf::load_model("version=vmaf_v1.0.16_3d0h:cambi.cambi_topk=0.5");
  EXPECT_EQ(v1m.features()[0].options.items().back(), (std::pair<std::string, std::string>{"cambi_topk", "0.5"}));
  const model fl = vqm::vmaf::load_model("version=vmaf_float_v0.6.1:float_adm.adm_rcp=intel");
  EXPECT_EQ(fl.features()[0].options.items().back(), (std::pair<std::string, std::string>{"adm_rcp", "intel"}));
  EXPECT_THROW((void)vqm::vmaf::load_model("name=x"), vqm::error);
  EXPECT_THROW((void)vqm::vmaf::load_model("version=vmaf_v0.6.1:path=x"), vqm::error);
  const model m = vqm::vmaf::builtin_model("vmaf_v0.6.1");
  EXPECT_THROW((void)m.predict(std::vector<double>(5, 0.0)), vqm::error);
  EXPECT_THROW((void)m.predict_bootstrap(std::vector<double>(6, 0.0)), vqm::error);
}

// Knots semantics (B.5) on hand-made lists; each expected value follows from the rules directly.
TEST(VmafModel, KnotRules) {
  vqm::vmaf::score_transform t;
  t.enabled = true;
  t.has_knots = true;
  t.knots = {{0, 0}, {50, 20}, {62, 62}, {66, 62}, {70, 80}, {100, 100}};
  EXPECT_EQ(t.apply(0.0), 0.0);
  EXPECT_EQ(t.apply(64.0), 62.0);          // flat segment
  EXPECT_EQ(t.apply(-10.0), -4.0);         // x0 == 0 branch extrapolates below: a = 0.4
  t.knots = {{0, 0}, {50, 40}, {40, 60}};  // invalid at the second segment: keeps the first one's write
  EXPECT_EQ(t.apply(10.0), 8.0);
  EXPECT_EQ(t.apply(55.0), 0.0);
  t.knots = {{0, 0}};
  EXPECT_EQ(t.apply(55.0), 55.0);
  t.knots.clear();
  EXPECT_EQ(t.apply(55.0), 55.0);
}


// The float models (libvmaf 3.2.0 ran them for tests/data/reference-vmaf-v1): every prediction from
// libvmaf's own feature values, bit for bit (their features resolve to float_adm, float_motion and
// float_vif: BuiltinModelFacts).
TEST(VmafModel, FloatModelPredictionsAreBitExact) {
  std::size_t runs = 0;
  check_reference_predictions(data_dir() + "/reference-vmaf-v1",
                              {"vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1", "vmaf_float_b_v0.6.3"},
                              runs);
  EXPECT_EQ(runs, 104u);  // 26 pairs x 4 models
}

}  // namespace
