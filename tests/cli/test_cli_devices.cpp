// Many devices in one process (issue #21): `--backend vulkan --devices all` on two lavapipe devices (the
// ICD listed twice under two paths gives two) writes one device's bytes (the fps figure aside) in XML, JSON
// and CSV, for VMAF with a bootstrap model, psnr, float_ssim, motion with its five-frame window and
// float_motion over a 16-frame clip with a cut, with blocks that cut the clip at several places (and
// --subsample, frame skips); several -d spread over the devices. --devices 0,5, --devices with the CPU
// backend, and --list-devices.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "common/test_namespace.hpp"

namespace cli_test {
namespace VQM_TEST_UNIT {

const std::string rocket = "rocket_177x99_420p8_";

// Mesa's lavapipe ICD manifest, if installed.
std::optional<std::string> lavapipe_icd() {
  for (const char* dir : {"/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().filename().string().starts_with("lvp_icd")) return e.path().string();
  }
  return std::nullopt;
}

class cli_devices : public cli_fixture {
 protected:
  void SetUp() override {
    cli_fixture::SetUp();
    if (!VQM_CLI_HAS_VULKAN) GTEST_SKIP() << "built without the Vulkan backend";
    const auto icd = lavapipe_icd();
    if (!icd) GTEST_SKIP() << "no lavapipe ICD (mesa-vulkan-drivers) to list twice";
    fs::copy_file(*icd, path("lvp2.json"));
    if (const char* old = std::getenv("VK_ICD_FILENAMES")) saved_ = old;
    setenv("VK_ICD_FILENAMES", (*icd + ":" + path("lvp2.json")).c_str(), 1);
    const auto cat = [&](const std::string& a, const std::string& b, const std::string& to) {
      const std::string x = slurp(fx(rocket + a)), y = slurp(fx(rocket + b));
      spit(path(to), x + y.substr(y.find('\n') + 1));
    };
    cat("ref.y4m", "ref.y4m", "ref.y4m");
    cat("x264crf35.y4m", "noise10.y4m", "dis.y4m");
    cat("noise10.y4m", "x264crf35.y4m", "dis2.y4m");
    cat("noise10.y4m", "noise10.y4m", "dis3.y4m");
  }
  void TearDown() override {
    if (saved_) setenv("VK_ICD_FILENAMES", saved_->c_str(), 1);
    else unsetenv("VK_ICD_FILENAMES");
  }

  std::vector<std::string> args(const std::vector<std::string>& extra) const {
    std::vector<std::string> a{"-r", path("ref.y4m"), "-d", path("dis.y4m"), "-q", "--backend", "vulkan", "-m",
                               "version=vmaf_v0.6.1", "-m", "version=vmaf_b_v0.6.3:name=vmaf_b", "--feature",
                               "psnr=enable_apsnr=true", "--feature", "float_ssim", "--feature",
                               "motion=motion_five_frame_window=true:motion_moving_average=true", "--feature",
                               "float_motion"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  // The output of one run (the fps figure out).
  std::string output(const std::vector<std::string>& extra) {
    std::filesystem::remove(path("out"));
    auto x = args(extra);
    x.insert(x.end(), {"-o", path("out")});
    const auto r = vqm(x);
    EXPECT_EQ(r.rc, 0) << r.err;
    return std::regex_replace(slurp(path("out")), std::regex(R"(fps(=\"|\": |,)[0-9.a-z]+)"), "fps=...");
  }

  std::optional<std::string> saved_;
};

// Two contiguous parts, and blocks of 3 (six blocks, both devices three times, motion's window across
// every cut), 5 and 7, against one device; --subsample 3 with parts and blocks of 4; skips with parts and
// blocks of 6.
TEST_F(cli_devices, two_devices_write_one_devices_bytes_in_every_format) {
  const auto list = vqm({"--list-devices"});
  ASSERT_EQ(list.rc, 0) << list.err;
  ASSERT_NE(list.out.find("1: "), std::string::npos) << "expected two devices: " << list.out;
  for (const std::string format : {"--xml", "--json", "--csv"}) {
    SCOPED_TRACE(format);
    const auto one = output({format, "--devices", "0"});
    EXPECT_NE(one.find("vmaf_b_ci_p95_hi"), std::string::npos);
    EXPECT_NE(one.find("integer_motion2"), std::string::npos);
    EXPECT_EQ(output({format, "--devices", "all"}), one);  // two contiguous parts (the files seek)
    // Blocks of 3, 5, 7 in XML; of 3 (the most cuts) in the other formats.
    for (const std::string block : {"3", "5", "7"}) {
      if (format != "--xml" && block != "3") continue;
      SCOPED_TRACE(block);
      EXPECT_EQ(output({format, "--devices", "all", "--device-block", block}), one);
    }
  }
  const auto subsampled = output({"--json", "--subsample", "3", "--devices", "1"});
  EXPECT_EQ(output({"--json", "--subsample", "3", "--devices", "0,1", "--device-block", "4"}), subsampled);
  EXPECT_EQ(output({"--json", "--subsample", "3", "--devices", "0,1"}), subsampled);
  const std::vector<std::string> skips{"--json", "--frame_skip_ref", "1", "--frame_skip_dist", "2", "--frame_cnt", "11"};
  auto blocks = skips, parts = skips, one = skips;
  blocks.insert(blocks.end(), {"--devices", "all", "--device-block", "6"});
  parts.insert(parts.end(), {"--devices", "all"});
  one.insert(one.end(), {"--devices", "0"});
  const auto one_device = output(one);
  EXPECT_EQ(output(blocks), one_device);
  EXPECT_EQ(output(parts), one_device);
}

// Parts need inputs that seek: a reference through a pipe is read once, in blocks, with the same bytes; a
// frame count that differs is the one-device run's error.
TEST_F(cli_devices, a_pipe_is_read_in_blocks_and_count_errors_are_one_devices) {
  const auto one = output({"--json", "--devices", "0"});
  auto piped = args({"--json", "--devices", "all", "-o", path("out")});
  piped[1] = "/dev/stdin";
  std::string cmd = "cat " + quote(path("ref.y4m")) + " | " + quote(VQM_CLI_PATH);
  for (const auto& a : piped) (cmd += ' ') += quote(a);
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(std::regex_replace(slurp(path("out")), std::regex(R"(fps(=\"|\": |,)[0-9.a-z]+)"), "fps=..."), one);
  auto longer = args({"--devices", "all"});
  longer[3] = fx(rocket + "ref.y4m");  // 8 frames against 16
  const auto all = vqm(longer);
  longer.back() = "0";
  const auto single = vqm(longer);
  EXPECT_NE(all.rc, 0);
  EXPECT_EQ(all.rc, single.rc);
  EXPECT_EQ(all.err, single.err);
}

// Several -d: the distorted spread over the devices, each output one device's: groups on threads of their
// own (files), or one multi_session over the devices (a reference through a pipe).
TEST_F(cli_devices, several_distorted_spread_over_the_devices) {
  const auto run = [&](const std::string& devices, bool piped) {
    auto x = args({"--xml", "-o", path("a.xml"), "-d", path("dis2.y4m"), "-o", path("b.xml"), "-d", path("dis3.y4m"),
                   "-o", path("c.xml"), "--devices", devices});
    std::string cmd = piped ? "cat " + quote(path("ref.y4m")) + " | " : "";
    if (piped) x[1] = "-";
    cmd += quote(VQM_CLI_PATH);
    for (const auto& a : x) (cmd += ' ') += quote(a);
    EXPECT_EQ(std::system((cmd + " 2>" + quote(path("err.txt"))).c_str()), 0) << slurp(path("err.txt"));
    std::string out;
    for (const char* f : {"a.xml", "b.xml", "c.xml"})
      out += std::regex_replace(slurp(path(f)), std::regex(R"(fps="[0-9.]+")"), "fps=...");
    return out;
  };
  const auto one = run("0", false);
  EXPECT_EQ(run("all", false), one);
  EXPECT_EQ(run("all", true), one);
}

TEST_F(cli_devices, missing_devices_the_cpu_backend_and_gpu_id_are_refused) {
  expect_clean_failure(args({"--devices", "0,5"}), {"--devices 0,5", "no Vulkan device 5", "--list-devices"});
  expect_clean_failure(args({"--devices", "0,0"}), {"device 0 is named twice"});
  expect_clean_failure(args({"--devices", "no such gpu"}), {"no usable Vulkan device named 'no such gpu'"});
  auto cpu = args({"--devices", "all"});
  cpu[6] = "cpu";  // --backend cpu
  expect_clean_failure(cpu, {"--devices all picks Vulkan devices", "--backend vulkan"});
  expect_clean_failure(args({"--devices", "all", "--gpu-id", "0"}), {"--gpu-id and --devices"});
  expect_clean_failure(args({"--device-block", "8"}), {"--device-block", "--devices all"});
  const auto gpu = vqm({"--list-gpu"});  // the former name
  EXPECT_EQ(gpu.rc, 0) << gpu.err;
  EXPECT_EQ(gpu.out, vqm({"--list-devices"}).out);
}

}  // namespace VQM_TEST_UNIT
}  // namespace cli_test
