// Issue #25, item 10 (the smaller cases): messages that name the right fix, numbers on the command line,
// resource limits, and help text that cannot be written. Each test failed on the code before the fix.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "common/sanitizers.hpp"

namespace {

using namespace cli_test;

using vqm::test::asan;

class harm_args : public cli_fixture {
 protected:
  // Runs `prefix; vqm args` through bash; stdout and stderr to the usual files unless `redirects` says.
  result sh(const std::string& prefix, const std::vector<std::string>& args, const std::string& redirects = "") const {
    std::string cmd = quote(VQM_CLI_PATH);
    for (const auto& a : args) (cmd += ' ') += quote(a);
    // The redirections outside bash -c: under `ulimit -n` bash could not open them.
    const std::string out = redirects.empty() ? " >" + quote(path("stdout.txt")) + " 2>" + quote(path("stderr.txt"))
                                              : " " + redirects + " 2>" + quote(path("stderr.txt"));
    const int status = std::system(("bash -c " + quote(prefix + "; exec " + cmd) + " </dev/null" + out).c_str());
    result r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(path("stdout.txt"));
    r.err = slurp(path("stderr.txt"));
    return r;
  }
};

TEST_F(harm_args, a_chroma_mismatch_names_a_conversion_not_scale) {
  expect_clean_failure({"-r", fx("astronaut_576x324_444p8_ref.y4m"), "-d", fx(ast_dis)},
                       {"4:4:4", "4:2:0", "same chroma format", "-pix_fmt"});
  const auto r = vqm({"-r", fx("astronaut_576x324_444p8_ref.y4m"), "-d", fx(ast_dis)});
  EXPECT_EQ(r.err.find("--scale"), std::string::npos) << r.err;
  // A size mismatch still names --scale.
  expect_clean_failure({"-r", fx(ast_ref), "-d", fx("rocket_177x99_420p8_ref.y4m")}, {"--scale"});
}

TEST_F(harm_args, open_errors_name_their_cause) {
  const std::string long_name = path(std::string(300, 'a') + ".y4m");
  expect_clean_failure({"-r", fx(ast_ref), "-d", long_name}, {"the path is too long"});
}

TEST_F(harm_args, too_many_open_files_is_named) {
  if (asan) GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own: it cannot run under ulimit -n 4";
  // Too many open files: descriptors inherited from the test runner closed, ulimit -n leaves room for
  // fds 0-2 and the reference only.
  const std::string close_inherited =
      "for f in /proc/$$/fd/*; do n=${f##*/}; if [ \"$n\" -gt 2 ]; then eval \"exec $n>&-\"; fi; done";
  const auto r = sh(close_inherited + "; ulimit -n 4", {"-r", fx(ast_ref), "-d", fx(ast_dis), "-n", "--feature", "psnr"});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("too many files open (raise the limit: ulimit -n)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("permissions"), std::string::npos) << r.err;
}

TEST_F(harm_args, a_memory_limit_is_named) {
  if (asan) GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: it cannot run under ulimit -v";
  // 2160p at 16 threads needs ~1 GB of frames in flight: under a 400 MB address-space limit some allocation
  // or thread fails, which must be named as such.
  const auto r = sh("ulimit -v 400000", {"-r", fx(ast_ref), "-d", fx(ast_dis), "--threads", "64"});
  if (r.rc == 0) GTEST_SKIP() << "the run fit in 400 MB here";
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("ulimit -v"), std::string::npos) << r.err;
}

TEST_F(harm_args, numbers_are_decimal_digits) {
  const std::vector<std::string> base{"-r", fx(ast_ref), "-d", fx(ast_dis), "-n", "--feature", "psnr"};
  const std::vector<std::pair<std::string, std::string>> bad{
      {"--threads", "0x10"}, {"--threads", ""},    {"--frame_cnt", "010"}, {"--subsample", "+2"},
      {"--gpu-id", "-2"},    {"--gpu-id", "0x1"}, {"-w", " 16"},         {"-b", "0x8"}};
  for (const auto& [flag, value] : bad) {
    auto args = base;
    args.insert(args.end(), {flag, value});
    const auto r = vqm(args);
    EXPECT_EQ(r.rc, 2) << flag << " '" << value << "': " << r.err;
    EXPECT_TRUE(r.err.starts_with("vqm: error: ")) << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
  }
  auto ok = base;
  ok.insert(ok.end(), {"--threads", "2", "--frame_cnt", "3"});
  EXPECT_EQ(vqm(ok).rc, 0);
}

TEST_F(harm_args, a_feature_given_twice_is_computed_once_with_a_note) {
  const auto r = vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-n", "--feature", "psnr", "--feature", "psnr", "--json",
                      "-o", path("out.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("vqm: note: --feature psnr is given twice; it is computed once"), std::string::npos) << r.err;
  const auto out = slurp(path("out.json"));
  std::size_t keys = 0;  // 4 frames and the pooled entry, not twice each
  for (auto p = out.find("\"psnr_y\""); p != std::string::npos; p = out.find("\"psnr_y\"", p + 1)) ++keys;
  EXPECT_EQ(keys, 5u) << out;
}

TEST_F(harm_args, help_that_cannot_be_written_is_an_error) {
  auto r = sh("true", {"--help"}, ">/dev/full");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("vqm: error: stdout: cannot write output"), std::string::npos) << r.err;
  r = sh("true", {"--version"}, ">/dev/full");
  EXPECT_EQ(r.rc, 1);
  r = vqm({"--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("--reference"), std::string::npos);
}

}  // namespace
