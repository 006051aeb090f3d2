// Options no %.17g reference covers, checked against libvmaf's stock CLI, which prints %.6f: a JSON file of
// runs {reference, distorted, options, frames: [{output name: value}]} (tests/data/*_options.json), each
// scored by the Cpu backend with libvmaf's compat and compared at six decimals, output names exactly.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/cpu.hpp"

namespace vqm::test {

[[nodiscard]] inline std::string six_digits(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Every run of `json_file` (in VQM_TEST_DATA_DIR) through `feature` with the run's options plus `extra`
// (e.g. ":adm_rcp=amd"); returns how many values were compared.
inline std::size_t compare_six_digit_runs(const std::string& feature, const std::string& json_file,
                                          const std::string& extra = {}) {
  const auto j = load_json(std::string(VQM_TEST_DATA_DIR) + "/" + json_file);
  Cpu cpu;
  std::size_t compared = 0;
  for (const auto& run : j.at("runs")) {
    const auto ref = read_all(fixture(run.at("reference").get<std::string>()));
    const auto dis = read_all(fixture(run.at("distorted").get<std::string>()));
    const auto opts = run.at("options").get<std::string>() + extra;
    std::vector<any_metric<Cpu>> m;
    m.push_back(make_metric<Cpu>(feature, option_map::parse(opts), ref.front().format(), compat::libvmaf));
    const auto names = m.front().names();
    scorer<Cpu> sc(cpu, std::move(m), compat::libvmaf);
    const auto& frames = run.at("frames");
    std::vector<frame_result> results;
    for (std::size_t i = 0; i < frames.size(); ++i)
      if (auto r = sc.push(ref[i], dis[i])) results.push_back(std::move(*r));
    while (auto r = sc.pop()) results.push_back(std::move(*r));
    EXPECT_EQ(results.size(), frames.size()) << opts;
    for (std::size_t i = 0; i < frames.size() && i < results.size(); ++i) {
      std::set<std::string> want, have(names.begin(), names.end());
      for (const auto& [k, v] : frames[i].items()) want.insert(k);
      EXPECT_EQ(have, want) << feature << "=" << opts << " frame " << i;
      for (std::size_t k = 0; k < names.size(); ++k) {
        if (!frames[i].contains(names[k])) continue;
        EXPECT_EQ(six_digits(results[i].values[k]), six_digits(frames[i].at(names[k]).get<double>()))
            << feature << "=" << opts << " " << names[k] << " frame " << i;
        ++compared;
      }
    }
  }
  return compared;
}

}  // namespace vqm::test
