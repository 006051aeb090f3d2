// SPEC §8.1 conformance vectors V1–V7 on the Cpu backend: the synthetic generator, all five metrics,
// every listed value compared exactly (the SPEC's 17-digit values are libvmaf's doubles).
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "cpu/synthetic.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

struct expected {
  const char* name;
  std::uint32_t frame;
  double value;
};

struct vector_case {
  const char* id;
  vqm::picture_format format;
  std::uint32_t frames;
  bool identical;
  std::vector<expected> values;
  std::vector<std::pair<const char*, double>> aggregates;  // printed with 6 decimals
};

void PrintTo(const vector_case& v, std::ostream* os) { *os << v.id << " " << vqm::describe(v.format); }

constexpr double inf = std::numeric_limits<double>::infinity();

// Runs every metric the format supports with the generation options of SPEC §8.1 (compat::libvmaf).
struct run_result {
  std::vector<std::map<std::string, double>> frames;
  std::map<std::string, double> aggregates;
};

run_result run(const vector_case& v, unsigned threads = 1) {
  vqm::Cpu cpu(threads);
  const auto c = vqm::compat::libvmaf;
  std::vector<vqm::any_metric<vqm::Cpu>> metrics;
  metrics.push_back(vqm::make_metric<vqm::Cpu>("psnr", {{"enable_mse", "true"}, {"enable_apsnr", "true"}}, v.format, c));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_psnr", {}, v.format, c));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_ssim", {{"enable_lcs", "true"}}, v.format, c));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_ms_ssim", {{"enable_lcs", "true"}}, v.format, c));
  if (v.format.bit_depth <= 12) metrics.push_back(vqm::make_metric<vqm::Cpu>("psnr_hvs", {}, v.format, c));
  vqm::scorer<vqm::Cpu> s(cpu, std::move(metrics), c, threads);
  std::vector<vqm::picture> refs, dists;
  for (std::uint32_t f = 0; f < v.frames; ++f) {
    refs.push_back(vqm::test::synthetic_picture(v.format, f, false));
    dists.push_back(vqm::test::synthetic_picture(v.format, f, !v.identical));
  }
  run_result out;
  auto take = [&](const vqm::frame_result& r) {
    out.frames.resize(r.index + 1);
    for (std::size_t i = 0; i < s.names().size(); ++i) out.frames[r.index][s.names()[i]] = r.values[i];
  };
  for (std::uint32_t f = 0; f < v.frames; ++f)
    if (auto r = s.push(refs[f], dists[f])) take(*r);
  while (auto r = s.pop()) take(*r);
  for (const auto& [k, val] : s.aggregate()) out.aggregates[k] = val;
  return out;
}

using F = vqm::picture_format;
using CF = vqm::chroma_format;

std::vector<vector_case> vectors() {
  std::vector<vector_case> v;
  v.push_back({"V1", F{320, 240, CF::yuv420, 8}, 2, false,
               {{"psnr_y", 0, 35.027115300848884}, {"psnr_y", 1, 32.095928827093303},
                {"psnr_cb", 0, 35.026525908635492}, {"psnr_cb", 1, 32.035721032623492},
                {"psnr_cr", 0, 34.988597173349191}, {"psnr_cr", 1, 32.087046622215759},
                {"mse_y", 0, 20.4347265625}, {"mse_y", 1, 40.131692708333333},
                {"float_psnr", 0, 35.027115300848884}, {"float_psnr", 1, 32.095928827093303},
                {"float_ssim", 0, 0.97756242752075195}, {"float_ssim", 1, 0.95648753643035889},
                {"float_ssim_l", 0, 0.99990564584732056}, {"float_ssim_l", 1, 0.9998621940612793},
                {"float_ssim_c", 0, 0.99876683950424194}, {"float_ssim_c", 1, 0.99719053506851196},
                {"float_ssim_s", 0, 0.97880816459655762}, {"float_ssim_s", 1, 0.95918238162994385},
                {"float_ms_ssim", 0, 0.99811421784693022}, {"float_ms_ssim", 1, 0.99622365719112282},
                // scale 0 of MS-SSIM is float_ssim's l/c/s (float_ssim runs at s = 1 here)
                {"float_ms_ssim_l_scale0", 0, 0.99990564584732056}, {"float_ms_ssim_l_scale0", 1, 0.9998621940612793},
                {"float_ms_ssim_c_scale0", 0, 0.99876683950424194}, {"float_ms_ssim_c_scale0", 1, 0.99719053506851196},
                {"float_ms_ssim_s_scale0", 0, 0.97880816459655762}, {"float_ms_ssim_s_scale0", 1, 0.95918238162994385},
                {"float_ms_ssim_l_scale1", 0, 0.9999687671661377}, {"float_ms_ssim_l_scale1", 1, 0.99996250867843628},
                {"float_ms_ssim_c_scale1", 0, 0.99988913536071777}, {"float_ms_ssim_c_scale1", 1, 0.99981921911239624},
                {"float_ms_ssim_s_scale1", 0, 0.99786388874053955}, {"float_ms_ssim_s_scale1", 1, 0.99541217088699341},
                {"float_ms_ssim_l_scale2", 0, 0.9999808669090271}, {"float_ms_ssim_l_scale2", 1, 0.9999803900718689},
                {"float_ms_ssim_c_scale2", 0, 0.99996984004974365}, {"float_ms_ssim_c_scale2", 1, 0.99995630979537964},
                {"float_ms_ssim_s_scale2", 0, 0.99947977066040039}, {"float_ms_ssim_s_scale2", 1, 0.99905377626419067},
                {"float_ms_ssim_l_scale3", 0, 0.99998211860656738}, {"float_ms_ssim_l_scale3", 1, 0.99998188018798828},
                {"float_ms_ssim_c_scale3", 0, 0.9999968409538269}, {"float_ms_ssim_c_scale3", 1, 0.99999308586120605},
                {"float_ms_ssim_s_scale3", 0, 0.99979770183563232}, {"float_ms_ssim_s_scale3", 1, 0.99965256452560425},
                {"float_ms_ssim_l_scale4", 0, 0.99998188018798828}, {"float_ms_ssim_l_scale4", 1, 0.99998176097869873},
                {"float_ms_ssim_c_scale4", 0, 0.99999409914016724}, {"float_ms_ssim_c_scale4", 1, 0.99998629093170166},
                {"float_ms_ssim_s_scale4", 0, 0.99990004301071167}, {"float_ms_ssim_s_scale4", 1, 0.99969768524169922},
                {"psnr_hvs_y", 0, 42.292567378881706}, {"psnr_hvs_y", 1, 39.54181279385508},
                {"psnr_hvs_cb", 0, 41.604931295905025}, {"psnr_hvs_cb", 1, 39.212190200349397},
                {"psnr_hvs_cr", 0, 40.775367540585812}, {"psnr_hvs_cr", 1, 38.696955545408905},
                {"psnr_hvs", 0, 42.043730660398815}, {"psnr_hvs", 1, 39.416140059452275}},
               {{"apsnr_y", 33.318785}, {"apsnr_cb", 33.278600}, {"apsnr_cr", 33.299881}}});
  v.push_back({"V2", F{1280, 720, CF::yuv420, 8}, 1, false,
               {{"psnr_y", 0, 35.017985476281922}, {"psnr_cb", 0, 35.014368528763768},
                {"psnr_cr", 0, 35.012739080517584}, {"mse_y", 0, 20.477730034722221},
                {"float_psnr", 0, 35.017985476281922}, {"float_ssim", 0, 0.99904847145080566},
                {"float_ssim_l", 0, 0.99997794628143311}, {"float_ssim_c", 0, 0.99994820356369019},
                {"float_ssim_s", 0, 0.9991222620010376}, {"float_ms_ssim", 0, 0.99819808712298008},
                {"float_ms_ssim_l_scale0", 0, 0.99990856647491455}, {"float_ms_ssim_c_scale0", 0, 0.9989592432975769},
                {"float_ms_ssim_s_scale0", 0, 0.98082101345062256}, {"float_ms_ssim_l_scale4", 0, 0.99998074769973755},
                {"float_ms_ssim_c_scale4", 0, 0.99999654293060303}, {"float_ms_ssim_s_scale4", 0, 0.99992436170578003},
                {"psnr_hvs_y", 0, 42.491118571095697}, {"psnr_hvs_cb", 0, 41.694915336464092},
                {"psnr_hvs_cr", 0, 41.004652928886543}, {"psnr_hvs", 0, 42.234228266982747}},
               {}});
  v.push_back({"V3", F{640, 480, CF::yuv422, 10}, 1, false,
               {{"psnr_y", 0, 35.052572177903748}, {"psnr_cb", 0, 35.055018730287387},
                {"psnr_cr", 0, 35.043545572768132}, {"mse_y", 0, 326.95956705729168},
                {"float_psnr", 0, 35.052572177903748}, {"float_ssim", 0, 0.99746870994567871},
                {"float_ssim_l", 0, 0.9999690055847168}, {"float_ssim_c", 0, 0.99987077713012695},
                {"float_ssim_s", 0, 0.99762839078903198}, {"float_ms_ssim", 0, 0.9981966815904284},
                {"float_ms_ssim_l_scale0", 0, 0.99991005659103394}, {"float_ms_ssim_c_scale0", 0, 0.99890410900115967},
                {"float_ms_ssim_s_scale0", 0, 0.98038005828857422}, {"float_ms_ssim_l_scale4", 0, 0.99998146295547485},
                {"float_ms_ssim_c_scale4", 0, 0.9999961256980896}, {"float_ms_ssim_s_scale4", 0, 0.99992197751998901},
                {"psnr_hvs_y", 0, 42.890335740848613}, {"psnr_hvs_cb", 0, 41.976917793071557},
                {"psnr_hvs_cr", 0, 41.334559493388674}, {"psnr_hvs", 0, 42.610779520119152}},
               {}});
  v.push_back({"V4", F{400, 300, CF::yuv444, 12}, 1, false,
               {{"psnr_y", 0, 35.064403656451717}, {"psnr_cb", 0, 35.044917082538106},
                {"psnr_cr", 0, 35.047372715164322}, {"mse_y", 0, 5224.7732416666668},
                {"float_psnr", 0, 35.064403656451717}, {"float_ssim", 0, 0.97828274965286255},
                {"float_ssim_l", 0, 0.9999086856842041}, {"float_ssim_c", 0, 0.99880623817443848},
                {"float_ssim_s", 0, 0.97949105501174927}, {"float_ms_ssim", 0, 0.99815393888363824},
                {"float_ms_ssim_l_scale4", 0, 0.99998217821121216}, {"float_ms_ssim_c_scale4", 0, 0.99999600648880005},
                {"float_ms_ssim_s_scale4", 0, 0.99989485740661621}, {"psnr_hvs_y", 0, 42.805198587245314},
                {"psnr_hvs_cb", 0, 41.945990502890382}, {"psnr_hvs_cr", 0, 41.287500616796684},
                {"psnr_hvs", 0, 42.53697724111391}},
               {}});
  v.push_back({"V5", F{256, 192, CF::yuv420, 16}, 1, false,
               {{"psnr_y", 0, 35.046947323729349}, {"psnr_cb", 0, 35.056584404699407},
                {"psnr_cr", 0, 35.026991001958621}, {"mse_y", 0, 1343543.9423217773},
                {"float_psnr", 0, 35.046947323729349}, {"float_ssim", 0, 0.97659945487976074},
                {"float_ssim_l", 0, 0.9999040961265564}, {"float_ssim_c", 0, 0.99870008230209351},
                {"float_ssim_s", 0, 0.97790545225143433}, {"float_ms_ssim", 0, 0.9980752400212789}},
               {}});
  {
    vector_case v6{"V6", F{320, 240, CF::yuv420, 8}, 1, true, {}, {{"apsnr_y", 100}, {"apsnr_cb", 94}, {"apsnr_cr", 94}}};
    for (const char* n : {"psnr_y", "psnr_cb", "psnr_cr", "float_psnr"}) v6.values.push_back({n, 0, 60.0});
    for (const char* n : {"mse_y", "mse_cb", "mse_cr"}) v6.values.push_back({n, 0, 0.0});
    for (const char* n : {"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", "float_ms_ssim"})
      v6.values.push_back({n, 0, 1.0});
    for (const char* n : {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}) v6.values.push_back({n, 0, inf});
    v.push_back(std::move(v6));
  }
  v.push_back({"V7", F{333, 197, CF::yuv420, 8}, 1, false,
               {{"psnr_y", 0, 35.033614133917673}, {"float_psnr", 0, 35.033614133917673},
                {"float_ssim", 0, 0.97747105360031128}, {"float_ssim_l", 0, 0.99990534782409668},
                {"float_ssim_c", 0, 0.99875694513320923}, {"float_ssim_s", 0, 0.9787258505821228},
                {"float_ms_ssim", 0, 0.99811383550703403}, {"psnr_hvs_y", 0, 42.391567406082757},
                // libvmaf's floor chroma dims (166x98), i.e. compat::libvmaf
                {"psnr_cb", 0, 35.026698988644767}, {"psnr_cr", 0, 34.982911555687096},
                {"psnr_hvs_cb", 0, 41.615732503405106}, {"psnr_hvs_cr", 0, 40.85591882182996},
                {"psnr_hvs", 0, 42.130414958925087}},
               {}});
  return v;
}

class Conformance : public ::testing::TestWithParam<vector_case> {};

TEST_P(Conformance, EveryListedValueIsExact) {
  const auto& v = GetParam();
  const auto got = run(v);
  ASSERT_EQ(got.frames.size(), v.frames);
  for (const auto& e : v.values) {
    const auto& frame = got.frames.at(e.frame);
    const auto it = frame.find(e.name);
    ASSERT_NE(it, frame.end()) << v.id << ": no output " << e.name;
    EXPECT_EQ(it->second, e.value) << v.id << " frame " << e.frame << " " << e.name << ": got "
                                   << testing::PrintToString(it->second) << std::setprecision(17) << " = " << it->second;
  }
  for (const auto& [name, value] : v.aggregates) {
    ASSERT_TRUE(got.aggregates.count(name)) << v.id << ": no aggregate " << name;
    EXPECT_NEAR(got.aggregates.at(name), value, 5e-7) << v.id << " " << name;
  }
}

TEST(Conformance, IdenticalInputGivesOneForEveryMsSsimScale) {
  // V6: "all SSIM/MS-SSIM outputs 1", including the 15 per-scale values.
  const auto v = vectors()[5];
  ASSERT_STREQ(v.id, "V6");
  const auto got = run(v);
  int seen = 0;
  for (const auto& [name, value] : got.frames.at(0))
    if (name.rfind("float_ms_ssim_", 0) == 0) {
      EXPECT_EQ(value, 1.0) << name;
      ++seen;
    }
  EXPECT_EQ(seen, 15);
}

INSTANTIATE_TEST_SUITE_P(Spec81, Conformance, ::testing::ValuesIn(vectors()),
                         [](const auto& info) { return std::string(info.param.id); });

}  // namespace
