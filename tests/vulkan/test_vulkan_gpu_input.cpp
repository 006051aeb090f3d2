// GPU-resident input (vulkan::gpu_picture): pictures in the caller's VkBuffers / VkImages score exactly as
// the same pictures from host memory (every registry metric: psnr, float_psnr, float_ssim, float_ms_ssim,
// psnr_hvs, adm, vif, motion; per frame, series and aggregates; ==), planar, semi-planar and MSB-aligned,
// odd sizes and libvmaf's floor chroma, frames in flight; the caller's semaphores (binary and timeline)
// order the caller's writes before vqm's copies and vqm's frame before the caller's next use; under the
// validation layer. A multi-planar image format the device cannot hold is skipped, saying why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/semi_planar.hpp"
#include "gpu_input_util.hpp"
#include "vk_test_util.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

template <class R, class D>
run_values score_pics(Vulkan& gpu, const std::vector<feature_request>& features, const picture_format& f,
                      const std::vector<R>& refs, const std::vector<D>& dis, compat c) {
  return score_stream(gpu, features, f, refs, dis, c, gpu.frames_in_flight());
}

// A stream of pairs stored as `f`, on the host and in the caller's GPU memory.
struct streams {
  std::vector<picture> ref, dis;
  std::vector<gpu_resident> gref, gdis;
  std::vector<vulkan::buffer> staging;
  [[nodiscard]] std::vector<vulkan::gpu_picture> pics(const std::vector<gpu_resident>& g) const {
    std::vector<vulkan::gpu_picture> out;
    for (const auto& r : g) out.push_back(r.pic);
    return out;
  }
};

streams make_streams(const vulkan::context& ctx, const picture_format& f, int frames, storage where, VkImageLayout layout,
                     std::uint32_t pad) {
  streams s;
  vulkan::one_shot os(ctx);
  for (int i = 0; i < frames; ++i) {
    s.ref.push_back(repack(synthetic(f, i, false), f));
    s.dis.push_back(repack(synthetic(f, i, true), f));
    s.gref.push_back(make_resident(ctx, os, s.ref.back(), where, layout, pad, s.staging));
    s.gdis.push_back(make_resident(ctx, os, s.dis.back(), where, layout, pad, s.staging));
  }
  os.submit_and_wait();
  return s;
}

// Every metric that measures f, from the caller's GPU memory and from the host: identical values.
void check(Vulkan& gpu, const std::string& name, std::uint32_t w, std::uint32_t h, storage where,
           VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL, compat c = compat::none, std::uint32_t pad = 0) {
  const picture_format f = make_format(*find_pixel_format(name), w, h);
  const auto features = supported<Vulkan>(all_features, planar_equivalent(f), c);
  ASSERT_FALSE(features.empty());
  const streams s = make_streams(gpu.context(), f, 4, where, layout, pad);
  const auto want = score_pics(gpu, features, f, s.ref, s.dis, c);
  const std::string what = name + " " + std::to_string(w) + "x" + std::to_string(h) + " storage " +
                           std::to_string(static_cast<int>(where)) + " layout " + std::to_string(layout);
  expect_same(score_pics(gpu, features, f, s.pics(s.gref), s.pics(s.gdis), c), want, what);
  expect_same(score_pics(gpu, features, f, s.ref, s.pics(s.gdis), c), want, what + " (host ref)");
  expect_same(score_pics(gpu, features, f, s.pics(s.gref), s.dis, c), want, what + " (host dis)");
  ASSERT_FALSE(want.values.empty());
}

TEST(gpu_input_vulkan, buffers_score_as_host_memory) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"yuv420p", "nv12", "p010"})
    check(gpu, name, 181, 177, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, compat::none, 12);
  for (const char* name : {"yuv420p10", "nv21", "yuv444p12", "gray"})
    check(gpu, name, 77, 45, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, compat::none, 2);
  check(gpu, "yuv420p", 67, 33, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, compat::libvmaf, 0);
  check(gpu, "nv12", 35, 37, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, compat::libvmaf, 4);
}

TEST(gpu_input_vulkan, single_plane_images_score_as_host_memory) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"yuv420p", "nv12", "p010", "yuv422p10"}) {
    const picture_format f = make_format(*find_pixel_format(name), 8, 8);
    for (int p = 0; p < f.stored_planes(); ++p)
      if (auto why = image_format_problem(*ctx, image_format(f, p, false), false); !why.empty())
        GTEST_SKIP() << name << ": " << why;
    check(gpu, name, name == std::string("nv12") ? 181 : 77, name == std::string("nv12") ? 177 : 45, storage::images,
          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    check(gpu, name, 64, 36, storage::images, VK_IMAGE_LAYOUT_GENERAL, compat::libvmaf);
  }
}

// NV12 / P010 as one multi-planar image (what Vulkan Video decode and FFmpeg's hwcontext produce).
TEST(gpu_input_vulkan, multi_planar_images_score_as_host_memory) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  std::string skipped;
  int ran = 0;
  for (const char* name : {"nv12", "p010", "p016"}) {
    const picture_format f = make_format(*find_pixel_format(name), 8, 8);
    if (auto why = image_format_problem(*ctx, image_format(f, 0, true), true); !why.empty()) {
      skipped += std::string(" ") + name + ": " + why + ";";
      continue;
    }
    check(gpu, name, 180, 176, storage::multi_planar_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    check(gpu, name, 64, 36, storage::multi_planar_image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, compat::libvmaf);
    ++ran;
  }
  if (!skipped.empty()) std::printf("[ SKIPPED  ] multi-planar formats:%s\n", skipped.c_str());
  if (ran == 0) GTEST_SKIP() << "no multi-planar format usable:" << skipped;
}

vulkan::handle<VkSemaphore> make_semaphore(const vulkan::context& ctx, bool timeline) {
  VkSemaphoreTypeCreateInfo ti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, timeline ? &ti : nullptr, 0};
  VkSemaphore sem = VK_NULL_HANDLE;
  vulkan::check(ctx.fn().vkCreateSemaphore(ctx.device(), &ci, nullptr, &sem), "creating a test semaphore");
  return {ctx.device(), sem, ctx.fn().vkDestroySemaphore};
}

// One submission of the caller's: waits on `wait` (value for a timeline), signals `signal`, then its fence.
void caller_submit(const vulkan::context& ctx, VkCommandBuffer cb, VkSemaphore wait, std::uint64_t wait_value,
                   VkSemaphore signal, std::uint64_t signal_value, VkFence fence) {
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, wait ? 1u : 0u, &wait_value,
                                   signal ? 1u : 0u, &signal_value};
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.pNext = (wait_value || signal_value) ? &ti : nullptr;
  si.waitSemaphoreCount = wait ? 1 : 0;
  si.pWaitSemaphores = &wait;
  si.pWaitDstStageMask = &stage;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  si.signalSemaphoreCount = signal ? 1 : 0;
  si.pSignalSemaphores = &signal;
  ctx.submit(si, fence);
}

// Frame i's pictures are written by a submission of the caller's just before it is pushed (vqm waits on
// its semaphore, nothing waits on the host), and rewritten by a later one waiting on vqm's signal.
void check_semaphores(Vulkan& gpu, bool timeline) {
  const auto& ctx = gpu.context();
  const picture_format f = make_format(*find_pixel_format("nv12"), 181, 177);
  const auto features = supported<Vulkan>(all_features, planar_equivalent(f), compat::none);
  constexpr int frames = 5;
  streams s;
  vulkan::command_pool pool(ctx);
  std::vector<vulkan::handle<VkSemaphore>> written, done;
  const auto tl = make_semaphore(ctx, true);
  scorer<Vulkan> sc(gpu, make_metrics<Vulkan>(features, f, compat::none), compat::none, gpu.frames_in_flight());
  run_values got;
  auto take = [&](const frame_result& r) {
    for (std::size_t k = 0; k < r.values.size(); ++k) {
      got.names.push_back(sc.names()[k] + " frame " + std::to_string(r.index));
      got.values.push_back(r.values[k]);
    }
  };
  for (int i = 0; i < frames; ++i) {
    s.ref.push_back(repack(synthetic(f, i, false), f));
    s.dis.push_back(repack(synthetic(f, i, true), f));
    const VkCommandBuffer cb = pool.allocate();
    vulkan::begin(ctx, cb);
    s.gref.push_back(make_resident(ctx, cb, s.ref.back(), storage::buffers, VK_IMAGE_LAYOUT_GENERAL, 8, s.staging));
    s.gdis.push_back(make_resident(ctx, cb, s.dis.back(), storage::buffers, VK_IMAGE_LAYOUT_GENERAL, 0, s.staging));
    vulkan::end(ctx, cb);
    auto ref = s.gref.back().pic, dis = s.gdis.back().pic;
    const auto n = static_cast<std::uint64_t>(i);
    if (timeline) {
      caller_submit(ctx, cb, VK_NULL_HANDLE, 0, tl, 2 * n + 1, VK_NULL_HANDLE);
      ref.wait[0] = dis.wait[0] = {tl, 2 * n + 1};
      ref.signal = dis.signal = {tl, 2 * n + 2};  // one semaphore for both: signalled once
    } else {
      written.push_back(make_semaphore(ctx, false));
      done.push_back(make_semaphore(ctx, false));
      caller_submit(ctx, cb, VK_NULL_HANDLE, 0, written.back(), 0, VK_NULL_HANDLE);
      ref.wait[0] = dis.wait[0] = {written.back(), 0};  // one semaphore for both: waited on once
      dis.signals[0] = {done.back(), 0};  // the list of signals (one per plane for FFmpeg's frames)
      dis.signal_count = 1;
    }
    ref.wait_count = dis.wait_count = 1;
    if (auto r = sc.push(ref, dis)) take(*r);
  }
  while (auto r = sc.pop()) take(*r);
  for (const auto& [name, series] : sc.finish())
    for (std::size_t i = 0; i < series.size(); ++i) {
      got.names.push_back(name + " frame " + std::to_string(i));
      got.values.push_back(series[i]);
    }
  for (const auto& [name, v] : sc.aggregate()) {
    got.names.push_back(name);
    got.values.push_back(v);
  }
  // The caller reuses each frame's distorted buffers once vqm's frame has signalled.
  for (int i = 0; i < frames; ++i) {
    vulkan::fence reused(ctx);
    const VkCommandBuffer cb = pool.allocate();
    vulkan::begin(ctx, cb);
    const auto& pl = s.gdis[static_cast<std::size_t>(i)].pic.planes[0];
    ctx.fn().vkCmdFillBuffer(cb, pl.buffer, pl.offset, pl.row_pitch * f.height / 4 * 4, 0);
    vulkan::end(ctx, cb);
    if (timeline) caller_submit(ctx, cb, tl, 2 * static_cast<std::uint64_t>(i) + 2, VK_NULL_HANDLE, 0, reused);
    else caller_submit(ctx, cb, done[static_cast<std::size_t>(i)], 0, VK_NULL_HANDLE, 0, reused);
    reused.wait();
  }
  expect_same(got, score_pics(gpu, features, f, s.ref, s.dis, compat::none), timeline ? "timeline" : "binary");
}

TEST(gpu_input_vulkan, the_callers_binary_semaphores) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  check_semaphores(gpu, false);
}

TEST(gpu_input_vulkan, the_callers_timeline_semaphore) {
  VQM_REQUIRE_VULKAN(ctx);
  if (!ctx->features().timeline_semaphore) GTEST_SKIP() << "the device lacks timelineSemaphore";
  Vulkan gpu(ctx);
  check_semaphores(gpu, true);
}

// A frame with nothing to measure still waits on and signals the caller's semaphores.
TEST(gpu_input_vulkan, a_frame_without_metrics_passes_the_semaphores) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  const streams s = make_streams(*ctx, make_format(*find_pixel_format("nv12"), 32, 32), 1, storage::buffers,
                                 VK_IMAGE_LAYOUT_GENERAL, 0);
  const auto written = make_semaphore(*ctx, false), done = make_semaphore(*ctx, false);
  vulkan::command_pool pool(*ctx);
  const VkCommandBuffer cb = pool.allocate();
  vulkan::begin(*ctx, cb);
  vulkan::end(*ctx, cb);
  caller_submit(*ctx, cb, VK_NULL_HANDLE, 0, written, 0, VK_NULL_HANDLE);
  auto dis = s.gdis[0].pic;
  dis.wait[0] = {written, 0};
  dis.wait_count = 1;
  dis.signal = {done, 0};
  auto f = gpu.begin_frame(s.gref[0].pic, dis);
  gpu.submit(f);
  gpu.wait(f);
  vulkan::fence after(*ctx);
  const VkCommandBuffer cb2 = pool.allocate();
  vulkan::begin(*ctx, cb2);
  vulkan::end(*ctx, cb2);
  caller_submit(*ctx, cb2, done, 0, VK_NULL_HANDLE, 0, after);
  after.wait();
}

// The validation layer watches the copies, the layout transitions and the semaphores: no error.
TEST(gpu_input_vulkan, runs_without_validation_errors) {
  VQM_REQUIRE_VULKAN(probe);
  auto ctx = std::make_shared<vulkan::context>(vulkan::context_options{-1, true, false});
  {
    Vulkan gpu(ctx);
    check(gpu, "p010", 67, 33, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, compat::libvmaf, 6);
    check(gpu, "nv12", 64, 36, storage::images, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    if (image_format_problem(*ctx, image_format(make_format(*find_pixel_format("nv12"), 8, 8), 0, true), true).empty())
      check(gpu, "nv12", 64, 36, storage::multi_planar_image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    check_semaphores(gpu, false);
    if (ctx->features().timeline_semaphore) check_semaphores(gpu, true);
  }
  {
    // The empty-frame submission too.
    Vulkan gpu(ctx);
    const streams s = make_streams(*ctx, make_format(*find_pixel_format("nv12"), 32, 32), 1, storage::buffers,
                                   VK_IMAGE_LAYOUT_GENERAL, 0);
    const auto written = make_semaphore(*ctx, false);
    vulkan::fence after(*ctx);
    auto dis = s.gdis[0].pic;
    dis.wait[0] = {written, 0};
    dis.wait_count = 1;
    vulkan::command_pool pool(*ctx);
    const VkCommandBuffer cb = pool.allocate();
    vulkan::begin(*ctx, cb);
    vulkan::end(*ctx, cb);
    caller_submit(*ctx, cb, VK_NULL_HANDLE, 0, written, 0, VK_NULL_HANDLE);
    auto f = gpu.begin_frame(s.gref[0].pic, dis);
    gpu.submit(f);
    ctx->submit(VkSubmitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr}, after);
    after.wait();
  }
  EXPECT_EQ(ctx->validation_errors(), 0u) << [&] {
    std::string all;
    for (const auto& m : ctx->validation_messages()) all += m + "\n";
    return all;
  }();
}

// record()/collect(): the copies go into the caller's command buffer; semaphores are refused there.
TEST(gpu_input_vulkan, records_into_the_callers_command_buffer) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  const picture_format f = make_format(*find_pixel_format("p010"), 67, 45);
  const streams s = make_streams(*ctx, f, 1, storage::buffers, VK_IMAGE_LAYOUT_GENERAL, 2);
  const Psnr<Vulkan> psnr(f);
  const Ssim<Vulkan> ssim(f);
  auto fr = gpu.begin_frame(s.gref[0].pic, s.gdis[0].pic);
  sse_partials sp;
  ssim_partials ss;
  psnr.enqueue(gpu, fr, sp);
  ssim.enqueue(gpu, fr, ss);
  vulkan::one_shot cmd(*ctx);  // the caller's command buffer and fence
  gpu.record(fr, cmd);
  cmd.submit_and_wait();
  gpu.collect(fr);
  std::vector<double> got(4), got_ssim(4);
  psnr.scores(sp, got.data());
  ssim.scores(ss, got_ssim.data());
  EXPECT_EQ(std::vector<double>(got.begin(), got.begin() + 3), compute(gpu, psnr, s.ref[0], s.dis[0]));
  EXPECT_EQ(got_ssim[0], compute(gpu, ssim, s.ref[0], s.dis[0])[0]);
  const auto sem = make_semaphore(*ctx, false);
  auto dis = s.gdis[0].pic;
  dis.signal = {sem, 0};
  auto refused = gpu.begin_frame(s.gref[0].pic, dis);
  psnr.enqueue(gpu, refused, sp);
  vulkan::one_shot cmd2(*ctx);
  EXPECT_THROW(gpu.record(refused, cmd2), error);
}

TEST(gpu_input_vulkan, the_device_and_the_planes_are_checked) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  const streams s = make_streams(*ctx, make_format(*find_pixel_format("yuv420p"), 32, 32), 1, storage::buffers,
                                 VK_IMAGE_LAYOUT_GENERAL, 0);
  auto bad = s.gdis[0].pic;
  bad.device = VK_NULL_HANDLE;
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
  bad = s.gdis[0].pic;
  bad.planes[1].row_pitch = 3;
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
  bad = s.gdis[0].pic;
  bad.planes[2].image = reinterpret_cast<VkImage>(bad.planes[2].buffer);  // both set
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
  bad = s.gdis[0].pic;
  bad.wait_count = 1;  // a null semaphore
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
  bad = s.gdis[0].pic;
  bad.signal_count = 1;  // a null semaphore to signal
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
  bad.signal_count = vulkan::gpu_picture::max_signals + 1;
  EXPECT_THROW((void)gpu.begin_frame(s.gref[0].pic, bad), error);
}

}  // namespace
}  // namespace vqm::test
