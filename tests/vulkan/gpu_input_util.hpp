// The caller's side of GPU-resident input in the tests: a host picture put into the caller's own
// VkBuffers or VkImages (single-plane R8/R16 + R8G8/R16G16 images, or one multi-planar NV12/P010 image)
// by a submission of the caller's, described as a vulkan::gpu_picture.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/gpu_picture.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::test {

// A caller-owned image with its memory.
struct caller_image {
  vulkan::handle<VkImage> image;
  vulkan::handle<VkDeviceMemory> memory;
};

inline caller_image make_image(const vulkan::context& ctx, VkFormat format, std::uint32_t w, std::uint32_t h) {
  const auto& fn = ctx.fn();
  VkImageCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {w, h, 1};
  ci.mipLevels = ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;  // sampled: SHADER_READ_ONLY layouts
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage img = VK_NULL_HANDLE;
  vulkan::check(fn.vkCreateImage(ctx.device(), &ci, nullptr, &img), "creating a test image");
  caller_image out;
  out.image = vulkan::handle<VkImage>(ctx.device(), img, fn.vkDestroyImage);
  VkMemoryRequirements req{};
  fn.vkGetImageMemoryRequirements(ctx.device(), img, &req);
  const auto& mp = ctx.memory_properties();
  std::uint32_t type = 0;
  for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if (req.memoryTypeBits & (1u << i)) {
      type = i;
      if (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) break;
    }
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  VkDeviceMemory m = VK_NULL_HANDLE;
  vulkan::check(fn.vkAllocateMemory(ctx.device(), &ai, nullptr, &m), "allocating test image memory");
  out.memory = vulkan::handle<VkDeviceMemory>(ctx.device(), m, fn.vkFreeMemory);
  vulkan::check(fn.vkBindImageMemory(ctx.device(), img, m, 0), "binding test image memory");
  return out;
}

// Why `format` cannot hold test pictures on this device (empty when it can).
inline std::string image_format_problem(const vulkan::context& ctx, VkFormat format, bool multi_planar) {
  if (multi_planar && !ctx.features().sampler_ycbcr)
    return "the device lacks samplerYcbcrConversion (multi-planar images)";
  VkFormatProperties fp{};
  ctx.fn().vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &fp);
  constexpr VkFormatFeatureFlags need =
      VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  if ((fp.optimalTilingFeatures & need) != need) return "no optimal-tiling transfer + sampled support for VkFormat " + std::to_string(format);
  return {};
}

enum class storage { buffers, images, multi_planar_image };

// One picture in the caller's memory: what owns it and how vqm sees it.
struct gpu_resident {
  std::vector<vulkan::buffer> buffers;
  std::vector<caller_image> images;
  vulkan::gpu_picture pic;
};

// The VkFormat of stored plane p of f as a single-plane image, or of the whole picture (multi_planar).
inline VkFormat image_format(const picture_format& f, int p, bool multi_planar) {
  const bool wide = f.bytes_per_sample() == 2;
  if (multi_planar) {
    if (f.chroma != chroma_format::yuv420) return VK_FORMAT_UNDEFINED;
    if (!wide) return VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;
    if (f.msb_shift == 6) return VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16;
    if (f.msb_shift == 4) return VK_FORMAT_G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16;
    return VK_FORMAT_G16_B16R16_2PLANE_420_UNORM;
  }
  const bool pairs = p == 1 && f.semi_planar();
  return pairs ? (wide ? VK_FORMAT_R16G16_UINT : VK_FORMAT_R8G8_UINT) : (wide ? VK_FORMAT_R16_UINT : VK_FORMAT_R8_UINT);
}

// Puts `src` (stored as its format says) into the caller's buffers (rows `pad` bytes longer than needed)
// or images (left in `layout`), recorded into `cb`; `staging` keeps the host copy alive until it ran.
inline gpu_resident make_resident(const vulkan::context& ctx, VkCommandBuffer cb, const picture& src, storage where,
                                  VkImageLayout layout, std::uint32_t pad, std::vector<vulkan::buffer>& staging) {
  const auto& fn = ctx.fn();
  const picture_format& f = src.format();
  gpu_resident r;
  r.pic.device = ctx.device();
  r.pic.format = f;
  const auto bps = static_cast<std::uint32_t>(f.bytes_per_sample());
  std::vector<VkImageMemoryBarrier> to_dst, to_final;
  for (int p = 0; p < f.stored_planes(); ++p) {
    const std::uint32_t w = f.stored_width(p), h = f.plane_height(p), row = w * bps;
    const std::uint32_t pitch = where == storage::buffers ? row + pad : row;
    vulkan::buffer& st = staging.emplace_back(ctx, std::uint64_t{pitch} * h, vulkan::memory_kind::upload);
    for (std::uint32_t y = 0; y < h; ++y)
      std::memcpy(st.data() + std::size_t{y} * pitch, src.plane_data(p) + static_cast<std::ptrdiff_t>(y) * src.stride(p), row);
    st.flush();
    vulkan::gpu_plane& gp = r.pic.planes[p];
    if (where == storage::buffers) {
      // The plane at an offset inside a larger buffer, as a decoder's output pool would hold it.
      auto& b = r.buffers.emplace_back(ctx, 256 + std::uint64_t{pitch} * h, vulkan::memory_kind::device_local);
      VkBufferCopy c{0, 256, std::uint64_t{pitch} * h};
      fn.vkCmdCopyBuffer(cb, st, b, 1, &c);
      gp.buffer = b;
      gp.offset = 256;
      gp.row_pitch = pitch;
      continue;
    }
    const bool mp = where == storage::multi_planar_image;
    if (!mp || p == 0)
      r.images.push_back(make_image(ctx, image_format(f, p, mp), mp ? f.width : f.plane_width(p), mp ? f.height : h));
    gp.image = r.images.back().image;
    gp.layout = layout;
    gp.aspect = mp ? (p == 0 ? VK_IMAGE_ASPECT_PLANE_0_BIT : VK_IMAGE_ASPECT_PLANE_1_BIT) : VK_IMAGE_ASPECT_COLOR_BIT;
    if (!mp || p == 0) {
      VkImageMemoryBarrier b{};
      b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = gp.image;
      b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      to_dst.push_back(b);
      b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      b.dstAccessMask = 0;
      b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      b.newLayout = layout;
      to_final.push_back(b);
    }
  }
  if (!to_dst.empty()) {
    fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                            nullptr, static_cast<std::uint32_t>(to_dst.size()), to_dst.data());
    for (int p = 0; p < f.stored_planes(); ++p) {
      const auto& gp = r.pic.planes[p];
      VkBufferImageCopy c{};
      c.imageSubresource = {static_cast<VkImageAspectFlags>(gp.aspect), 0, 0, 1};
      c.imageExtent = {f.plane_width(p), f.plane_height(p), 1};
      fn.vkCmdCopyBufferToImage(cb, staging[staging.size() - static_cast<std::size_t>(f.stored_planes() - p)], gp.image,
                                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
    }
    fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                            nullptr, static_cast<std::uint32_t>(to_final.size()), to_final.data());
  }
  return r;
}

}  // namespace vqm::test
