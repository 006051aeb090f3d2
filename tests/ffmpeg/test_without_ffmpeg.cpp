// open_frame_source in a build without vqm::ffmpeg (this test links only the core): Y4M still opens,
// and an encoded file is an error that says containers need a build with FFmpeg.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "vqm/io/open.hpp"

namespace {

static_assert(!vqm::io::have_ffmpeg, "this test is compiled without vqm::ffmpeg");

TEST(without_ffmpeg, containers_need_a_build_with_ffmpeg) {
  const auto dir = std::filesystem::path(VQM_FFMPEG_OFF_WORK_DIR);
  std::filesystem::create_directories(dir);
  const auto mp4 = (dir / "clip.mp4").string();
  std::ofstream(mp4, std::ios::binary) << std::string("\0\0\0\x20" "ftypisom", 12) << std::string(64, '\0');
  try {
    (void)vqm::io::open_frame_source(mp4, std::nullopt);
    FAIL() << "no error";
  } catch (const vqm::error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("clip.mp4"), std::string::npos) << msg;
    EXPECT_NE(msg.find("need vqm built with FFmpeg"), std::string::npos) << msg;
    EXPECT_NE(msg.find(vqm::io::raw_format_needed), std::string::npos) << msg;
    EXPECT_EQ(e.code(), vqm::errc::raw_format);  // perhaps raw samples: the CLI adds -w, -h, -p and -b
  }
  const auto y4m = std::string(VQM_FIXTURE_DIR) + "/astronaut_576x324_420p8_ref.y4m";
  EXPECT_EQ(vqm::io::open_frame_source(y4m, std::nullopt)->format().width, 576u);
}

}  // namespace
