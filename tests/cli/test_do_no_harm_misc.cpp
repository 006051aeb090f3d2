// Issue #12, "Do no harm", items 6 (negative numbers for unsigned flags) and 7 (the smaller ones).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "vqm/feature/options.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/metrics/psnr.hpp"

#include "cli/harm_fixture.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace harm_test;
namespace fs = std::filesystem;
using vqm::test::asan;

// ---------------------------------------------------------------------------------------------------
// 6. Negative numbers for unsigned flags

TEST_F(harm, negative_numbers_are_rejected) {
  for (const auto& flag : {std::vector<std::string>{"--frame_cnt", "-1"},
                           std::vector<std::string>{"--frame_cnt", "-18446744073709551615"},
                           std::vector<std::string>{"--subsample", "-1"}, std::vector<std::string>{"--threads", "-2"}}) {
    const auto r = vqm(std::vector<std::string>{"-r", ast_ref, "-d", ast_dis} + flag + psnr_json);
    expect_error(r, {flag[0], "negative"});
    EXPECT_EQ(r.rc, 2);
  }
  spit(path("a.yuv"), std::string(384, '\0'));
  expect_error(vqm(J({"-r", path("a.yuv"), "-d", path("a.yuv"), "-w", "-16", "-h", "16", "-p", "420", "-b", "8"})),
               {"-w", "negative"});
}

// ---------------------------------------------------------------------------------------------------
// 7. The smaller ones

TEST_F(harm, stale_temps_of_a_killed_run_are_removed) {
  const auto stale = path(".out.json.vqm-Ab3dE9"), live = path(".out.json.vqm-Zz9yX8"), other = path(".x.json.vqm-Ab3dE9");
  for (const auto& p : {stale, live, other}) {
    spit(p, "{ partial");
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(2));
  }
  const int held = ::open(live.c_str(), O_RDONLY);  // a run still writing it holds its lock
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", path("out.json")}));
  ::close(held);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale)) << "a stale temp stayed";
  EXPECT_TRUE(fs::exists(live)) << "a locked (live) temp was removed";
  EXPECT_TRUE(fs::exists(other)) << "another target's temp was removed";
}

TEST_F(harm, white_space_after_the_last_frame_is_the_end_of_the_file) {
  spit(path("nl.y4m"), slurp(ast_dis) + "\n");
  auto r = vqm({"-r", ast_ref, "-d", path("nl.y4m"), "--feature", "psnr", "--no_prediction"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("4 frames"), std::string::npos) << r.out;
  spit(path("junk.y4m"), slurp(ast_dis) + "junk\n");  // anything else is still an error
  expect_error(vqm(J({"-r", ast_ref, "-d", path("junk.y4m")})), {path("junk.y4m"), "frame 4"});
}

TEST_F(harm, frame_count_mismatch_at_zero_does_not_suggest_frame_cnt_0) {
  const auto good = slurp(ast_dis);
  spit(path("none.y4m"), good.substr(0, good.find('\n') + 1));  // a header and no frame
  const auto r = vqm(J({"-r", ast_ref, "-d", path("none.y4m")}));
  expect_error(r, {"has 4 frames", "has 0"});
  EXPECT_EQ(r.err.find("--frame_cnt 0"), std::string::npos) << r.err;
}

TEST_F(harm, non_finite_option_values_are_rejected) {
  for (const auto* v : {"inf", "-inf", "nan", "infinity"})
    expect_error(vqm({"-r", ast_ref, "-d", ast_dis, "--feature", std::string("psnr=min_sse=") + v, "--no_prediction"}),
                 {std::string("min_sse=") + v, "finite"});
  EXPECT_THROW(
      [] {
        (void)vqm::parse_options<vqm::psnr_options>(vqm::option_map::parse("min_sse=nan"));
      }(),
      vqm::error);
}

TEST_F(harm, nine_and_fourteen_bit_y4m_are_refused_as_documented) {
  const auto good = slurp(r10_ref);
  const auto header = good.substr(0, good.find('\n'));
  for (const auto* cs : {"C420p9", "C444p14"}) {
    auto h = header;
    h.replace(h.find("C420p10"), 7, cs);
    spit(path("odd.y4m"), h + "\n");
    expect_error(vqm(J({"-r", path("odd.y4m"), "-d", path("odd.y4m")})), {path("odd.y4m"), "-bit Y4M", "not supported"});
  }
}

#if VQM_CLI_HAS_VULKAN
TEST_F(harm, vulkan_errors_say_it_once_and_right) {
  // No loader: the fix is named once.
  auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "--backend", "vulkan"}), "",
               "VQM_VULKAN_LOADER=/nonexistent/libvulkan.so.1");
  expect_error(r, {"--backend cpu"});
  EXPECT_EQ(count(r.err, "--backend cpu"), 1u) << r.err;
  // A garbage driver manifest is not "out of host memory".
  spit(path("icd.json"), "garbage{{");
  r = vqm(J({"-r", ast_ref, "-d", ast_dis, "--backend", "vulkan"}), "",
          "VK_ICD_FILENAMES=" + quote(path("icd.json")) + " VK_DRIVER_FILES=" + quote(path("icd.json")));
  expect_error(r, {"driver manifest", "icd.json", "--backend cpu"});
  EXPECT_EQ(r.err.find("out of host memory"), std::string::npos) << r.err;
  EXPECT_EQ(count(r.err, "--backend cpu"), 1u) << r.err;
}

// An AddressSanitizer build of the CLI runs --backend vulkan to a clean exit (lavapipe's unattributable
// leak is not reported), as the test suites that use Vulkan do. In other builds this is a plain run.
TEST_F(harm, vulkan_run_exits_cleanly_without_asan_options) {
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "--backend", "vulkan", "-o", "-"}), "", "env -u ASAN_OPTIONS");
  if (r.rc != 0 && r.err.find("Vulkan is not available") != std::string::npos) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(is_report(r.out));
}
#endif

}  // namespace VQM_TEST_UNIT
