// Frames decoded with FFmpeg's libraries handed over as AVFrames (vqm/io/avframe.hpp): view_of and
// picture_of give the samples of the frame, whatever its row padding, row order or storage (planar,
// nv12, p010), and VMAF and PSNR of frames passed that way equal those of the same frames read from Y4M,
// value for value, on the Cpu backend and on Vulkan (lavapipe in CI); what cannot be measured is refused
// with one line naming the frame.
#include <gtest/gtest.h>

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
}

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "avframe_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/avframe.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#if VQM_TEST_VULKAN
#include "../vulkan/vk_test_util.hpp"
#include "vqm/vulkan.hpp"
#endif
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

// The ways a frame is handed over, each checked against the Y4M frames on `backend`.
template <class B>
void expect_handed_over_frames_score_the_same(B& backend, const char* ref_name, const char* dis_name,
                                              AVPixelFormat planar_fmt, AVPixelFormat semi_fmt, std::uint32_t shift) {
  const auto ref = read_fixture(ref_name), dis = read_fixture(dis_name);
  const auto want = scores(backend, views(ref), views(dis));
  ASSERT_FALSE(want.rows.empty());
  struct way {
    std::string what;
    std::function<frame_ptr(const picture&)> make;
    bool copy;
  };
  const std::vector<way> ways{
      {"view of a padded frame", [&](const picture& p) { return frame_of(p, planar_fmt); }, false},
      {"copy of a padded frame", [&](const picture& p) { return frame_of(p, planar_fmt); }, true},
      {"view of a bottom-up frame", [&](const picture& p) { return frame_of(p, planar_fmt, true); }, false},
      {"view of a semi-planar frame",
       [&](const picture& p) { return frame_of(repacked(p, chroma_layout::uv, shift), semi_fmt); }, false},
  };
  for (const auto& w : ways) {
    SCOPED_TRACE(std::string(ref_name) + ": " + w.what);
    std::vector<frame_ptr> frames;
    std::vector<picture> copies;
    std::vector<picture_view> rv, dv;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      frames.push_back(w.make(ref[i]));
      frames.push_back(w.make(dis[i]));
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (w.copy) copies.push_back(io::picture_of(*frames[i]));
      (i % 2 == 0 ? rv : dv).push_back(w.copy ? copies.back().view() : io::view_of(*frames[i]));
    }
    if (w.copy) {  // picture_of: the Y4M frame's bytes, tightly packed
      ASSERT_EQ(copies[0].format(), ref[0].format());
      EXPECT_TRUE(std::equal(copies[0].bytes().begin(), copies[0].bytes().end(), ref[0].bytes().begin()));
    }
    const auto got = scores(backend, rv, dv);
    ASSERT_EQ(got.names, want.names);
    EXPECT_EQ(got.rows, want.rows);
  }
}

TEST(avframe, frames_handed_over_score_as_the_y4m_frames_on_the_cpu) {
  Cpu cpu;
  expect_handed_over_frames_score_the_same(cpu, "astronaut_576x324_420p8_ref.y4m", "astronaut_576x324_420p8_x264crf35.y4m",
                                           AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12, 0);
  expect_handed_over_frames_score_the_same(cpu, "rocket_576x324_420p10_ref.y4m", "rocket_576x324_420p10_x264crf35.y4m",
                                           AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_P010LE, 6);
}

#if VQM_TEST_VULKAN
TEST(avframe, frames_handed_over_score_as_the_y4m_frames_on_vulkan) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan v(ctx);
  expect_handed_over_frames_score_the_same(v, "astronaut_576x324_420p8_ref.y4m", "astronaut_576x324_420p8_x264crf35.y4m",
                                           AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12, 0);
  expect_handed_over_frames_score_the_same(v, "rocket_576x324_420p10_ref.y4m", "rocket_576x324_420p10_x264crf35.y4m",
                                           AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_P010LE, 6);
}
#endif

std::string refusal(const AVFrame& f, errc* code = nullptr) {
  try {
    (void)io::view_of(f, "dis.mkv frame 7");
  } catch (const error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return {};
}

TEST(avframe, what_cannot_be_measured_is_refused_naming_the_frame) {
  const auto ref = read_fixture("rocket_576x324_420p10_ref.y4m", 1);
  errc code{};
  {  // RGB: the conversion to ask for
    picture_format f = ref[0].format();
    frame_ptr rgb(av_frame_alloc());
    rgb->format = AV_PIX_FMT_RGB24;
    rgb->width = static_cast<int>(f.width);
    rgb->height = static_cast<int>(f.height);
    ASSERT_GE(av_frame_get_buffer(rgb.get(), 0), 0);
    const auto why = refusal(*rgb, &code);
    EXPECT_EQ(code, errc::unsupported_format);
    EXPECT_EQ(why.rfind("dis.mkv frame 7: pixel format rgb24 is not supported", 0), 0u) << why;
    EXPECT_NE(why.find("convert it to yuv444p"), std::string::npos) << why;
  }
  {  // a hardware frame: download it first
    frame_ptr hw(av_frame_alloc());
    hw->format = AV_PIX_FMT_VAAPI;
    hw->width = 64;
    hw->height = 64;
    const auto why = refusal(*hw, &code);
    EXPECT_EQ(code, errc::unsupported_format);
    EXPECT_NE(why.find("hardware frame (vaapi)"), std::string::npos) << why;
    EXPECT_NE(why.find("av_hwframe_transfer_data"), std::string::npos) << why;
  }
  {  // an empty frame
    frame_ptr empty(av_frame_alloc());
    empty->format = AV_PIX_FMT_YUV420P;
    empty->width = 64;
    empty->height = 64;
    EXPECT_NE(refusal(*empty, &code).find("holds no picture"), std::string::npos);
    EXPECT_EQ(code, errc::invalid_argument);
  }
  {  // a 10-bit frame whose samples do not fit 10 bits, in a view and in a copy
    auto f = frame_of(ref[0], AV_PIX_FMT_YUV420P10LE);
    const std::uint16_t big = 1500;
    std::memcpy(f->data[1] + 7 * f->linesize[1] + 2 * 3, &big, 2);
    const auto why = refusal(*f, &code);
    EXPECT_EQ(code, errc::bad_input);
    EXPECT_EQ(why, "dis.mkv frame 7: plane 1 (Cb) sample at x=3, y=7 is 1500, above the 10-bit maximum 1023 (the "
                   "frame's samples do not fit its pixel format)");
    EXPECT_THROW((void)io::picture_of(*f, "dis.mkv frame 7"), error);
  }
  {  // rows shorter than the format says
    auto f = frame_of(ref[0], AV_PIX_FMT_YUV420P10LE);
    f->linesize[0] = 100;
    EXPECT_NE(refusal(*f, &code).find("plane 0 has linesize 100, less than its 1152-byte rows"), std::string::npos);
    EXPECT_EQ(code, errc::invalid_argument);
  }
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
