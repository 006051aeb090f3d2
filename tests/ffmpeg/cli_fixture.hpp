// The vqm program run on FFmpeg-decoded input: a work folder per test, runs through bash (pipes, process
// substitution), the JSON scores of a run, and the contract for bad input. Shared by the vqm::ffmpeg tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/process.hpp"
#include "ffmpeg/media.hpp"

namespace vqm::test {

class ffmpeg_cli : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = work / (std::string(info->test_suite_name()) + "." + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::string args_line(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) (s += ' ') += quote(a);  // not " " + string: GCC 12 -O3 false -Wrestrict
    return s;
  }

  // `prefix` + vqm + args (+ `suffix`), through bash.
  result vqm(const std::vector<std::string>& args, const std::string& prefix = "", const std::string& suffix = "") const {
    return bash(prefix + quote(VQM_CLI_PATH) + args_line(args) + suffix, dir_);
  }

  // The JSON output of a run, without its timing ("fps").
  nlohmann::json scores(const std::vector<std::string>& args, const std::string& prefix = "", const std::string& suffix = "") {
    const auto out = path("out" + std::to_string(runs_++) + ".json");
    auto full = args;
    full.insert(full.end(), {"--precision", "max", "--json", "-q", "-o", out});
    const auto r = vqm(full, prefix, suffix);
    EXPECT_EQ(r.rc, 0) << r.err;
    if (r.rc != 0 || !std::filesystem::exists(out)) return nlohmann::json();
    auto j = nlohmann::json::parse(slurp(out));
    j.erase("fps");
    return j;
  }

  // The contract for bad input: non-zero exit, no crash, one line on stderr naming each of `expect`,
  // no output file.
  void expect_clean_failure(const std::string& prefix, const std::vector<std::string>& args,
                            const std::vector<std::string>& expect, const std::vector<std::string>& absent = {}) {
    auto full = args;
    const auto out = path("bad.json");
    full.insert(full.end(), {"--no_prediction", "--feature", "psnr", "--json", "-o", out});
    std::vector<std::filesystem::path> before;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) before.push_back(e.path());
    const auto r = vqm(full, prefix);
    EXPECT_NE(r.rc, 0) << r.err;
    EXPECT_LT(r.rc, 128) << "crashed: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("vqm: error: ")) << r.err;
    for (const auto& e : expect) EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
    for (const auto& e : absent) EXPECT_EQ(r.err.find(e), std::string::npos) << "unexpected '" << e << "' in: " << r.err;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      EXPECT_TRUE(e.path().filename().string().ends_with(".txt") ||
                  std::find(before.begin(), before.end(), e.path()) != before.end())
          << "left behind: " << e.path() << " (" << r.err << ")";
  }

  std::filesystem::path dir_;
  int runs_ = 0;
};

}  // namespace vqm::test
