// FFmpeg's Vulkan hardware frames (vqm/io/avvkframe.hpp): software frames uploaded by FFmpeg's own Vulkan
// hwcontext (av_hwframe_transfer_data) and scored from their AVVkFrames with no host copy give the VMAF and
// PSNR values of the same software frames scored through view_of on the Cpu backend and on Vulkan, value for
// value (planar and semi-planar, 8 and 10 bits); the frames' timeline semaphores advance as hwcontext_vulkan.h
// asks, so FFmpeg reads them back afterwards; what cannot be scored is refused with one line naming the
// frame. The frames are synthetic (no data files: `--gtest_filter='avvkframe.*'` runs these tests of
// test_ffmpeg_avframe on a machine without the fixtures). Skipped, saying why, where there is no Vulkan
// device or FFmpeg's Vulkan hwcontext cannot create one.
#include <gtest/gtest.h>

extern "C" {
#include <libavutil/buffer.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_vulkan.h>
}

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../vulkan/vk_test_util.hpp"
#include "avframe_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/avframe.hpp"
#include "vqm/io/avvkframe.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

struct buffer_unref {
  void operator()(AVBufferRef* b) const noexcept { av_buffer_unref(&b); }
};
using buffer_ptr = std::unique_ptr<AVBufferRef, buffer_unref>;

// A new FFmpeg Vulkan device (its own VkDevice), or null with the reason.
buffer_ptr ffmpeg_vulkan_device(std::string& why) {
  if (std::string no; !vulkan::available(&no)) {
    why = "no Vulkan device on this machine: " + no;
    return {};
  }
  if (av_hwdevice_find_type_by_name("vulkan") == AV_HWDEVICE_TYPE_NONE) {
    why = "this FFmpeg's libavutil was built without the Vulkan hwcontext";
    return {};
  }
  AVBufferRef* dev = nullptr;
  if (const int err = av_hwdevice_ctx_create(&dev, AV_HWDEVICE_TYPE_VULKAN, nullptr, nullptr, 0); err < 0) {
    why = "FFmpeg's Vulkan hwcontext refused this machine's device: av_hwdevice_ctx_create: " +
          io::ffmpeg_detail::av_error_text(err);
    return {};
  }
  return buffer_ptr(dev);
}

#define VQM_REQUIRE_FFMPEG_VULKAN(dev)                  \
  std::string vqm_why_;                                 \
  const auto dev = ffmpeg_vulkan_device(vqm_why_);      \
  if (!dev) GTEST_SKIP() << vqm_why_

// An initialised frames context of `sw` images on `dev`; null with av_error_text in `why` if FFmpeg refuses.
buffer_ptr frames_context(AVBufferRef* dev, AVPixelFormat sw, int w, int h, std::string* why = nullptr,
                          VkImageUsageFlags usage = 0) {
  buffer_ptr fr(av_hwframe_ctx_alloc(dev));
  auto* fc = reinterpret_cast<AVHWFramesContext*>(fr->data);
  fc->format = AV_PIX_FMT_VULKAN;
  fc->sw_format = sw;
  fc->width = w;
  fc->height = h;
  if (usage) static_cast<AVVulkanFramesContext*>(fc->hwctx)->usage = static_cast<VkImageUsageFlagBits>(usage);
  if (const int err = av_hwframe_ctx_init(fr.get()); err < 0) {
    if (why) *why = io::ffmpeg_detail::av_error_text(err);
    return {};
  }
  return fr;
}

frame_ptr vulkan_frame(AVBufferRef* frames) {
  frame_ptr hw(av_frame_alloc());
  if (av_hwframe_get_buffer(frames, hw.get(), 0) < 0) throw std::runtime_error("av_hwframe_get_buffer failed");
  return hw;
}

// The software frame uploaded by FFmpeg into a Vulkan frame of `frames`.
frame_ptr uploaded(AVBufferRef* frames, const AVFrame& sw) {
  auto hw = vulkan_frame(frames);
  if (const int err = av_hwframe_transfer_data(hw.get(), &sw, 0); err < 0)
    throw std::runtime_error("av_hwframe_transfer_data (upload): " + io::ffmpeg_detail::av_error_text(err));
  return hw;
}

// Planar pictures with structure (a moving ramp and checkerboard) and, for `noise` > 0, pseudo-random
// distortion of up to ±noise, within the bit depth.
picture synthetic(const picture_format& f, std::uint32_t frame, int noise) {
  picture p(f);
  std::uint32_t lcg = 12345u + frame * 7919u;
  const int max = (1 << f.bit_depth) - 1, scale = 1 << (f.bit_depth - 8);
  for (int pl = 0; pl < f.stored_planes(); ++pl)
    for (std::uint32_t y = 0; y < f.plane_height(pl); ++y)
      for (std::uint32_t x = 0; x < f.plane_width(pl); ++x) {
        int v = static_cast<int>((x * 3 + y * 2 + frame * 5 + static_cast<std::uint32_t>(pl) * 40) % 200) + 20 +
                (((x / 8 + y / 8) & 1) ? 25 : 0);
        v *= scale;
        lcg = lcg * 1664525u + 1013904223u;
        if (noise) v += static_cast<int>(lcg >> 16) % (2 * noise * scale + 1) - noise * scale;
        v = std::clamp(v, 0, max);
        if (f.bytes_per_sample() == 1) p.row<std::uint8_t>(pl, y)[x] = static_cast<std::uint8_t>(v);
        else p.row<std::uint16_t>(pl, y)[x] = static_cast<std::uint16_t>(v);
      }
  return p;
}

score_table gpu_scores(Vulkan& gpu, const vulkan::context& ctx, std::vector<frame_ptr>& ref, std::vector<frame_ptr>& dis,
                       const session_config& cfg) {
  session<Vulkan> s(gpu, vulkan::geometry(io::gpu_picture_of(*ref[0], ctx)).format, cfg);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    s.push(io::gpu_picture_of(*ref[i], ctx, "ref frame " + std::to_string(i)),
           io::gpu_picture_of(*dis[i], ctx, "dis frame " + std::to_string(i)));
    io::mark_pushed(*ref[i]);
    io::mark_pushed(*dis[i]);
  }
  return s.finish();
}

struct plane_state {
  std::vector<std::uint64_t> sem_value;
  std::vector<VkImageLayout> layout;
};

plane_state state_of(const AVFrame& f, int images) {
  const auto* vf = reinterpret_cast<const AVVkFrame*>(f.data[0]);
  plane_state s;
  for (int i = 0; i < images; ++i) {
    s.sem_value.push_back(vf->sem_value[i]);
    s.layout.push_back(vf->layout[i]);
  }
  return s;
}

// One sw_format: 3 frame pairs uploaded by FFmpeg into Vulkan frames on `dev`, scored from the AVVkFrames on
// `ctx` (on dev's VkDevice), against the software frames on the Cpu backend and on `ctx`: VMAF and psnr, or
// psnr alone for `vmaf` false.
void expect_vulkan_frames_score_as_software(AVBufferRef* dev, const std::shared_ptr<vulkan::context>& ctx, bool vmaf,
                                            AVPixelFormat sw_fmt, const char* planar_name, chroma_layout layout,
                                            std::uint32_t shift, std::uint32_t w, std::uint32_t h,
                                            bool ffmpeg_may_refuse = false) {
  SCOPED_TRACE(io::ffmpeg_detail::pix_fmt_name(sw_fmt) + " " + std::to_string(w) + "x" + std::to_string(h));
  const picture_format planar = make_format(*find_pixel_format(planar_name), w, h);
  std::vector<frame_ptr> sw_ref, sw_dis;
  std::vector<picture> stored;  // what each software frame holds, as stored (ref, dis alternating)
  for (std::uint32_t i = 0; i < 3; ++i)
    for (const int noise : {0, 6}) {
      picture p = synthetic(planar, i, noise);
      if (layout != chroma_layout::planar) p = repacked(p, layout, shift);
      (noise ? sw_dis : sw_ref).push_back(frame_of(p, sw_fmt));
      stored.push_back(std::move(p));
    }
  std::vector<picture_view> rv, dv;
  for (std::size_t i = 0; i < sw_ref.size(); ++i) {
    rv.push_back(io::view_of(*sw_ref[i]));
    dv.push_back(io::view_of(*sw_dis[i]));
  }
  Cpu cpu;
  const auto cfg = vmaf_and_psnr(vmaf);
  const auto on_cpu = scores(cpu, rv, dv, cfg);
  ASSERT_FALSE(on_cpu.rows.empty());

  std::string why;
  const auto frames = frames_context(dev, sw_fmt, static_cast<int>(w), static_cast<int>(h), &why);
  if (!frames && ffmpeg_may_refuse) {
    // FFmpeg 5.1 on a device with DRM format modifiers (its own device on NVIDIA) asks for modifiers of the
    // format's first plane whatever the tiling, and refuses the format when the driver lists none (R16_UNORM
    // there: "no supported modifiers"): no program can have such frames from that device.
    std::printf("note: FFmpeg's device refused %s frames (av_hwframe_ctx_init: %s): not scored there\n",
                io::ffmpeg_detail::pix_fmt_name(sw_fmt).c_str(), why.c_str());
    return;
  }
  ASSERT_TRUE(frames) << "av_hwframe_ctx_init: " << why;
  Vulkan gpu(ctx);
  const auto on_vulkan = scores(gpu, rv, dv, cfg);
  std::vector<frame_ptr> hw_ref, hw_dis;
  for (std::size_t i = 0; i < sw_ref.size(); ++i) {
    hw_ref.push_back(uploaded(frames.get(), *sw_ref[i]));
    hw_dis.push_back(uploaded(frames.get(), *sw_dis[i]));
  }
  const int images = stored[0].format().stored_planes();  // FFmpeg 5.1: one image per stored plane
  std::vector<plane_state> before;
  for (std::size_t i = 0; i < hw_ref.size(); ++i) {
    before.push_back(state_of(*hw_ref[i], images));
    before.push_back(state_of(*hw_dis[i], images));
  }

  const auto got = gpu_scores(gpu, *ctx, hw_ref, hw_dis, cfg);
  ASSERT_EQ(got.names, on_cpu.names);
  EXPECT_EQ(got.rows, on_vulkan.rows);
  EXPECT_EQ(got.rows, on_cpu.rows);
  EXPECT_EQ(got.aggregate, on_cpu.aggregate);

  // Each plane's semaphore reaches the value vqm signals, one above the value FFmpeg's upload left, and goes
  // no further; the layouts are those FFmpeg left. (Waited for: lavapipe may signal a submission's timeline
  // semaphores just after its fence, which finish() waited on.)
  const auto& fn = ctx->fn();
  const auto wait_for = reinterpret_cast<PFN_vkWaitSemaphores>(fn.vkGetDeviceProcAddr(ctx->device(), "vkWaitSemaphores"));
  const auto counter_of = reinterpret_cast<PFN_vkGetSemaphoreCounterValue>(
      fn.vkGetDeviceProcAddr(ctx->device(), "vkGetSemaphoreCounterValue"));
  ASSERT_TRUE(wait_for && counter_of);
  for (std::size_t k = 0; k < 2 * hw_ref.size(); ++k) {
    const AVFrame& f = k % 2 == 0 ? *hw_ref[k / 2] : *hw_dis[k / 2];
    const auto* vf = reinterpret_cast<const AVVkFrame*>(f.data[0]);
    const auto now = state_of(f, images);
    for (int i = 0; i < images; ++i) {
      SCOPED_TRACE("frame " + std::to_string(k) + " image " + std::to_string(i));
      EXPECT_EQ(now.sem_value[i], before[k].sem_value[i] + 1);
      EXPECT_EQ(now.layout[i], before[k].layout[i]);
      EXPECT_EQ(vf->access[i], VK_ACCESS_TRANSFER_READ_BIT);
      const VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &vf->sem[i], &now.sem_value[i]};
      ASSERT_EQ(wait_for(ctx->device(), &wi, 10'000'000'000ull), VK_SUCCESS);  // else FFmpeg would wait forever
      std::uint64_t counter = 0;
      ASSERT_EQ(counter_of(ctx->device(), vf->sem[i], &counter), VK_SUCCESS);
      EXPECT_EQ(counter, now.sem_value[i]);
    }
  }
  // FFmpeg reuses the frames after vqm: its download waits on the advanced values and reads the samples.
  for (std::size_t k = 0; k < 2 * hw_ref.size(); ++k) {
    frame_ptr back(av_frame_alloc());
    back->format = sw_fmt;
    ASSERT_GE(av_hwframe_transfer_data(back.get(), k % 2 == 0 ? hw_ref[k / 2].get() : hw_dis[k / 2].get(), 0), 0);
    const picture p = io::picture_of(*back);
    EXPECT_TRUE(std::equal(p.bytes().begin(), p.bytes().end(), stored[k].bytes().begin())) << "frame " << k;
  }
}

// FFmpeg's device made on vqm's context (ffmpeg_device_of): VMAF, whose adm needs shaderFloat64, and psnr.
TEST(avvkframe, vulkan_frames_on_vqms_device_score_as_the_software_frames) {
  std::string why;
  const auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  if (av_hwdevice_find_type_by_name("vulkan") == AV_HWDEVICE_TYPE_NONE)
    GTEST_SKIP() << "this FFmpeg's libavutil was built without the Vulkan hwcontext";
  const buffer_ptr dev(io::ffmpeg_device_of(ctx));
  const auto run = [&](AVPixelFormat fmt, const char* planar, chroma_layout l, std::uint32_t shift, std::uint32_t w,
                       std::uint32_t h) { expect_vulkan_frames_score_as_software(dev.get(), ctx, true, fmt, planar, l, shift, w, h); };
  run(AV_PIX_FMT_YUV420P, "yuv420p", chroma_layout::planar, 0, 320, 180);
  run(AV_PIX_FMT_YUV420P, "yuv420p", chroma_layout::planar, 0, 321, 179);
  run(AV_PIX_FMT_NV12, "yuv420p", chroma_layout::uv, 0, 320, 180);
  run(AV_PIX_FMT_YUV420P10LE, "yuv420p10le", chroma_layout::planar, 0, 320, 180);
  run(AV_PIX_FMT_P010LE, "yuv420p10le", chroma_layout::uv, 6, 320, 180);
  // FFmpeg's device runs on vqm's VkDevice and holds the context; a borrowed context's device is refused.
  const auto& vk = *static_cast<const AVVulkanDeviceContext*>(reinterpret_cast<AVHWDeviceContext*>(dev->data)->hwctx);
  EXPECT_EQ(vk.act_dev, ctx->device());
  const long users = ctx.use_count();
  { const buffer_ptr again(io::ffmpeg_device_of(ctx)); EXPECT_EQ(ctx.use_count(), users + 1); }
  EXPECT_EQ(ctx.use_count(), users);
  const auto borrowed = std::make_shared<vulkan::context>(vulkan::borrowed_device{.instance = ctx->instance(),
                                                                                  .physical_device = ctx->physical_device(),
                                                                                  .device = ctx->device(),
                                                                                  .queue_family = ctx->queue_family()});
  try {
    const buffer_ptr no(io::ffmpeg_device_of(borrowed));
    ADD_FAILURE() << "a borrowed context was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("needs a context vqm created"), std::string::npos) << e.what();
  }
}

// vqm on the device FFmpeg created (vulkan_context_of): FFmpeg 5.1 enables no shaderFloat64, so psnr alone.
TEST(avvkframe, vulkan_frames_on_ffmpegs_device_score_as_the_software_frames) {
  VQM_REQUIRE_FFMPEG_VULKAN(dev);
  const auto ctx = io::vulkan_context_of(dev.get());
  expect_vulkan_frames_score_as_software(dev.get(), ctx, false, AV_PIX_FMT_YUV420P, "yuv420p", chroma_layout::planar, 0,
                                         321, 179);
  expect_vulkan_frames_score_as_software(dev.get(), ctx, false, AV_PIX_FMT_NV12, "yuv420p", chroma_layout::uv, 0, 320,
                                         180);
  expect_vulkan_frames_score_as_software(dev.get(), ctx, false, AV_PIX_FMT_P010LE, "yuv420p10le", chroma_layout::uv, 6,
                                         320, 180, true);
}

// vqm's context runs on FFmpeg's VkDevice and holds a reference to FFmpeg's device while it lives.
TEST(avvkframe, the_context_runs_on_ffmpegs_device_and_keeps_it) {
  VQM_REQUIRE_FFMPEG_VULKAN(dev);
  const auto& vk = *static_cast<const AVVulkanDeviceContext*>(reinterpret_cast<AVHWDeviceContext*>(dev->data)->hwctx);
  const int refs = av_buffer_get_ref_count(dev.get());
  {
    const auto ctx = io::vulkan_context_of(dev.get());
    EXPECT_EQ(ctx->device(), vk.act_dev);
    EXPECT_EQ(ctx->physical_device(), vk.phys_dev);
    EXPECT_EQ(ctx->queue_family(), static_cast<std::uint32_t>(vk.queue_family_comp_index));
    EXPECT_EQ(av_buffer_get_ref_count(dev.get()), refs + 1);
  }
  EXPECT_EQ(av_buffer_get_ref_count(dev.get()), refs);
  try {
    (void)io::vulkan_context_of(nullptr);
    ADD_FAILURE() << "a null device was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("null device reference"), std::string::npos) << e.what();
  }
}

std::string refusal(const AVFrame& f, const vulkan::context& ctx, errc* code = nullptr) {
  try {
    (void)io::gpu_picture_of(f, ctx, "dis.mkv frame 7");
  } catch (const error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return {};
}

TEST(avvkframe, what_cannot_be_scored_is_refused_naming_the_frame) {
  VQM_REQUIRE_FFMPEG_VULKAN(dev);
  const auto ctx = io::vulkan_context_of(dev.get());
  errc code{};
  {  // a software frame: view_of is for those
    const auto sw = frame_of(synthetic(make_format(*find_pixel_format("yuv420p"), 64, 64), 0, 0), AV_PIX_FMT_YUV420P);
    EXPECT_EQ(refusal(*sw, *ctx, &code).rfind("dis.mkv frame 7: is not a Vulkan frame (yuv420p); pass a software "
                                              "frame with view_of()", 0), 0u);
    EXPECT_EQ(code, errc::unsupported_format);
    EXPECT_THROW(io::mark_pushed(*sw), error);
  }
  {  // a Vulkan frame without its frames context
    frame_ptr bare(av_frame_alloc());
    bare->format = AV_PIX_FMT_VULKAN;
    EXPECT_EQ(refusal(*bare, *ctx, &code), "dis.mkv frame 7: is a Vulkan frame without hw_frames_ctx");
    EXPECT_EQ(code, errc::invalid_argument);
  }
  {  // a frame of another FFmpeg device (another VkDevice)
    std::string why;
    const auto other = ffmpeg_vulkan_device(why);
    ASSERT_TRUE(other) << why;
    const auto frames = frames_context(other.get(), AV_PIX_FMT_YUV420P, 64, 64, &why);
    ASSERT_TRUE(frames) << why;
    const auto f = vulkan_frame(frames.get());
    EXPECT_NE(refusal(*f, *ctx, &code).find("dis.mkv frame 7: is on another VkDevice than vqm's context"),
              std::string::npos);
    EXPECT_EQ(code, errc::invalid_argument);
  }
  std::string why;
  const auto frames = frames_context(dev.get(), AV_PIX_FMT_YUV420P, 64, 64, &why);
  ASSERT_TRUE(frames) << why;
  {  // an unknown tiling
    const auto f = vulkan_frame(frames.get());
    auto* vf = reinterpret_cast<AVVkFrame*>(f->data[0]);
    const VkImageTiling was = vf->tiling;
    vf->tiling = static_cast<VkImageTiling>(12345);
    EXPECT_NE(refusal(*f, *ctx, &code).find("dis.mkv frame 7: its images have tiling 12345"), std::string::npos);
    EXPECT_EQ(code, errc::unsupported_format);
    vf->tiling = was;
    EXPECT_EQ(refusal(*f, *ctx), "");  // the same frame, its tiling restored, is accepted
  }
  {  // larger than its images
    const auto f = vulkan_frame(frames.get());
    f->width = 66;
    EXPECT_NE(refusal(*f, *ctx, &code).find("is 66x64, larger than its frames context's 64x64 images"),
              std::string::npos);
    EXPECT_EQ(code, errc::invalid_argument);
  }
  // FFmpeg may refuse these frames contexts itself on some devices: their refusals are checked where it does not.
  if (const auto rgba = frames_context(dev.get(), AV_PIX_FMT_RGBA, 64, 64)) {
    const auto f = vulkan_frame(rgba.get());
    const auto msg = refusal(*f, *ctx, &code);
    EXPECT_NE(msg.find("dis.mkv frame 7: Vulkan frames of sw_format rgba are not supported"), std::string::npos) << msg;
    EXPECT_NE(msg.find("convert to yuv444p"), std::string::npos) << msg;
    EXPECT_EQ(code, errc::unsupported_format);
  }
  if (const auto no_src = frames_context(dev.get(), AV_PIX_FMT_YUV420P, 64, 64, nullptr,
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT)) {
    const auto f = vulkan_frame(no_src.get());
    EXPECT_NE(refusal(*f, *ctx, &code).find("usage lacks VK_IMAGE_USAGE_TRANSFER_SRC_BIT"), std::string::npos);
    EXPECT_EQ(code, errc::invalid_argument);
  }
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
