// session's results as a library user reads them: the pooled values of score_table against libvmaf's
// pooled_metrics (tests/data/reference-vmaf), compared with ==, and the opt-in statistics; VMAF and NEG in
// one run against their separate runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/pooling.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm::test;

TEST(VmafSession, PooledValuesEqualLibvmaf) {
  for (const char* pair : {"astronaut_576x324_420p8_x264crf35", "rocket_576x324_420p10_x264crf35"}) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [ref, dis] = frames_of(j);
    ASSERT_FALSE(ref.empty()) << pair;
    vqm::Cpu cpu;
    vqm::session_config cfg;
    cfg.models.push_back(vqm::vmaf::builtin_model("vmaf_v0.6.1"));
    cfg.mode = vqm::compat::libvmaf;
    vqm::session<vqm::Cpu> s(cpu, ref.front().format(), cfg);
    for (std::size_t i = 0; i < ref.size(); ++i) s.push(ref[i], dis[i]);
    const auto t = s.finish();
    const auto& want = j.at("features").at("model[vmaf_v0.6.1]").at("pooled");
    for (const char* name : {"vmaf", "integer_adm2", "integer_motion2", "integer_vif_scale0"}) {
      const auto p = t.pooled(name);
      const auto& w = want.at(name);
      EXPECT_EQ(p.min, to_double(w.at("min"))) << pair << " " << name;
      EXPECT_EQ(p.max, to_double(w.at("max"))) << pair << " " << name;
      EXPECT_EQ(p.mean, to_double(w.at("mean"))) << pair << " " << name;
      EXPECT_EQ(p.harmonic_mean, to_double(w.at("harmonic_mean"))) << pair << " " << name;
    }
    // --pool's statistics through the same call, in the order asked for.
    const auto stats = vqm::io::parse_pool_statistics("harmonic_mean,p50,stddev");
    const auto v = t.pooled("vmaf", stats);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0], to_double(want.at("vmaf").at("harmonic_mean")));
    auto sorted = t.column("vmaf");
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(v[1], vqm::io::percentile_of_sorted(sorted, 50));
    EXPECT_EQ(v[2], vqm::io::stddev(t.column("vmaf")));
    EXPECT_THROW((void)t.pooled("no_such_series"), vqm::error);
  }
}

// VMAF and NEG in one run share their VIF pass on the Cpu backend (vif_engine joins the two gain limits):
// the table equals the two models' separate runs, value for value, and libvmaf's per-frame scores.
TEST(VmafSession, VmafAndNegInOneRunEqualTheirSeparateRuns) {
  for (const char* pair : {"astronaut_576x324_420p8_x264crf35", "rocket_576x324_420p10_x264crf35"}) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& frames = frames_of(j);  // not a structured binding: Clang 14 cannot capture one in a lambda
    const auto& ref = frames.first;
    const auto& dis = frames.second;
    ASSERT_FALSE(ref.empty()) << pair;
    vqm::Cpu cpu;
    const auto run = [&](const std::vector<const char*>& specs) {
      vqm::session_config cfg;
      for (const char* m : specs) cfg.models.push_back(vqm::vmaf::load_model(m));
      cfg.mode = vqm::compat::libvmaf;
      vqm::session<vqm::Cpu> s(cpu, ref.front().format(), cfg);
      for (std::size_t i = 0; i < ref.size(); ++i) s.push(ref[i], dis[i]);
      return s.finish();
    };
    const auto both = run({"version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg:name=vmaf_neg"});
    const auto vmaf = run({"version=vmaf_v0.6.1"});
    const auto neg = run({"version=vmaf_v0.6.1neg:name=vmaf_neg"});
    std::size_t compared = 0;
    for (const auto* alone : {&vmaf, &neg})
      for (const auto& name : alone->names) {
        ASSERT_TRUE(both.find(name)) << pair << " " << name;
        EXPECT_EQ(both.column(name), alone->column(name)) << pair << " " << name;
        ++compared;
      }
    EXPECT_GE(compared, 2u * 8);
    for (const auto& [model, series] : {std::pair{"vmaf_v0.6.1", "vmaf"}, std::pair{"vmaf_v0.6.1neg", "vmaf_neg"}}) {
      const auto& want = j.at("features").at(std::string("model[") + model + "]").at("metrics").at("vmaf");
      const auto got = both.column(series);
      ASSERT_EQ(got.size(), want.size()) << pair << " " << model;
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], to_double(want.at(i))) << pair << " " << model << " frame " << i;
    }
  }
}

}  // namespace VQM_TEST_UNIT
