// The "do no harm" suites' fixture (test_do_no_harm*.cpp): runs the built vqm in a work folder of its own
// per test, with stdout and stderr captured, and checks one-line errors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "common/process.hpp"
#include "common/sanitizers.hpp"

namespace harm_test {

namespace fs = std::filesystem;

inline const std::string fixtures = VQM_FIXTURE_DIR;
inline std::string fx(const std::string& name) { return fixtures + "/" + name; }
inline const std::string ast_ref = fx("astronaut_576x324_420p8_ref.y4m");
inline const std::string ast_dis = fx("astronaut_576x324_420p8_x264crf35.y4m");
inline const std::string r10_ref = fx("rocket_576x324_420p10_ref.y4m");

using vqm::test::quote;
using vqm::test::result;
using vqm::test::slurp;
using vqm::test::spit;

inline std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

using vqm::test::asan;

class harm : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(VQM_CLI_WORK_DIR) / (std::string("harm.") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::string command(const std::vector<std::string>& args) {
    std::string cmd = quote(VQM_CLI_PATH);
    for (const auto& a : args) (cmd += ' ') += quote(a);  // not " " + string: GCC 12 -O3 false -Wrestrict
    return cmd;
  }

  // Runs `prefix vqm args` with stdout to `stdout_to` (a file of the work folder by default).
  result vqm(const std::vector<std::string>& args, const std::string& stdout_to = "", const std::string& prefix = "") const {
    const std::string out = stdout_to.empty() ? path("stdout.txt") : stdout_to;
    const std::string cmd = prefix + " " + command(args) + " >" + quote(out) + " 2>" + quote(path("stderr.txt")) + " </dev/null";
    const int status = std::system(cmd.c_str());
    result r;
    r.rc = vqm::test::exit_status(status);
    if (stdout_to.empty()) r.out = slurp(out);
    r.err = slurp(path("stderr.txt"));
    return r;
  }

  // Non-zero exit, no crash, one line on stderr containing each of `expect`.
  void expect_error(const result& r, const std::vector<std::string>& expect) const {
    EXPECT_NE(r.rc, 0) << r.err;
    EXPECT_LT(r.rc, 128) << "crashed: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("vqm: error: ")) << r.err;
    for (const auto& e : expect) EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
  }

  std::vector<std::string> temps() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const auto n = e.path().filename().string();
      if (n.find(".vqm-") != std::string::npos || n.find(".tmp") != std::string::npos) out.push_back(n);
    }
    return out;
  }

  fs::path dir_;
};

// --no_prediction: PSNR alone, without the default VMAF model (faster, and on every backend).
const std::vector<std::string> psnr_json = {"--feature", "psnr", "--no_prediction", "--json"};
inline std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The arguments with "--feature psnr --json" appended.
inline std::vector<std::string> J(std::vector<std::string> a) { return a + psnr_json; }

inline bool is_report(const std::string& s) { return s.starts_with("{") && s.find("\"psnr_y\"") != std::string::npos; }

}  // namespace harm_test
