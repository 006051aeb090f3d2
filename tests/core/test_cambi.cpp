// cambi: option parsing and output names (libvmaf's suffix rules, hrs kept in the name of a small input),
// refusals (sizes libvmaf rejects or reads outside, heatmaps_path, bad eotf), and the v1 models' cambi
// values (cambi_high_res_speedup=1080, cambi_vis_lum_threshold=0.06, cambi_max_val=17) against the
// reference-vmaf-v1 model runs. The plain, full_ref and eotf=pq runs are checked by backend_reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "common/six_digit_runs.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

picture_format luma(std::uint32_t w, std::uint32_t h, std::uint32_t bpc = 8) {
  return {w, h, chroma_format::yuv420, bpc};
}

std::vector<std::string> names(const std::string& opts, const picture_format& f = luma(576, 324)) {
  return make_metric<Cpu>("cambi", option_map::parse(opts), f, compat::libvmaf).names();
}

std::string why(const std::string& opts, const picture_format& f) {
  return cambi_algorithm::unsupported(f, parse_options<cambi_options>(option_map::parse(opts)));
}

TEST(cambi, output_names_follow_libvmafs_suffix_rules) {
  EXPECT_EQ(names(""), std::vector<std::string>{"cambi"});
  // Sorted by full option name; %g values; the name is fixed before hrs is reset for this 576x324 input.
  EXPECT_EQ(names("cambi_vis_lum_threshold=0.06:cambi_max_val=17.0:cambi_high_res_speedup=1080"),
            std::vector<std::string>{"cambi_hrs_1080_cmxv_17_vlt_0.06"});
  EXPECT_EQ(names("eotf=pq"), std::vector<std::string>{"cambi_eotf_pq"});
  EXPECT_EQ(names("cambi_eotf=pq"), std::vector<std::string>{"cambi_ceot_pq"});
  EXPECT_EQ(names("topk=0.5:window_size=33:max_log_contrast=3:tvi_threshold=0.02"),
            std::vector<std::string>{"cambi_mlc_3_topk_0.5_tvit_0.02_ws_33"});
  EXPECT_EQ(names("enc_width=400:enc_height=300:enc_bitdepth=10:src_width=480:src_height=320"),
            std::vector<std::string>{"cambi_encbd_10_ench_300_encw_400_srch_320_srcw_480"});
  EXPECT_EQ(names("eotf=bt1886:cambi_topk=0.6"), std::vector<std::string>{"cambi"});  // defaults: no suffix
  // full_ref is not a feature parameter; its extra outputs never carry a suffix.
  EXPECT_EQ(names("full_ref=true:cambi_max_val=5"),
            (std::vector<std::string>{"cambi_cmxv_5", "cambi_source", "cambi_full_reference"}));
}

TEST(cambi, options_are_checked_as_libvmaf_declares_them) {
  const auto o = parse_options<cambi_options>(option_map::parse("eotf=pq:window_size=15:cambi_topk=1"));
  EXPECT_EQ(o.eotf, "pq");
  EXPECT_EQ(o.window_size, 15);
  EXPECT_EQ(o.cambi_topk, 1.0);
  for (const char* bad : {"eotf=hlg", "cambi_eotf=PQ", "window_size=13", "window_size=129", "topk=0",
                          "cambi_max_val=1001", "max_log_contrast=6", "cambi_high_res_speedup=2161", "full_ref=1",
                          "enc_width=179", "src_height=4321"}) {
    try {
      (void)parse_options<cambi_options>(option_map::parse(bad));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string("cambi option ") + bad), std::string::npos) << e.what();
    }
  }
  const auto info = describe_options<cambi_options>();
  const auto eotf = std::find_if(info.begin(), info.end(), [](const auto& i) { return i.name == "eotf"; });
  ASSERT_NE(eotf, info.end());
  EXPECT_EQ(eotf->type, "string");
  EXPECT_EQ(eotf->default_value, "bt1886");
  EXPECT_EQ(eotf->range, "bt1886, pq");
}

TEST(cambi, refuses_what_libvmaf_refuses_or_reads_outside) {
  // Both sides below 216: libvmaf's init fails (176x176, 183x177, 177x99 in the references).
  for (auto f : {luma(176, 176, 16), luma(183, 177), luma(177, 99), luma(16, 16)})
    EXPECT_NE(why("", f).find("at least 216"), std::string::npos) << f.width << "x" << f.height;
  EXPECT_EQ(why("", luma(320, 180, 12)), "");  // one side is enough
  EXPECT_EQ(why("", luma(216, 100)), "");
  EXPECT_NE(why("enc_width=200:enc_height=200", luma(576, 324)).find("at least 216"), std::string::npos);
  EXPECT_NE(why("src_width=640:src_height=200", luma(576, 324)).find("wider and shorter"), std::string::npos);
  EXPECT_NE(why("heatmaps_path=/tmp/x", luma(576, 324)).find("not implemented"), std::string::npos);
  // 4000x216: window 45 (pad 22), the last scale is 250x14: libvmaf reads outside the picture.
  EXPECT_NE(why("", luma(4000, 216)).find("reads outside"), std::string::npos);
  EXPECT_EQ(why("", luma(1920, 216)), "");
  // A window above 65 samples overflows libvmaf's reciprocal table.
  EXPECT_NE(why("window_size=127", luma(3840, 2160)).find("above libvmaf's limit"), std::string::npos);
  EXPECT_EQ(why("window_size=127:cambi_high_res_speedup=2160", luma(3840, 2160)), "");
  EXPECT_THROW((void)make_metric<Cpu>("cambi", {}, luma(183, 177)), error);
}

TEST(cambi, out_of_range_samples_are_a_frame_error) {
  picture ref(luma(320, 216, 10)), dis(ref.format());
  for (std::uint32_t y = 0; y < 216; ++y)
    for (std::uint32_t x = 0; x < 320; ++x) ref.row<std::uint16_t>(0, y)[x] = dis.row<std::uint16_t>(0, y)[x] = 512;
  dis.row<std::uint16_t>(0, 7)[9] = 1024;
  Cpu cpu;
  std::vector<any_metric<Cpu>> m;
  m.push_back(make_metric<Cpu>("cambi", {}, ref.format()));
  scorer<Cpu> sc(cpu, std::move(m), compat::none, 1);
  try {
    (void)sc.push(ref, dis);
    while (sc.pop()) {
    }
    ADD_FAILURE() << "a 10-bit sample of 1024 was accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds 10-bit range"), std::string::npos) << e.what();
  }
}

// The v1.0.16 models' cambi (their option set, the name included) against every model run libvmaf finished;
// the runs it refused are refused. The values are the same in the eight models: the first one is used.
TEST(cambi, v1_model_options_match_libvmaf) {
  const std::string dir = std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf-v1";
  const auto opts = option_map::parse("cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17");
  Cpu cpu;
  std::size_t compared = 0, refused = 0;
  for (const auto& pair : reference_pairs(dir)) {
    const auto j = load_json(dir + "/" + pair + ".json");
    const auto& run = j.at("features").at("model[vmaf_v1.0.16_3d0h]");
    const auto& [ref, dis] = frames_of(j);
    const auto format = ref.front().format();
    if (run.at("status").get<std::string>() != "ok") {
      // The model fails for CAMBI's sizes; other failures (none today) would not be cambi's to refuse.
      EXPECT_FALSE(cambi_algorithm::unsupported(format, parse_options<cambi_options>(opts)).empty()) << pair;
      ++refused;
      continue;
    }
    std::vector<any_metric<Cpu>> m;
    m.push_back(make_metric<Cpu>("cambi", opts, format, compat::libvmaf));
    const auto name = m.front().names().at(0);
    ASSERT_EQ(name, "cambi_hrs_1080_cmxv_17_vlt_0.06");
    const auto& want = run.at("metrics").at(name);
    scorer<Cpu> sc(cpu, std::move(m), compat::libvmaf, 1);
    std::vector<frame_result> got;
    for (std::size_t i = 0; i < ref.size(); ++i)
      if (auto r = sc.push(ref[i], dis[i])) got.push_back(std::move(*r));
    while (auto r = sc.pop()) got.push_back(std::move(*r));
    ASSERT_EQ(got.size(), want.size()) << pair;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_PRED2(same, got[i].values[0], to_double(want[i])) << pair << " frame " << i;
      ++compared;
    }
  }
  if (!std::getenv("VQM_TEST_PAIRS")) {
    EXPECT_GE(compared, 50u);
    EXPECT_GE(refused, 3u);
  }
  std::printf("[ cambi ] %zu v1 values compared, %zu refused runs\n", compared, refused);
}

// Options no reference JSON has a run of (enc_/src_ decimation, windows, topk, contrasts, thresholds, pq with
// vlt): libvmaf's own output at its %.6f (tests/data/cambi_options.json), names included.
TEST(cambi, options_match_libvmafs_six_digit_output) {
  EXPECT_EQ(compare_six_digit_runs("cambi", "cambi_options.json"), 68u);
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
