// The vqm program end to end: output layouts, libvmaf's numbers through --precision max --compat libvmaf,
// flags (bad input: test_cli_errors.cpp).
#include "cli/cli_fixture.hpp"
#include "vqm/feature_reference.hpp"
#include "vqm/registry.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace cli_test;
using cli = cli_fixture;

// ---------------------------------------------------------------------------------------------------
// Layouts

TEST_F(cli, json_layout_and_default_precision) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr=enable_apsnr=true", "--feature",
                      "float_ssim", "--json", "-o", path("out.json"), "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(leftovers({"out.json"}), std::vector<std::string>{});
  const auto text = slurp(path("out.json"));
  const auto j = json::parse(text);
  EXPECT_TRUE(j.at("version").get<std::string>().starts_with("vqm ")) << j.at("version");
  EXPECT_TRUE(j.at("fps").is_number());
  const auto& frames = j.at("frames");
  ASSERT_EQ(frames.size(), 4u);
  const auto ref = reference("astronaut_576x324_420p8_x264crf35");
  const auto& psnr = ref.at("features").at("psnr").at("metrics");
  const auto& ssim = ref.at("features").at("float_ssim").at("metrics");
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(frames[i].at("frameNum").get<std::size_t>(), i);
    const auto& m = frames[i].at("metrics");
    EXPECT_EQ(m.size(), 4u);
    // Default output is libvmaf's %.6f: within half a unit in the 6th decimal of the true value.
    for (const char* n : {"psnr_y", "psnr_cb", "psnr_cr"})
      EXPECT_NEAR(m.at(n).get<double>(), psnr.at(n)[i].get<double>(), 5.000001e-7) << n;
    EXPECT_NEAR(m.at("float_ssim").get<double>(), ssim.at("float_ssim")[i].get<double>(), 5.000001e-7);
  }
  // Six decimals exactly, as "%.6f" prints them.
  EXPECT_TRUE(std::regex_search(text, std::regex(R"("psnr_y": \d+\.\d{6},)"))) << text.substr(0, 300);
  for (const char* n : {"psnr_y", "psnr_cb", "psnr_cr", "float_ssim"}) {
    const auto& p = j.at("pooled_metrics").at(n);
    EXPECT_EQ(p.size(), 4u) << n;
    for (const char* k : {"min", "max", "mean", "harmonic_mean"}) EXPECT_TRUE(p.at(k).is_number()) << n << " " << k;
  }
  EXPECT_NEAR(j.at("pooled_metrics").at("psnr_y").at("mean").get<double>(),
              ref.at("features").at("psnr").at("pooled").at("psnr_y").at("mean").get<double>(), 5.000001e-7);
  const auto& agg = j.at("aggregate_metrics");
  ASSERT_EQ(agg.size(), 3u);
  EXPECT_NEAR(agg.at("apsnr_y").get<double>(),
              ref.at("features").at("psnr[enable_mse,enable_apsnr]").at("aggregate").at("apsnr_y").get<double>(),
              5.000001e-7);
}

TEST_F(cli, csv_layout) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--csv", "-o", path("out.csv")});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::istringstream in(slurp(path("out.csv")));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "Frame,psnr_y,psnr_cb,psnr_cr,");
  const std::regex row(R"((\d+),(\d+\.\d{6}),(\d+\.\d{6}),(\d+\.\d{6}),)");
  const auto ref = reference("astronaut_576x324_420p8_x264crf35").at("features").at("psnr").at("metrics");
  std::size_t n = 0;
  for (std::smatch m; std::getline(in, line); ++n) {
    ASSERT_TRUE(std::regex_match(line, m, row)) << line;
    EXPECT_EQ(std::stoul(m[1]), n);
    EXPECT_NEAR(std::stod(m[2]), ref.at("psnr_y")[n].get<double>(), 5.000001e-7);
  }
  EXPECT_EQ(n, 4u);
}

TEST_F(cli, xml_is_the_default_and_keeps_inf_literally) {
  // psnr_hvs of the identical pair is inf in every frame: XML keeps it, JSON would say null.
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_ref), "--feature", "psnr", "--feature", "psnr_hvs", "-o",
                      path("out.xml")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto x = slurp(path("out.xml"));
  EXPECT_TRUE(x.starts_with("<VMAF version=\"vqm ")) << x.substr(0, 100);
  EXPECT_NE(x.find("<params qualityWidth=\"576\" qualityHeight=\"324\" />"), std::string::npos);
  EXPECT_TRUE(std::regex_search(x, std::regex(R"(<fyi fps="\d+\.\d\d" />)")));
  const std::regex frame(R"re(<frame frameNum="(\d)" psnr_y="60.000000" psnr_cb="60.000000" psnr_cr="60.000000" psnr_hvs_y="inf" psnr_hvs_cb="inf" psnr_hvs_cr="inf" psnr_hvs="inf" />)re");
  EXPECT_EQ(std::distance(std::sregex_iterator(x.begin(), x.end(), frame), std::sregex_iterator()), 4) << x;
  EXPECT_NE(x.find(R"(<metric name="psnr_hvs" min="inf" max="inf" mean="inf" harmonic_mean=")"), std::string::npos) << x;
  EXPECT_NE(x.find(R"(<metric name="psnr_y" min="60.000000" max="60.000000" mean="60.000000" harmonic_mean="60.000000" />)"),
            std::string::npos);
  EXPECT_NE(x.find("<aggregate_metrics />"), std::string::npos);
  EXPECT_TRUE(x.ends_with("</VMAF>\n"));
}

TEST_F(cli, summary_on_stdout_without_output_file) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto mean = reference("astronaut_576x324_420p8_x264crf35").at("features").at("psnr").at("pooled").at("psnr_y").at("mean");
  char want[64];
  std::snprintf(want, sizeof want, "%.6f", mean.get<double>());
  EXPECT_TRUE(std::regex_search(r.out, std::regex("psnr_y +" + std::string(want)))) << r.out << " want " << want;
  EXPECT_EQ(leftovers({}), std::vector<std::string>{});
}

TEST_F(cli, default_run_is_vmaf_as_in_libvmaf) {
  // No --model, no --feature: vmaf_v0.6.1 and its features, in libvmaf's order; --feature adds to it, and
  // the same feature twice is one instance.
  const auto r = vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--feature", "psnr", "--precision",
                      "max", "--json", "-o", path("out.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = json::parse(slurp(path("out.json")));
  const auto ref = reference_vmaf("astronaut_576x324_420p8_x264crf35").at("features").at("model[vmaf_v0.6.1]");
  std::vector<std::string> want;
  const auto ordered = nlohmann::ordered_json::parse(
      slurp(std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf/astronaut_576x324_420p8_x264crf35.json"));
  for (const auto& [name, col] : ordered.at("features").at("model[vmaf_v0.6.1]").at("metrics").items()) want.push_back(name);
  want.insert(want.end() - 3, {"psnr_y", "psnr_cb", "psnr_cr"});  // per-frame features, then motion2/3, vmaf
  const auto& frames = j.at("frames");
  ASSERT_EQ(frames.size(), 4u);
  std::vector<std::string> got;  // in the file's order
  const auto in_order = nlohmann::ordered_json::parse(slurp(path("out.json")));
  for (const auto& [name, v] : in_order.at("frames")[0].at("metrics").items()) got.push_back(name);
  EXPECT_EQ(got, want);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(json_matches(frames[i].at("metrics").at("vmaf"), ref_value(ref.at("metrics").at("vmaf")[i]))) << i;
  // -n without --feature has nothing to compute; a size VMAF's adm cannot take is one clear line.
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis)}, {"nothing to compute", "--feature"});
  expect_clean_failure({"-r", fx("chelsea_16x16_420p8_ref.y4m"), "-d", fx("chelsea_16x16_420p8_noise12.y4m")},
                       {"chelsea_16x16_420p8_ref.y4m", "adm", "33x33"});
}

// ---------------------------------------------------------------------------------------------------
// libvmaf's numbers, exactly, through the program

struct exact_case {
  std::string pair;
  std::vector<std::string> runs;  // reference feature keys run together
};

void expect_reproduces(const json& ours, const json& ref, const std::vector<std::string>& runs) {
  const auto& frames = ours.at("frames");
  ASSERT_EQ(frames.size(), ref.at("frames").get<std::size_t>());
  std::size_t compared = 0;
  for (const auto& key : runs) {
    const auto& run = ref.at("features").at(key);
    ASSERT_EQ(run.at("status"), "ok") << key;
    for (const auto& [name, col] : run.at("metrics").items()) {
      for (std::size_t i = 0; i < col.size(); ++i, ++compared)
        EXPECT_TRUE(json_matches(frames[i].at("metrics").at(name), ref_value(col[i]))) << key << " " << name << " frame " << i;
      const auto& p = run.at("pooled").at(name);
      for (const char* k : {"min", "max", "mean", "harmonic_mean"})
        EXPECT_TRUE(json_matches(ours.at("pooled_metrics").at(name).at(k), ref_value(p.at(k)))) << key << " " << name << " " << k;
    }
    if (run.contains("aggregate")) {
      for (const auto& [name, v] : run.at("aggregate").items())
        EXPECT_TRUE(json_matches(ours.at("aggregate_metrics").at(name), ref_value(v))) << name;
    }
  }
  EXPECT_GT(compared, 0u);
}

TEST_F(cli, precision_max_compat_libvmaf_reproduces_the_reference_json) {
  const std::vector<std::string> all5 = {"psnr[enable_mse,enable_apsnr]", "float_psnr", "float_ssim[enable_lcs]",
                                         "float_ms_ssim[enable_lcs]", "psnr_hvs"};
  const std::map<std::string, std::string> arg = {
      {"psnr[enable_mse,enable_apsnr]", "psnr=enable_mse=true:enable_apsnr=true"},
      {"float_psnr", "float_psnr"},
      {"float_ssim[enable_lcs]", "float_ssim=enable_lcs=true"},
      {"float_ms_ssim[enable_lcs]", "float_ms_ssim=enable_lcs=true"},
      {"psnr_hvs", "psnr_hvs"}};
  const std::vector<exact_case> cases = {
      {"astronaut_576x324_420p8_x264crf35", all5},
      {"motorcycle_183x177_420p8_onepixel", all5},  // odd size (floor chroma), inf psnr_hvs frames
      {"rocket_321x199_422p10_x264crf33", all5},    // 10-bit 4:2:2, odd width
      {"chelsea_320x180_444p12_x265crf32", all5},
      {"coffee_645x643_420p8_x264crf33", all5},     // float_ssim decimates by 3
      {"camera_576x324_gray8_x264crf35", {all5.begin(), all5.end() - 1}},  // gray: no psnr_hvs
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.pair);
    const auto ref = reference(c.pair);
    std::vector<std::string> args = {"-r", fx(ref.at("reference").at("file")), "-d", fx(ref.at("distorted").at("file")),
                                     "--precision", "max", "--compat", "libvmaf", "--json", "-o", path(c.pair + ".json")};
    for (const auto& k : c.runs) args.insert(args.end(), {"--feature", arg.at(k)});
    const auto r = vqm(args);
    ASSERT_EQ(r.rc, 0) << r.err;
    expect_reproduces(json::parse(slurp(path(c.pair + ".json"))), ref, c.runs);
  }
}

TEST_F(cli, compat_xml_keeps_nan_and_inf_exactly) {
  // cellauto 8x8: psnr_hvs chroma planes are 4x4 -> nan in libvmaf (compat), and the XML says so.
  const auto ref = reference("cellauto_8x8_420p8_noise20");
  const auto r = vqm({"-n", "-r", fx(ref.at("reference").at("file")), "-d", fx(ref.at("distorted").at("file")), "--feature",
                      "psnr_hvs", "--feature", "float_ssim", "--compat", "libvmaf", "--precision", "max", "-o",
                      path("out.xml")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto x = slurp(path("out.xml"));
  const std::regex attr(R"re((\w+)="([^"]*)")re");
  std::size_t frame = 0, checked = 0;
  std::istringstream in(x);
  for (std::string line; std::getline(in, line);) {
    if (line.find("<frame ") == std::string::npos) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), attr), end; it != end; ++it) {
      const auto name = (*it)[1].str();
      if (name == "frameNum") continue;
      const auto& run = ref.at("features").at(name == "float_ssim" ? "float_ssim" : "psnr_hvs").at("metrics");
      EXPECT_PRED2(same, std::strtod((*it)[2].str().c_str(), nullptr), ref_value(run.at(name)[frame])) << name << " " << frame;
      ++checked;
    }
    ++frame;
  }
  EXPECT_EQ(frame, 4u);
  EXPECT_EQ(checked, 4u * 5u);
  // printf spelling, as libvmaf's XML: 0/0 on x86 is a negative NaN, printed "-nan".
  EXPECT_TRUE(std::regex_search(x, std::regex(R"(psnr_hvs_cb="-?nan")"))) << x;
}

// ---------------------------------------------------------------------------------------------------
// Flags


TEST_F(cli, subsample_measures_every_nth_frame_and_apsnr_still_covers_all) {
  const std::string r1 = fx("rocket_177x99_420p8_ref.y4m"), d1 = fx("rocket_177x99_420p8_noise10.y4m");
  auto run = [&](std::vector<std::string> extra, const std::string& out) {
    std::vector<std::string> a = {"-r", r1, "-d", d1, "--feature", "psnr=enable_apsnr=true", "--feature", "float_ssim",
                                  "--precision", "max", "--compat", "libvmaf", "--json", "-o", path(out)};
    a.insert(a.end(), extra.begin(), extra.end());
    const auto r = vqm(a);
    EXPECT_EQ(r.rc, 0) << r.err;
    return json::parse(slurp(path(out)));
  };
  const auto all = run({}, "all.json");
  const auto sub = run({"--subsample", "3"}, "sub.json");
  ASSERT_EQ(all.at("frames").size(), 8u);
  ASSERT_EQ(sub.at("frames").size(), 3u);  // frames 0, 3, 6
  std::vector<double> ys;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(sub.at("frames")[k].at("frameNum"), 3 * k);
    EXPECT_EQ(sub.at("frames")[k].at("metrics"), all.at("frames")[3 * k].at("metrics"));
    ys.push_back(sub.at("frames")[k].at("metrics").at("psnr_y").get<double>());
  }
  EXPECT_EQ(sub.at("pooled_metrics").at("psnr_y").at("mean").get<double>(), (ys[0] + ys[1] + ys[2]) / 3.0);
  EXPECT_EQ(sub.at("pooled_metrics").at("psnr_y").at("max").get<double>(), *std::max_element(ys.begin(), ys.end()));
  // APSNR is temporal: every frame counts, subsampled or not (libvmaf runs psnr on all frames).
  EXPECT_EQ(sub.at("aggregate_metrics"), all.at("aggregate_metrics"));
  const auto ref = reference("rocket_177x99_420p8_noise10").at("features").at("psnr[enable_mse,enable_apsnr]");
  EXPECT_TRUE(json_matches(sub.at("aggregate_metrics").at("apsnr_y"), ref.at("aggregate").at("apsnr_y").get<double>()));
}

TEST_F(cli, frame_cnt_limits_the_frames) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--frame_cnt", "2", "--json", "-o",
                      path("out.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = json::parse(slurp(path("out.json")));
  ASSERT_EQ(j.at("frames").size(), 2u);
  EXPECT_EQ(j.at("frames")[1].at("frameNum"), 1);
}

TEST_F(cli, threads_give_the_same_numbers) {
  // VMAF (default model: motion is temporal) next to the other metrics, with and without --subsample.
  auto run = [&](const char* threads, const std::string& out, const char* subsample = "1") {
    const auto r = vqm({"-r", fx("motorcycle_183x177_420p8_ref.y4m"), "-d", fx("motorcycle_183x177_420p8_vp9crf40.y4m"),
                        "--feature", "psnr=enable_apsnr=true", "--feature", "float_ms_ssim", "--feature", "psnr_hvs",
                        "--threads", threads, "--subsample", subsample, "--precision", "max", "--json", "-o", path(out)});
    EXPECT_EQ(r.rc, 0) << r.err;
    auto j = json::parse(slurp(path(out)));
    j.erase("fps");
    return j;
  };
  const auto one = run("1", "t1.json");
  const auto two = run("2", "t2.json");
  const auto four = run("4", "t4.json");
  EXPECT_EQ(one.at("frames").size(), 6u);
  EXPECT_EQ(one, two);
  EXPECT_EQ(one, four);
  EXPECT_EQ(run("1", "s1.json", "2"), run("3", "s3.json", "2"));
  // Subsampling reports every 2nd frame but motion still sees every frame: the reported values are those of
  // the full run.
  const auto sub = run("2", "s2.json", "2");
  for (const auto& f : sub.at("frames")) {
    const auto i = f.at("frameNum").get<std::size_t>();
    EXPECT_EQ(i % 2, 0u);
    for (const char* n : {"integer_motion2", "integer_motion3", "vmaf", "integer_adm2"})
      EXPECT_EQ(f.at("metrics").at(n), one.at("frames")[i].at("metrics").at(n)) << n << " frame " << i;
  }
}

TEST_F(cli, raw_yuv_input_gives_the_y4m_numbers) {
  // Strip the Y4M framing: what is left is the raw planar file (ceil chroma for odd sizes).
  auto strip = [](const std::string& y4m, std::size_t frame_bytes) {
    std::string raw;
    std::size_t pos = y4m.find('\n') + 1;
    while (pos < y4m.size()) {
      pos = y4m.find('\n', pos) + 1;
      raw += y4m.substr(pos, frame_bytes);
      pos += frame_bytes;
    }
    return raw;
  };
  const std::size_t fb = 321 * 199 * 2 + 2 * 161 * 199 * 2;  // 10-bit 4:2:2, odd width
  spit(path("ref.yuv"), strip(slurp(fx("rocket_321x199_422p10_ref.y4m")), fb));
  spit(path("dis.yuv"), strip(slurp(fx("rocket_321x199_422p10_x264crf33.y4m")), fb));
  const auto a = vqm({"-n", "-r", path("ref.yuv"), "-d", path("dis.yuv"), "-w", "321", "-h", "199", "-p", "422", "-b", "10",
                      "--feature", "psnr", "--feature", "psnr_hvs", "--precision", "max", "--json", "-o", path("raw.json")});
  ASSERT_EQ(a.rc, 0) << a.err;
  const auto b = vqm({"-n", "-r", fx("rocket_321x199_422p10_ref.y4m"), "-d", fx("rocket_321x199_422p10_x264crf33.y4m"),
                      "--feature", "psnr", "--feature", "psnr_hvs", "--precision", "max", "--json", "-o", path("y4m.json")});
  ASSERT_EQ(b.rc, 0) << b.err;
  auto ja = json::parse(slurp(path("raw.json"))), jb = json::parse(slurp(path("y4m.json")));
  ja.erase("fps");
  jb.erase("fps");
  EXPECT_EQ(ja.at("frames").size(), 3u);
  EXPECT_EQ(ja, jb);
}

TEST_F(cli, precision_digits_and_stdout_output) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--precision", "4", "--csv", "-o", "-"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n0,35\.25,41\.55,43\.52,\n)"))) << r.out;
}

TEST_F(cli, version_and_help) {
  auto r = vqm({"--version"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(r.out.starts_with("vqm ")) << r.out;
  r = vqm({"--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("-h,--height"), std::string::npos) << r.out;  // -h is the height, as in libvmaf
}

// --help's coverage table: every libvmaf 3.2 extractor and built-in model, each with the status the registry
// and the built-in model list give (a registered feature is "exact" on the Cpu backend, others "not yet").
TEST_F(cli, help_lists_libvmaf_coverage) {
  const auto r = vqm({"--help"});
  ASSERT_EQ(r.rc, 0) << r.err;
  for (std::string_view n : {"psnr", "float_psnr", "float_ansnr", "float_ssim", "float_ms_ssim", "psnr_hvs", "ciede",
                             "adm", "vif", "motion", "float_adm", "float_vif", "float_motion", "float_moment",
                             "cambi", "speed_chroma", "speed_temporal"}) {
    const bool registered = std::find(vqm::metric_names.begin(), vqm::metric_names.end(), n) != vqm::metric_names.end();
    const std::regex line("\\n  " + std::string(n) + " +Cpu: " + (registered ? "exact" : "not yet") + " +Vulkan: ");
    EXPECT_TRUE(std::regex_search(r.out, line)) << n << "\n" << r.out;
  }
  for (const char* m : {"vmaf_v0.6.1", "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3", "vmaf_v1.0.16_hfr_1d5h_2160"})
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n  model " + std::string(m) + " +built in, Cpu: exact +Vulkan: ")))
        << m;
  // adm, vif and motion; float_adm, float_vif and float_motion; cambi, speed_chroma, adm and motion: on every
  // backend built
  for (const char* m : {"vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_float_v0.6.1", "vmaf_float_b_v0.6.3", "vmaf_v1.0.16_3d0h",
                        "vmaf_v1.0.16_hfr_1d5h_2160"})
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n  model " + std::string(m) + " +built in, Cpu: exact +Vulkan: (exact|not in this build)\\n")))
        << m << "\n" << r.out;
}

// --feature help: every registered feature's outputs and its option table (names, defaults, ranges, suffix).
TEST_F(cli, feature_help_lists_outputs_and_options) {
  const auto r = vqm({"--feature", "help"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, vqm::feature_reference());
  for (const char* s : {"adm: integer_adm2", "adm_enhn_gain_limit", "double, default 100, [1, 100]", "_egl",
                        "float_moment: float_moment_ref1st", "min_sse"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST_F(cli, backends) {
  auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--backend", "auto"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("psnr_y"), std::string::npos);
#if !VQM_CLI_HAS_VULKAN
  EXPECT_NE(r.err.find("built without the Vulkan backend; using the CPU"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--backend", "vulkan"},
                       {"built without the Vulkan backend; use --backend cpu"});
#else
  // Without a loader: --backend vulkan is a clean error naming the fix, auto falls back with one line.
  ::setenv("VQM_VULKAN_LOADER", "/nonexistent/libvulkan.so.1", 1);
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--backend", "vulkan"},
                       {"no Vulkan loader", "--backend cpu"});
  r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--backend", "auto"});
  ::unsetenv("VQM_VULKAN_LOADER");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("cpu backend"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("using the CPU"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // With a device (lavapipe in CI): --backend vulkan gives the Cpu backend's numbers to the last bit.
  const std::vector<std::string> five = {"-n", "--feature", "psnr", "--feature", "float_psnr", "--feature", "float_ssim",
                                         "--feature", "float_ms_ssim", "--feature", "psnr_hvs"};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), five.begin(), five.end());
    return a;
  };
  const auto cpu = vqm(with({"-r", fx(ast_ref), "-d", fx(ast_dis), "--backend", "cpu", "--precision", "max", "--json", "-o", "-"}));
  const auto gpu = vqm(with({"-r", fx(ast_ref), "-d", fx(ast_dis), "--backend", "vulkan", "--precision", "max", "--json", "-o", "-"}));
  ASSERT_EQ(cpu.rc, 0) << cpu.err;
  if (gpu.rc != 0 && gpu.err.find("Vulkan is not available") != std::string::npos) GTEST_SKIP() << "no Vulkan device: " << gpu.err;
  ASSERT_EQ(gpu.rc, 0) << gpu.err;
  auto strip_run_info = [](std::string j) {  // the fps line differs between runs
    const auto a = j.find("\"fps\"");
    return a == std::string::npos ? j : j.erase(a, j.find('\n', a) - a);
  };
  EXPECT_EQ(strip_run_info(cpu.out), strip_run_info(gpu.out));
#endif
}

}  // namespace
