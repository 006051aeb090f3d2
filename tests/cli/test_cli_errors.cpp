// The vqm program on bad input: one test per class (one-line error naming the file, non-zero exit, no
// output file, an existing output untouched).
#include <unistd.h>

#include "cli/cli_fixture.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace cli_test;
using cli = cli_fixture;

// ---------------------------------------------------------------------------------------------------
// Bad input: one test per class

TEST_F(cli, missing_file) {
  expect_clean_failure({"-r", path("nope.y4m"), "-d", fx(ast_dis)}, {path("nope.y4m"), "no such file"});
  expect_clean_failure({"-r", fx(ast_ref), "-d", path("gone.y4m")}, {path("gone.y4m"), "no such file"});
}

TEST_F(cli, unreadable_file) {
  expect_clean_failure({"-r", dir_.string(), "-d", fx(ast_dis)}, {dir_.string(), "is a directory"});
  spit(path("locked.y4m"), slurp(fx(ast_ref)));
  fs::permissions(path("locked.y4m"), fs::perms::none);
  if (::geteuid() != 0) {  // root reads files regardless of their permission bits
    expect_clean_failure({"-r", path("locked.y4m"), "-d", fx(ast_dis)}, {path("locked.y4m"), "Permission denied"});
  }
  fs::permissions(path("locked.y4m"), fs::perms::owner_all);
}

TEST_F(cli, bad_y4m_header) {
  const auto good = slurp(fx(ast_ref));
  const auto body = good.substr(good.find('\n'));
  spit(path("sig.y4m"), "YUV4MPEG W576 H324\nFRAME\n");
  expect_clean_failure({"-r", path("sig.y4m"), "-d", fx(ast_dis)}, {path("sig.y4m"), "missing 'YUV4MPEG2' signature"});
  spit(path("nohdr.y4m"), "YUV4MPEG2 W576 H324 F25:1");
  expect_clean_failure({"-r", fx(ast_ref), "-d", path("nohdr.y4m")}, {path("nohdr.y4m"), "truncated Y4M header"});
  spit(path("cs.y4m"), "YUV4MPEG2 W576 H324 C411" + body);
  expect_clean_failure({"-r", path("cs.y4m"), "-d", fx(ast_dis)}, {path("cs.y4m"), "unsupported Y4M colorspace 'C411'"});
  spit(path("noh.y4m"), "YUV4MPEG2 W576 C420jpeg" + body);
  expect_clean_failure({"-r", path("noh.y4m"), "-d", fx(ast_dis)}, {path("noh.y4m"), "lacks the W (width) or H"});
}

TEST_F(cli, truncated_or_corrupt_frame) {
  const auto good = slurp(fx(ast_dis));
  const std::size_t header = good.find('\n') + 1, frame = 6 + 576 * 324 * 3 / 2;
  spit(path("cut.y4m"), good.substr(0, header + 2 * frame + 1000));  // frame 2 ends early
  expect_clean_failure({"-r", fx(ast_ref), "-d", path("cut.y4m")},
                       {path("cut.y4m") + ": frame 2: truncated frame data (994 of 279936 bytes"});
  std::string bad = good;
  bad.replace(header + frame, 5, "FRAMX");  // frame 1's header
  spit(path("tag.y4m"), bad);
  expect_clean_failure({"-r", fx(ast_ref), "-d", path("tag.y4m")}, {path("tag.y4m") + ": frame 1: expected a 'FRAME' header"});
}

TEST_F(cli, inputs_differ_in_size_or_format) {
  // (Inputs that differ only in bit depth are scored at the higher one: test_cli_libvmaf.cpp.)
  expect_clean_failure({"-r", fx(ast_ref), "-d", fx("chelsea_320x180_444p12_ref.y4m")},
                       {fx(ast_ref), "576x324 4:2:0 8-bit", "320x180 4:4:4 12-bit", "same size"});
  expect_clean_failure({"-r", fx("coffee_576x324_420p8_ref.y4m"), "-d", fx("coffee_576x324_422p8_ref.y4m")},
                       {"576x324 4:2:0 8-bit", "576x324 4:2:2 8-bit", "chroma format"});
}

TEST_F(cli, inputs_differ_in_frame_count) {
  const auto good = slurp(fx(ast_dis));
  const std::size_t header = good.find('\n') + 1, frame = 6 + 576 * 324 * 3 / 2;
  spit(path("three.y4m"), good.substr(0, header + 3 * frame));  // a clean file of 3 frames
  expect_clean_failure({"-r", fx(ast_ref), "-d", path("three.y4m")},
                       {fx(ast_ref) + " has 4 frames", path("three.y4m") + " has 3", "--frame_cnt 3"});
  expect_clean_failure({"-r", path("three.y4m"), "-d", fx(ast_ref)}, {"has 3 frames", "has 4"});
  // ... and with --frame_cnt 3 the pair is fine.
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", path("three.y4m"), "--feature", "psnr", "--frame_cnt", "3"});
  EXPECT_EQ(r.rc, 0) << r.err;
}

TEST_F(cli, metric_does_not_support_the_input) {
  const auto p16r = fx("astronaut_176x176_420p16_ref.y4m"), p16d = fx("astronaut_176x176_420p16_boxblur1.y4m");
  expect_clean_failure({"-n", "-r", p16r, "-d", p16d, "--feature", "psnr_hvs"}, {p16r, "psnr_hvs", "16-bit"});
  const auto gr = fx("camera_576x324_gray8_ref.y4m"), gd = fx("camera_576x324_gray8_x264crf35.y4m");
  expect_clean_failure({"-n", "-r", gr, "-d", gd, "--feature", "psnr_hvs"}, {gr, "psnr_hvs", "4:0:0"});
  const auto sr = fx("rocket_177x99_420p8_ref.y4m"), sd = fx("rocket_177x99_420p8_noise10.y4m");
  expect_clean_failure({"-n", "-r", sr, "-d", sd, "--feature", "float_ms_ssim"}, {sr, "float_ms_ssim", "176x176", "177x99"});
  // libvmaf's degenerate tiny-frame values need --compat libvmaf; by default 8x8 is refused.
  const auto tr = fx("cellauto_8x8_420p8_ref.y4m"), td = fx("cellauto_8x8_420p8_noise20.y4m");
  expect_clean_failure({"-n", "-r", tr, "-d", td, "--feature", "float_ssim"}, {tr, "float_ssim", "11x11"});
}

TEST_F(cli, zero_or_absurd_dimensions) {
  spit(path("a.yuv"), std::string(100, '\0'));
  expect_clean_failure({"-r", path("a.yuv"), "-d", path("a.yuv"), "-w", "0", "-h", "10", "-p", "420", "-b", "8"},
                       {"-w 0 -h 10", "zero dimension"});
  expect_clean_failure({"-r", path("a.yuv"), "-d", path("a.yuv"), "-w", "100000", "-h", "100000", "-p", "420", "-b", "8"},
                       {"implausibly large"});
  spit(path("w0.y4m"), "YUV4MPEG2 W0 H324 C420jpeg\nFRAME\n");
  expect_clean_failure({"-r", path("w0.y4m"), "-d", fx(ast_dis)}, {path("w0.y4m"), "width is 0"});
  spit(path("wbig.y4m"), "YUV4MPEG2 W999999 H324 C420jpeg\nFRAME\n");
  expect_clean_failure({"-r", path("wbig.y4m"), "-d", fx(ast_dis)}, {path("wbig.y4m"), "width 999999 is implausibly large"});
}

TEST_F(cli, raw_size_not_a_multiple_of_the_frame_size) {
  spit(path("r.yuv"), std::string(2 * (16 * 16 * 3 / 2) + 7, '\x10'));
  expect_clean_failure({"-r", path("r.yuv"), "-d", path("r.yuv"), "-w", "16", "-h", "16", "-p", "420", "-b", "8"},
                       {path("r.yuv"), "2 frames and 7 bytes left over", "(-w, -h, -p, -b)"});
  expect_clean_failure({"-r", path("r.yuv"), "-d", path("r.yuv")}, {path("r.yuv"), "give -w, -h, -p and -b"});
}

TEST_F(cli, unknown_feature_option_or_flag) {
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "vmaf"}, {"unknown feature 'vmaf'", "psnr_hvs"});
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr=enable_msee=true"},
                       {"unknown option 'enable_msee'", "psnr", "enable_mse"});
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "float_ssim=scale=x"}, {"scale=x"});
  // The same feature twice is one instance (as in libvmaf); the same outputs under other options are an error.
  expect_clean_failure({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "--feature",
                        "psnr=enable_mse=true"},
                       {"psnr_y", "also produced by another feature request"});
  expect_clean_failure({"-r", fx(ast_ref), "-d", fx(ast_dis), "--precision", "high"}, {"--precision high"});
  expect_clean_failure({"-r", fx(ast_ref), "-d", fx(ast_dis), "--bogus"}, {"--bogus"});
  expect_clean_failure({"-r", fx(ast_ref)}, {"-d/--distorted"});
}

TEST_F(cli, output_folder_missing_fails_before_any_work) {
  const auto r = vqm({"-n", "-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "-o", path("no/such/out.xml")});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("no")));
}

TEST_F(cli, failed_run_leaves_an_existing_output_untouched) {
  spit(path("out.json"), "previous");
  const auto r = vqm({"-r", fx(ast_ref), "-d", path("nope.y4m"), "--json", "-o", path("out.json")});
  EXPECT_NE(r.rc, 0);
  EXPECT_EQ(slurp(path("out.json")), "previous");
  EXPECT_EQ(leftovers({"out.json"}), std::vector<std::string>{});
}

}  // namespace VQM_TEST_UNIT
