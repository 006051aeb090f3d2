// Bit-exact agreement with libvmaf: every feature run of every reference pair, on the Cpu backend in
// compat::libvmaf mode, per-frame values, pooled statistics and APSNR compared with ==.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "common/reference_data.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/pooling.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

struct reference_case {
  std::string pair;
  std::string feature;  // key in "features", e.g. "psnr[enable_mse,enable_apsnr]"
};

// Short test labels in ctest ("pair feature") instead of a byte dump.
void PrintTo(const reference_case& c, std::ostream* os) { *os << c.pair << " " << c.feature; }

std::vector<reference_case> all_cases() {
  std::vector<reference_case> out;
  for (const auto& pair : reference_pairs()) {
    const auto j = load_json(reference_dir() + "/" + pair + ".json");
    for (const auto& [key, run] : j.at("features").items()) out.push_back({pair, key});
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<reference_case>& info) {
  std::string s = info.param.pair + "__" + info.param.feature;
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

class reference_test : public testing::TestWithParam<reference_case> {};

TEST_P(reference_test, matches_libvmaf_bit_exactly) {
  const auto& param = GetParam();
  const auto j = load_json(reference_dir() + "/" + param.pair + ".json");
  const auto& run = j.at("features").at(param.feature);
  const auto [name, opts] = split_feature_args(run.at("cli_args").get<std::string>());
  const auto& [ref, dis] = frames_of(j);
  ASSERT_FALSE(ref.empty());
  ASSERT_EQ(ref.size(), dis.size());
  ASSERT_EQ(ref.size(), j.at("frames").get<std::size_t>());
  const auto format = ref.front().format();
  const auto options = option_map::parse(opts);

  const auto status = run.at("status").get<std::string>();
  if (status != "ok") {
    // libvmaf fails (error) or refuses (rejected): so must we, up front, with errc::unsupported_format.
    try {
      (void)make_metric<Cpu>(name, options, format, compat::libvmaf);
      FAIL() << param.feature << " on " << describe(format) << " was accepted; libvmaf: " << status;
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::unsupported_format) << e.what();
    }
    return;
  }

  Cpu cpu;
  std::vector<any_metric<Cpu>> metrics;
  metrics.push_back(make_metric<Cpu>(name, options, format, compat::libvmaf));
  scorer<Cpu> sc(cpu, std::move(metrics), compat::libvmaf);
  std::vector<frame_result> results;
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (auto r = sc.push(ref[i], dis[i])) results.push_back(std::move(*r));
  while (auto r = sc.pop()) results.push_back(std::move(*r));
  ASSERT_EQ(results.size(), ref.size());

  const auto& expected = run.at("metrics");
  std::set<std::string> want, have(sc.names().begin(), sc.names().end());
  for (const auto& [k, v] : expected.items()) want.insert(k);
  EXPECT_EQ(have, want) << "output names differ";

  for (std::size_t k = 0; k < sc.names().size(); ++k) {
    const auto& out = sc.names()[k];
    if (!expected.contains(out)) continue;
    const auto& col = expected.at(out);
    ASSERT_EQ(col.size(), results.size()) << out;
    std::vector<double> mine;
    for (std::size_t i = 0; i < results.size(); ++i) {
      const double e = to_double(col[i]), v = results[i].values[k];
      EXPECT_PRED2(same, v, e) << out << " frame " << i << ": got " << std::hexfloat << v << ", libvmaf " << e;
      mine.push_back(v);
    }
    // Pooling: our io::pool over our values against libvmaf's pooled_metrics.
    if (run.contains("pooled") && run.at("pooled").contains(out)) {
      const auto& p = run.at("pooled").at(out);
      const auto got = io::pool(mine);
      EXPECT_PRED2(same, got.min, to_double(p.at("min"))) << out << " pooled min";
      EXPECT_PRED2(same, got.max, to_double(p.at("max"))) << out << " pooled max";
      EXPECT_PRED2(same, got.mean, to_double(p.at("mean"))) << out << " pooled mean";
      EXPECT_PRED2(same, got.harmonic_mean, to_double(p.at("harmonic_mean"))) << out << " pooled harmonic_mean";
    }
  }

  // Aggregates (apsnr_*): every value libvmaf reported must be there and equal.
  if (run.contains("aggregate")) {
    const auto agg = sc.aggregate();
    for (const auto& [k, v] : run.at("aggregate").items()) {
      const auto& key = k;  // Clang 14 cannot capture a structured binding
      const auto it = std::find_if(agg.begin(), agg.end(), [&](const auto& a) { return a.first == key; });
      ASSERT_NE(it, agg.end()) << "missing aggregate " << k;
      EXPECT_PRED2(same, it->second, to_double(v)) << k;
    }
  } else {
    EXPECT_TRUE(sc.aggregate().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(libvmaf, reference_test, testing::ValuesIn(all_cases()), case_name);

// The reference set itself: every pair has its fixtures and every pooled block is covered above.
TEST(reference_data, every_pair_has_fixtures_and_runs) {
  const auto pairs = reference_pairs();
  EXPECT_GE(pairs.size(), 26u);
  std::size_t ok_runs = 0;
  for (const auto& p : pairs) {
    const auto j = load_json(reference_dir() + "/" + p + ".json");
    EXPECT_TRUE(std::filesystem::exists(fixture(j.at("reference").at("file").get<std::string>()))) << p;
    EXPECT_TRUE(std::filesystem::exists(fixture(j.at("distorted").at("file").get<std::string>()))) << p;
    for (const auto& [k, run] : j.at("features").items()) ok_runs += run.at("status") == "ok";
  }
  EXPECT_GT(ok_runs, 250u);
}

}  // namespace
}  // namespace vqm::test
