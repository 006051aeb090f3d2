// One reference, many distorted: `vqm -r ref -d a -d b -o x -o y` writes, for each distorted, the bytes a
// run of its own pair writes (XML and JSON, VMAF + psnr + float_ssim, on every backend; the fps figure
// aside), or without -o a summary of each under its path; -o not paired with the -d, frame counts and
// formats that differ are one-line errors naming the distorted concerned, and a failure leaves no output.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "cli_fixture.hpp"
#include "common/test_namespace.hpp"

namespace cli_test {
namespace VQM_TEST_UNIT {

class cli_multi : public cli_fixture {};

std::vector<std::string> backends() {
  std::vector<std::string> b{"cpu"};
  if (VQM_CLI_HAS_VULKAN) b.emplace_back("vulkan");  // lavapipe in CI
  return b;
}

const std::string rref = "rocket_177x99_420p8_ref.y4m";
const std::vector<std::string> rdis = {"rocket_177x99_420p8_x264crf35.y4m", "rocket_177x99_420p8_noise10.y4m", rref};

// The report without its timing (the only figure that differs between two runs).
std::string without_fps(const std::string& s) {
  return std::regex_replace(s, std::regex(R"(fps(=\"|\": )[0-9.a-z]+)"), "fps=...");
}

// A copy of fixture `name` (177x99 4:2:0 8-bit) with only its first `frames` frames.
std::string first_frames(const std::string& name, std::size_t frames, const std::string& to) {
  const std::string all = slurp(fx(name));
  const std::size_t header = all.find('\n') + 1, frame = 6 + 177 * 99 + 2 * 89 * 50;
  spit(to, all.substr(0, header + frames * frame));
  return to;
}

TEST_F(cli_multi, each_output_equals_a_run_of_its_own_pair) {
  const std::vector<std::vector<std::string>> flag_sets = {
      {"--feature", "psnr", "--feature", "float_ssim"},
      {"--feature", "psnr", "--feature", "float_ssim", "--precision", "max", "--subsample", "2", "--frame_skip_ref",
       "1", "--frame_skip_dist", "1", "--threads", "2"}};
  for (const auto& backend : backends())
    for (const std::string format : {"--xml", "--json"})
      for (const auto& flags : flag_sets) {
        std::vector<std::string> multi{"-r", fx(rref), "--backend", backend, format, "-q"};
        multi.insert(multi.end(), flags.begin(), flags.end());
        for (std::size_t k = 0; k < rdis.size(); ++k) multi.insert(multi.end(), {"-d", fx(rdis[k])});
        for (std::size_t k = 0; k < rdis.size(); ++k) multi.insert(multi.end(), {"-o", path("multi" + std::to_string(k))});
        const auto r = vqm(multi);
        ASSERT_EQ(r.rc, 0) << r.err;
        for (std::size_t k = 0; k < rdis.size(); ++k) {
          std::vector<std::string> one{"-r", fx(rref), "-d", fx(rdis[k]), "--backend", backend, format, "-q", "-o",
                                       path("one")};
          one.insert(one.end(), flags.begin(), flags.end());
          const auto s = vqm(one);
          ASSERT_EQ(s.rc, 0) << s.err;
          const auto want = slurp(path("one")), got = slurp(path("multi" + std::to_string(k)));
          EXPECT_NE(want.find("vmaf"), std::string::npos);
          EXPECT_EQ(without_fps(got), without_fps(want)) << backend << " " << format << " distorted " << rdis[k];
        }
      }
}

TEST_F(cli_multi, without_output_a_summary_of_each_under_its_path) {
  const auto r = vqm({"-r", fx(rref), "-d", fx(rdis[0]), "-d", fx(rdis[1]), "-n", "--feature", "psnr", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::string want;
  for (std::size_t k = 0; k < 2; ++k) {
    const auto s = vqm({"-r", fx(rref), "-d", fx(rdis[k]), "-n", "--feature", "psnr", "-q"});
    ASSERT_EQ(s.rc, 0) << s.err;
    want += (k ? "\ndistorted " : "distorted ") + fx(rdis[k]) + ":\n" + s.out;
  }
  EXPECT_EQ(r.out, want);
}

TEST_F(cli_multi, outputs_must_pair_with_the_distorted) {
  // expect_clean_failure adds one -o.
  expect_clean_failure({"-r", fx(rref), "-d", fx(rdis[0]), "-d", fx(rdis[1])},
                       {"2 -d/--distorted but 1 -o/--output", "one -o per -d, paired in order"});
  expect_clean_failure({"-r", fx(rref), "-d", fx(rdis[0]), "-o", path("other.json")},
                       {"1 -d/--distorted but 2 -o/--output"});
  const auto r = vqm({"-r", fx(rref), "-d", fx(rdis[0]), "-d", fx(rdis[1]), "-o", path("x"), "-o", path("x")});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("is given twice"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers({}).empty());
}

TEST_F(cli_multi, a_frame_count_mismatch_names_the_distorted_and_leaves_no_output) {
  const auto short_dis = first_frames(rdis[1], 5, path("short.y4m"));
  for (const auto& order : {std::vector<std::string>{fx(rdis[0]), short_dis}, std::vector<std::string>{short_dis, fx(rdis[0])}}) {
    expect_clean_failure({"-r", fx(rref), "-d", order[0], "-d", order[1], "-o", path("a.json")},
                         {"reference " + fx(rref) + " has 8 frames but distorted " + short_dis + " has 5 frames"});
    EXPECT_EQ(leftovers({"short.y4m"}), std::vector<std::string>{});
  }
  // The same message as the pair alone.
  const auto one = vqm({"-r", fx(rref), "-d", short_dis});
  const auto two = vqm({"-r", fx(rref), "-d", fx(rdis[0]), "-d", short_dis});
  EXPECT_EQ(one.rc, 1);
  EXPECT_EQ(two.err, one.err);
}

TEST_F(cli_multi, a_format_mismatch_names_the_distorted) {
  const std::string other = fx("rocket_321x199_422p10_x264crf33.y4m");
  expect_clean_failure({"-r", fx(rref), "-d", fx(rdis[0]), "-d", other, "-o", path("a.json")},
                       {"distorted " + other + " is "});
}

// Every output's temp exists while the run does, and SIGTERM removes them all.
TEST_F(cli_multi, sigterm_removes_every_temp) {
  const auto fifo = path("in.y4m");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::vector<std::string> args = {"-r", fifo, "-d", fifo, "-d", fifo, "-d", fifo, "-o", path("a.json"),
                                         "-o", path("b.json"), "-o", path("c.json"), "--json", "-q"};
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    std::vector<char*> argv{const_cast<char*>(VQM_CLI_PATH)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(VQM_CLI_PATH, argv.data());
    ::_exit(127);
  }
  const auto temps = [&] { return leftovers({"in.y4m"}); };
  std::vector<std::string> seen;
  for (int i = 0; i < 200 && seen.size() < 3; ++i) {  // up to 10 s for the program to start
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = temps();
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_EQ(seen.size(), 3u) << "one temp per output while the run waits for its input";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(temps(), std::vector<std::string>{}) << "a temp outlived SIGTERM";
}

}  // namespace
}  // namespace cli_test
