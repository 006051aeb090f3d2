// The `vqm` program run as a child process: a fresh work folder per test, captured stdout/stderr, the
// reference values libvmaf recorded, and the contract every bad input must meet (shared by the CLI tests).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "common/process.hpp"

namespace cli_test {

namespace fs = std::filesystem;
using nlohmann::json;

inline const std::string fixtures = VQM_FIXTURE_DIR;
inline const std::string refdir = std::string(VQM_TEST_DATA_DIR) + "/reference";

inline std::string fx(const std::string& name) { return fixtures + "/" + name; }

using vqm::test::quote;
using vqm::test::result;
using vqm::test::slurp;
using vqm::test::spit;

// A fresh folder per test under the build tree; broken inputs and outputs go there.
class cli_fixture : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(VQM_CLI_WORK_DIR) / (std::string(info->test_suite_name()) + "." + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  result vqm(const std::vector<std::string>& args) const {
    std::string cmd = quote(VQM_CLI_PATH);
    for (const auto& a : args) (cmd += ' ') += quote(a);  // not " " + string: GCC 12 -O3 false -Wrestrict
    cmd += " >" + quote(path("stdout.txt")) + " 2>" + quote(path("stderr.txt")) + " </dev/null";
    const int status = std::system(cmd.c_str());
    result r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(path("stdout.txt"));
    r.err = slurp(path("stderr.txt"));
    return r;
  }

  // Files in the work folder other than the captured streams (what a failed run must not leave).
  std::vector<std::string> leftovers(const std::vector<std::string>& keep) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const auto name = e.path().filename().string();
      if (name == "stdout.txt" || name == "stderr.txt") continue;
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) out.push_back(name);
    }
    return out;
  }

  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    return out;
  }

  // The contract for every bad input: non-zero exit, no crash, exactly one line on stderr that
  // contains each of `expect`, and no new file (output or temp) left in the work folder.
  void expect_clean_failure(const std::vector<std::string>& args, const std::vector<std::string>& expect) {
    auto full = args;
    full.insert(full.end(), {"--json", "-o", path("out.json")});
    auto before = files();
    const auto r = vqm(full);
    EXPECT_NE(r.rc, 0) << r.err;
    EXPECT_LT(r.rc, 128) << "crashed: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("vqm: error: ")) << r.err;
    for (const auto& e : expect) EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
    for (const auto& f : files())
      if (f != "stdout.txt" && f != "stderr.txt") {
        EXPECT_NE(std::find(before.begin(), before.end(), f), before.end()) << "left behind: " << f << " (" << r.err << ")";
      }
  }

  fs::path dir_;
};

inline json reference(const std::string& pair) { return json::parse(slurp(refdir + "/" + pair + ".json")); }
inline json reference_vmaf(const std::string& pair) {
  return json::parse(slurp(std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf/" + pair + ".json"));
}

inline double ref_value(const json& v) {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    return s == "inf" ? INFINITY : s == "-inf" ? -INFINITY : NAN;
  }
  return v.get<double>();
}

inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Our JSON value (null for inf/nan, as libvmaf) against libvmaf's full-precision value.
inline ::testing::AssertionResult json_matches(const json& ours, double want) {
  if (!std::isfinite(want)) {
    if (ours.is_null()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected null for " << want << ", got " << ours.dump();
  }
  if (!ours.is_number()) return ::testing::AssertionFailure() << "expected " << want << ", got " << ours.dump();
  const double v = ours.get<double>();
  if (same(v, want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::setprecision(17) << "got " << v << ", libvmaf " << want;
}

inline const std::string ast_ref = "astronaut_576x324_420p8_ref.y4m";
inline const std::string ast_dis = "astronaut_576x324_420p8_x264crf35.y4m";

}  // namespace cli_test
