// gpu_copier: records the copies of GPU-resident pictures (vulkan::gpu_picture) from the caller's
// buffers and images into a frame slot's input, where a host upload would have put the same bytes
// (frame_layout: planar planes, a semi-planar picture's interleaved chroma in its `packed` region), so the
// unpack stage and every program run unchanged. Recorded at the start of the frame's command buffer:
// one barrier making the caller's writes visible to the copies (and moving images that are in neither
// GENERAL nor TRANSFER_SRC_OPTIMAL to TRANSFER_SRC_OPTIMAL), the copies, then one barrier putting those
// images back in their layout. The region lists are members: they grow on the first frames only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/gpu_picture.hpp"

namespace vqm::vulkan::detail {

class gpu_copier {
 public:
  explicit gpu_copier(const context& ctx) : ctx_(ctx) {}

  // pics[i]: picture i's GPU source, or null when it was uploaded from the host. `planes`: the logical
  // planes the frame needs (luma only for most metrics).
  void record(VkCommandBuffer cb, const frame_layout& l, const std::array<const gpu_picture*, 2>& pics, int planes,
              VkBuffer input) {
    const auto& fn = ctx_.fn();
    bool waited = false, gpu_written = false;
    before_.clear();
    after_.clear();
    for (const auto* g : pics) {
      if (!g) continue;
      waited = waited || g->wait_count > 0;
      gpu_written = gpu_written || !g->host_written;
      for (int p = 0; p < g->format.stored_planes(); ++p) add_transition(g->planes[p]);
    }
    // With semaphores the wait's stage (TRANSFER) chains the caller's writes; without, they were submitted
    // earlier on this queue and any stage may have written them. Host writes (host_picture) were made
    // visible by the submission itself: no barrier, so the copies may run beside the frames before (the
    // slot's input they write was last read by a frame whose fence has been waited for).
    const VkPipelineStageFlags src = waited ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
    if (gpu_written || !before_.empty())
      fn.vkCmdPipelineBarrier(cb, src, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, gpu_written ? 1 : 0, &mb, 0, nullptr,
                              static_cast<std::uint32_t>(before_.size()), before_.data());
    for (int pic = 0; pic < 2; ++pic) {
      const gpu_picture* g = pics[pic];
      if (!g) continue;
      for (int p = 0; p < std::min(planes, l.planes); ++p) {
        if (p == 2 && l.semi_planar(pic)) break;  // both chroma planes are stored plane 1
        const bool pairs = p == 1 && l.semi_planar(pic);
        const std::uint64_t dst = pairs ? l.packed[pic] : l.offset[pic][p];
        const std::uint32_t stride = pairs ? l.packed_stride : l.stride[p];
        const std::uint32_t texel = (pairs ? 2 : 1) * l.bps;
        copy_plane(cb, g->planes[p], input, dst, stride, l.width[p], l.height[p], texel);
      }
    }
    // Destination TRANSFER: a later frame's barrier on the same image (source TRANSFER at least) then
    // chains after this transition back.
    if (!after_.empty())
      fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                              nullptr, static_cast<std::uint32_t>(after_.size()), after_.data());
  }

 private:
  [[nodiscard]] static bool copyable_in_place(VkImageLayout l) noexcept {
    return l == VK_IMAGE_LAYOUT_GENERAL || l == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }

  // An image in another layout goes to TRANSFER_SRC_OPTIMAL and back (once per image subresource).
  void add_transition(const gpu_plane& pl) {
    if (!pl.image || copyable_in_place(pl.layout)) return;
    for (const auto& b : before_)
      if (b.image == pl.image && b.subresourceRange.baseMipLevel == pl.mip_level &&
          b.subresourceRange.baseArrayLayer == pl.array_layer)
        return;
    VkImageMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    b.oldLayout = pl.layout;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;  // same queue family (documented)
    b.image = pl.image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, pl.mip_level, 1, pl.array_layer, 1};  // every plane
    before_.push_back(b);
    b.srcAccessMask = 0;  // the copies only read: an execution dependency suffices
    b.dstAccessMask = 0;
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.newLayout = pl.layout;
    after_.push_back(b);
  }

  // `height` rows of `width` texels (`texel` bytes) from pl into input at dst, rows `stride` bytes apart.
  void copy_plane(VkCommandBuffer cb, const gpu_plane& pl, VkBuffer input, std::uint64_t dst, std::uint32_t stride,
                  std::uint32_t width, std::uint32_t height, std::uint32_t texel) {
    const auto& fn = ctx_.fn();
    const std::uint64_t row = std::uint64_t{width} * texel;
    if (pl.image) {
      VkBufferImageCopy r{};
      r.bufferOffset = dst;
      r.bufferRowLength = stride / texel;
      r.imageSubresource = {static_cast<VkImageAspectFlags>(pl.aspect), pl.mip_level, pl.array_layer, 1};
      r.imageExtent = {width, height, 1};
      const VkImageLayout from = copyable_in_place(pl.layout) ? pl.layout : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      fn.vkCmdCopyImageToBuffer(cb, pl.image, from, input, 1, &r);
      return;
    }
    regions_.clear();
    if (pl.row_pitch == stride) {
      regions_.push_back({pl.offset, dst, pl.row_pitch * (height - 1) + row});  // not past the last row
    } else {
      for (std::uint32_t y = 0; y < height; ++y) regions_.push_back({pl.offset + pl.row_pitch * y, dst + std::uint64_t{stride} * y, row});
    }
    fn.vkCmdCopyBuffer(cb, pl.buffer, input, static_cast<std::uint32_t>(regions_.size()), regions_.data());
  }

  const context& ctx_;
  std::vector<VkImageMemoryBarrier> before_, after_;
  std::vector<VkBufferCopy> regions_;
};

}  // namespace vqm::vulkan::detail
