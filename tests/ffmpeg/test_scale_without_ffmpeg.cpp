// The CLI's --scale / --scale-to in a build without vqm::ffmpeg (this test links only the core): one line
// saying that scaling needs a build with FFmpeg; without the flags nothing changes.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "scale_options.hpp"
#include "vqm/io/open.hpp"

namespace {

static_assert(!vqm::io::have_ffmpeg, "this test is compiled without vqm::ffmpeg");

TEST(scale_without_ffmpeg, flags_need_a_build_with_ffmpeg) {
  const auto path = std::string(VQM_FIXTURE_DIR) + "/astronaut_576x324_420p8_ref.y4m";
  auto ref = vqm::io::open_frame_source(path, std::nullopt);
  auto dis = vqm::io::open_frame_source(path, std::nullopt);
  const auto* r0 = ref.get();
  vqm::cli::apply_scaling({}, ref, dis);
  EXPECT_EQ(ref.get(), r0);
  for (const auto& o : {vqm::cli::scale_options{"bicubic", ""}, vqm::cli::scale_options{"", "dis"}}) {
    try {
      vqm::cli::apply_scaling(o, ref, dis);
      FAIL() << "no error";
    } catch (const vqm::error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(o.mode.empty() ? "--scale-to needs vqm built with FFmpeg" : "--scale needs vqm built with FFmpeg"),
                std::string::npos)
          << msg;
      EXPECT_NE(msg.find("-DVQM_FFMPEG=ON"), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  }
}

}  // namespace
