// The compiled library's light API (vqm/cpu_session.hpp) against what it wraps: cpu_session's table equals
// session<Cpu>'s (every name, frame, value, aggregate and clip state, ==), its on_frame rows the table's,
// and cpu_metric's values compute()'s, on libvmaf's reference pairs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu_session.hpp"
#include "vqm/metric_set.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm::test;

constexpr const char* pairs[] = {"astronaut_576x324_420p8_x264crf35", "rocket_576x324_420p10_x264crf35"};

TEST(CpuSession, TableEqualsSessionOfCpu) {
  for (const char* pair : pairs) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& frames = frames_of(j);
    const auto& ref = frames.first;
    const auto& dis = frames.second;
    ASSERT_FALSE(ref.empty()) << pair;
    const auto f = ref.front().format();

    const vqm::cpu_session_config light{.models = {"vmaf_v0.6.1", "version=vmaf_v0.6.1neg:name=neg"},
                                        .features = {"psnr", "float_ssim=enable_db=true"},
                                        .mode = vqm::compat::libvmaf,
                                        .depth = 2,
                                        .threads = 2};
    vqm::cpu_session a(f, light);
    std::vector<std::vector<double>> streamed;
    a.on_frame([&](const vqm::frame_scores& s) { streamed.emplace_back(s.values.begin(), s.values.end()); });

    vqm::Cpu cpu(2);
    vqm::session_config cfg;
    for (const auto& m : light.models) cfg.models.push_back(vqm::vmaf::load_model(m));
    for (const auto& q : light.features) cfg.features.push_back(vqm::parse_feature_request(q));
    cfg.mode = light.mode;
    cfg.depth = light.depth;
    vqm::session<vqm::Cpu> b(cpu, f, cfg);
    EXPECT_EQ(a.feature_names(), b.feature_names()) << pair;
    EXPECT_EQ(a.depth(), b.depth()) << pair;

    for (std::size_t i = 0; i < ref.size(); ++i) {
      a.push(ref[i], dis[i]);
      b.push(ref[i], dis[i]);
    }
    const auto ta = a.finish();
    const auto tb = b.finish();
    EXPECT_EQ(ta.names, tb.names) << pair;
    EXPECT_EQ(ta.frames, tb.frames) << pair;
    EXPECT_EQ(ta.rows, tb.rows) << pair;  // vector<vector<double>>: every value with ==
    EXPECT_EQ(ta.aggregate, tb.aggregate) << pair;
    EXPECT_EQ(ta.frames_pushed, tb.frames_pushed) << pair;
    EXPECT_EQ(ta.clip_states, tb.clip_states) << pair;
    EXPECT_EQ(streamed, ta.rows) << pair;
    ASSERT_EQ(ta.rows.size(), ref.size()) << pair;
    EXPECT_TRUE(ta.find("vmaf") && ta.find("neg") && ta.find("psnr_y")) << pair;
  }
}

TEST(CpuMetric, ValuesEqualCompute) {
  const auto j = load_json(vmaf_reference_dir() + "/" + pairs[1] + ".json");
  const auto& frames = frames_of(j);
  const auto& ref = frames.first;
  const auto& dis = frames.second;
  ASSERT_FALSE(ref.empty());
  const auto f = ref.front().format();
  vqm::Cpu cpu;
  const vqm::Psnr<vqm::Cpu> psnr(f);
  vqm::cpu_metric light("psnr", f);
  EXPECT_EQ(light.names(), psnr.names());
  vqm::cpu_metric ssim("float_ssim=enable_db=true", f, vqm::compat::libvmaf);
  const auto q = vqm::parse_feature_request("float_ssim=enable_db=true");
  const auto typed_ssim = vqm::make_metric<vqm::Cpu>(q.name, q.options, f, vqm::compat::libvmaf);
  EXPECT_EQ(ssim.names(), typed_ssim.names());
  vqm::scorer<vqm::Cpu> one(cpu, [&] {
    std::vector<vqm::any_metric<vqm::Cpu>> v;
    v.push_back(vqm::make_metric<vqm::Cpu>(q.name, q.options, f, vqm::compat::libvmaf));
    return v;
  }(), vqm::compat::libvmaf);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(light.compute(ref[i], dis[i]), vqm::compute(cpu, psnr, ref[i], dis[i])) << "frame " << i;
    auto r = one.push(ref[i], dis[i]);
    if (!r) r = one.pop();
    ASSERT_TRUE(r) << "frame " << i;
    EXPECT_EQ(ssim.compute(ref[i], dis[i]), r->values) << "frame " << i;
  }
  EXPECT_THROW(vqm::cpu_metric("no_such_feature", f), vqm::error);
}

TEST(CpuSession, BadConfigThrows) {
  const vqm::picture_format f{64, 48, vqm::chroma_format::yuv420, 8};
  EXPECT_THROW(vqm::cpu_session(f, {.models = {"vmaf_v9"}}), vqm::error);
  EXPECT_THROW(vqm::cpu_session(f, {.features = {"no_such_feature"}}), vqm::error);
}

}  // namespace VQM_TEST_UNIT
