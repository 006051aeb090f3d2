// FFmpeg's Vulkan hardware frames (AVFrame of format AV_PIX_FMT_VULKAN, data[0] an AVVkFrame) scored where
// they are, with no host copy (components vqm::ffmpeg and vqm::vulkan):
//
//   auto ctx = std::make_shared<vqm::vulkan::context>();
//   AVBufferRef* dev = vqm::io::ffmpeg_device_of(ctx);   // FFmpeg on vqm's VkDevice: decoder, hwupload, filters
//   // or: auto ctx = vqm::io::vulkan_context_of(dev);   // vqm on FFmpeg's VkDevice (5.1's lack shaderFloat64)
//   vqm::Vulkan gpu(ctx);
//   vqm::session s(gpu, format, cfg);
//   s.push(vqm::io::gpu_picture_of(*ref, *ctx, "ref frame 12"), vqm::io::gpu_picture_of(*dis, *ctx, "dis frame 12"));
//   vqm::io::mark_pushed(*ref);  // once per AVFrame and push, right after it: FFmpeg's next use of the
//   vqm::io::mark_pushed(*dis);  // frame then waits for vqm's copies
//
// gpu_picture_of describes the frame's images (one per plane in FFmpeg 5.1: R8/R16, R8G8/R16G16 for the
// interleaved chroma of nv12/p010; a single multi-planar image where the frame has one VkImage for several
// planes, as later FFmpeg versions allocate) and its per-plane timeline semaphores: vqm's submission waits
// for sem[i] to reach sem_value[i] and signals sem_value[i] + 1. mark_pushed stores sem_value[i] + 1 back
// into the AVVkFrame, the protocol hwcontext_vulkan.h asks of every user. vqm puts each image back in the
// layout it found (layout[i] stays) and records TRANSFER_READ as its last access. Lifetime and threading
// rules: docs/vulkan.md "FFmpeg's Vulkan frames".
#pragma once

extern "C" {
#include <libavutil/buffer.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_vulkan.h>
}

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/io/ffmpeg_detail.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/device_features.hpp"
#include "vqm/vulkan/gpu_picture.hpp"

namespace vqm::io {

// A vqm context on the VkDevice of FFmpeg's Vulkan device (av_hwdevice_ctx_create(AV_HWDEVICE_TYPE_VULKAN),
// a decoder's hw_device_ctx, or frames' hw_frames_ctx->device_ref): FFmpeg's instance, physical device,
// features and first queue of its compute family. The context holds a reference to the device, so the
// device outlives it. errc::invalid_argument for a null or non-Vulkan device.
[[nodiscard]] inline std::shared_ptr<vulkan::context> vulkan_context_of(AVBufferRef* device_ref,
                                                                        const vulkan::context_options& o = {}) {
  const auto* dev = device_ref ? reinterpret_cast<const AVHWDeviceContext*>(device_ref->data) : nullptr;
  const auto type_name = [](AVHWDeviceType t) {
    const char* n = av_hwdevice_get_type_name(t);
    return std::string(n ? n : "of no known type");
  };
  if (!dev || dev->type != AV_HWDEVICE_TYPE_VULKAN)
    throw error(errc::invalid_argument, std::string("vqm::io::vulkan_context_of: ") +
                                            (dev ? "the device is " + type_name(dev->type) +
                                                       ", not Vulkan (create it with AV_HWDEVICE_TYPE_VULKAN)"
                                                 : "null device reference"));
  const auto* vk = static_cast<const AVVulkanDeviceContext*>(dev->hwctx);
  if (vk->queue_family_comp_index < 0 || vk->nb_comp_queues < 1)
    throw error(errc::invalid_argument, "vqm::io::vulkan_context_of: FFmpeg's Vulkan device has no compute queue");
  const vulkan::borrowed_device b{.instance = vk->inst,
                                  .physical_device = vk->phys_dev,
                                  .device = vk->act_dev,
                                  .queue_family = static_cast<std::uint32_t>(vk->queue_family_comp_index),
                                  .queue_index = 0,
                                  .get_instance_proc_addr = vk->get_proc_addr,
                                  .enabled_features = &vk->device_features};
  AVBufferRef* held = av_buffer_ref(device_ref);
  if (!held) throw error(errc::device, "vqm::io::vulkan_context_of: av_buffer_ref failed (out of memory)");
  try {
    auto* c = new vulkan::context(b, o);
    return std::shared_ptr<vulkan::context>(c, [held](vulkan::context* p) mutable {
      delete p;  // first: its destructor waits for the device
      av_buffer_unref(&held);
    });
  } catch (...) {
    av_buffer_unref(&held);
    throw;
  }
}

namespace avvk_detail {

// What an FFmpeg device made on vqm's context holds: the context, and the feature chain FFmpeg reads.
struct device_holder {
  std::shared_ptr<vulkan::context> ctx;
  vulkan::detail::feature_chain features;
};

}  // namespace avvk_detail

// The other way round: an FFmpeg Vulkan device (AVBufferRef, AV_HWDEVICE_TYPE_VULKAN) on the VkDevice of a
// context vqm created, for a decoder's hw_device_ctx, av_hwframe_ctx_alloc or the Vulkan filters. Use it
// where vqm's metrics need features FFmpeg does not enable on devices it creates (FFmpeg 5.1 enables no
// shaderFloat64, which VMAF's adm needs). FFmpeg uses vqm's one queue (all of its queue families are the
// context's compute family) and the features vqm enabled; the device holds the context until FFmpeg frees
// it. errc::invalid_argument for a context on a borrowed device (create FFmpeg's device from your own
// handles), errc::backend_unavailable naming FFmpeg's reason if av_hwdevice_ctx_init refuses.
[[nodiscard]] inline AVBufferRef* ffmpeg_device_of(const std::shared_ptr<vulkan::context>& ctx) {
  if (!ctx || !ctx->owns_device())
    throw error(errc::invalid_argument, "vqm::io::ffmpeg_device_of: needs a context vqm created (for a borrowed "
                                        "device, fill AVVulkanDeviceContext from your own handles)");
  AVBufferRef* ref = av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_VULKAN);
  if (!ref) throw error(errc::device, "vqm::io::ffmpeg_device_of: av_hwdevice_ctx_alloc failed");
  auto* dev = reinterpret_cast<AVHWDeviceContext*>(ref->data);
  auto* holder = new avvk_detail::device_holder;
  holder->ctx = ctx;
  vulkan::detail::enable_supported(ctx->fn(), ctx->physical_device(), holder->features);  // as create_device
  dev->user_opaque = holder;
  dev->free = [](AVHWDeviceContext* d) { delete static_cast<avvk_detail::device_holder*>(d->user_opaque); };
  auto& vk = *static_cast<AVVulkanDeviceContext*>(dev->hwctx);
  vk.get_proc_addr = ctx->fn().vkGetInstanceProcAddr;
  vk.inst = ctx->instance();
  vk.phys_dev = ctx->physical_device();
  vk.act_dev = ctx->device();
  vk.device_features = holder->features.base;
  const int family = static_cast<int>(ctx->queue_family());
  std::uint32_t n = 0;
  ctx->fn().vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device(), &n, nullptr);
  std::vector<VkQueueFamilyProperties> q(n);
  ctx->fn().vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device(), &n, q.data());
  const bool graphics = q[ctx->queue_family()].queueFlags & VK_QUEUE_GRAPHICS_BIT;
  vk.queue_family_index = graphics ? family : -1;
  vk.nb_graphics_queues = graphics ? 1 : 0;
  vk.queue_family_tx_index = vk.queue_family_comp_index = family;
  vk.nb_tx_queues = vk.nb_comp_queues = 1;
  vk.queue_family_encode_index = vk.queue_family_decode_index = -1;
  if (const int err = av_hwdevice_ctx_init(ref); err < 0) {
    av_buffer_unref(&ref);  // frees the holder through dev->free
    throw error(errc::backend_unavailable,
                "vqm::io::ffmpeg_device_of: av_hwdevice_ctx_init refused vqm's device: " + ffmpeg_detail::av_error_text(err));
  }
  return ref;
}

namespace avvk_detail {

[[nodiscard]] inline AVVkFrame* vk_frame(const AVFrame& f) noexcept {
  return reinterpret_cast<AVVkFrame*>(f.data[0]);
}

// Images of the frame: one per stored plane, or one multi-planar image for all of them.
[[nodiscard]] inline int image_count(const AVVkFrame& vf, int planes) noexcept {
  return planes > 1 && vf.img[1] == VK_NULL_HANDLE ? 1 : planes;
}

}  // namespace avvk_detail

// The frame as a gpu_picture for a backend on `ctx` (which must run on the frame's VkDevice: vulkan_context_of
// its device). Refused with one line naming `what`: not a Vulkan frame, another device, an sw_format vqm does
// not measure, an unknown tiling, images without TRANSFER_SRC usage, more semaphores than a gpu_picture holds.
[[nodiscard]] inline vulkan::gpu_picture gpu_picture_of(const AVFrame& f, const vulkan::context& ctx,
                                                        std::string_view what = "frame") {
  const std::string w(what);
  const auto fail = [&w](errc c, const std::string& why) { throw error(c, w + ": " + why); };
  if (f.format != AV_PIX_FMT_VULKAN)
    fail(errc::unsupported_format,
         "is not a Vulkan frame (" + ffmpeg_detail::pix_fmt_name(f.format) +
             "); pass a software frame with view_of(), map a hardware frame to Vulkan with av_hwframe_map(), or "
             "download it with av_hwframe_transfer_data()");
  if (!f.hw_frames_ctx) fail(errc::invalid_argument, "is a Vulkan frame without hw_frames_ctx");
  if (!f.data[0])
    fail(errc::invalid_argument, "holds no picture (data[0], the AVVkFrame, is null: a frame after av_frame_unref())");
  const auto& fc = *reinterpret_cast<const AVHWFramesContext*>(f.hw_frames_ctx->data);
  const auto& dc = *static_cast<const AVVulkanDeviceContext*>(fc.device_ctx->hwctx);
  const auto& vfc = *static_cast<const AVVulkanFramesContext*>(fc.hwctx);
  const AVVkFrame& vf = *avvk_detail::vk_frame(f);
  if (dc.act_dev != ctx.device())
    fail(errc::invalid_argument, "is on another VkDevice than vqm's context (create the context from the frames' "
                                 "device: vqm::io::vulkan_context_of(frames->device_ref))");
  const auto stored = ffmpeg_detail::stored_format(fc.sw_format);
  if (!stored)
    fail(errc::unsupported_format,
         "Vulkan frames of sw_format " + ffmpeg_detail::pix_fmt_name(fc.sw_format) +
             " are not supported (vqm measures planar or semi-planar YUV or gray at 8, 10, 12 or 16 bits); convert "
             "to " + ffmpeg_detail::suggested_pix_fmt(fc.sw_format) + " first (e.g. the scale_vulkan filter's format)");
  if (vf.tiling != VK_IMAGE_TILING_OPTIMAL && vf.tiling != VK_IMAGE_TILING_LINEAR &&
      vf.tiling != VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT)
    fail(errc::unsupported_format, "its images have tiling " + std::to_string(static_cast<int>(vf.tiling)) +
                                       ", which vqm does not copy from (optimal, linear or DRM-modifier tiling)");
  if (vfc.usage && !(vfc.usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
    fail(errc::invalid_argument, "its frames context's usage lacks VK_IMAGE_USAGE_TRANSFER_SRC_BIT (vqm copies "
                                 "from the images; leave AVVulkanFramesContext::usage 0 or add the bit)");
  picture_format pf = *stored;
  pf.width = static_cast<std::uint32_t>(f.width > 0 ? f.width : 0);
  pf.height = static_cast<std::uint32_t>(f.height > 0 ? f.height : 0);
  check_geometry(w, pf);
  if (f.width > fc.width || f.height > fc.height)
    fail(errc::invalid_argument, "is " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                                     ", larger than its frames context's " + std::to_string(fc.width) + "x" +
                                     std::to_string(fc.height) + " images");
  const int planes = pf.stored_planes();
  const int images = avvk_detail::image_count(vf, planes);
  if (static_cast<std::size_t>(images) > vulkan::gpu_picture::max_waits)
    fail(errc::unsupported_format, std::to_string(images) + " images: more semaphores than a gpu_picture holds");
  vulkan::gpu_picture g{};
  g.device = ctx.device();
  g.format = pf;
  static constexpr VkImageAspectFlagBits plane_aspect[] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                                           VK_IMAGE_ASPECT_PLANE_2_BIT};
  for (int p = 0; p < planes; ++p) {
    const int i = images == 1 ? 0 : p;
    if (vf.img[i] == VK_NULL_HANDLE || vf.sem[i] == VK_NULL_HANDLE)
      fail(errc::invalid_argument, "plane " + std::to_string(p) + " has no VkImage or semaphore in its AVVkFrame");
    g.planes[p].image = vf.img[i];
    g.planes[p].layout = vf.layout[i];
    g.planes[p].aspect = images == 1 && planes > 1 ? plane_aspect[p] : VK_IMAGE_ASPECT_COLOR_BIT;
  }
  for (int i = 0; i < images; ++i) {
    g.wait[i] = {vf.sem[i], vf.sem_value[i]};
    g.signals[i] = {vf.sem[i], vf.sem_value[i] + 1};
  }
  g.wait_count = g.signal_count = static_cast<std::uint32_t>(images);
  return g;
}

// After the push that took gpu_picture_of(f) (once per AVFrame, even when it was both the reference and
// the distorted): the AVVkFrame's sem_value[i] become the values vqm's submission signals, and access[i]
// vqm's transfer read (layout[i] is unchanged: vqm puts the images back in it).
inline void mark_pushed(AVFrame& f) {
  if (f.format != AV_PIX_FMT_VULKAN || !f.data[0] || !f.hw_frames_ctx)
    throw error(errc::invalid_argument, "vqm::io::mark_pushed: not a Vulkan frame");
  const auto& fc = *reinterpret_cast<const AVHWFramesContext*>(f.hw_frames_ctx->data);
  const auto stored = ffmpeg_detail::stored_format(fc.sw_format);
  AVVkFrame& vf = *avvk_detail::vk_frame(f);
  const int images = avvk_detail::image_count(vf, stored ? stored->stored_planes() : 1);
  for (int i = 0; i < images; ++i) {
    ++vf.sem_value[i];
    vf.access[i] = VK_ACCESS_TRANSFER_READ_BIT;
  }
}

}  // namespace vqm::io
