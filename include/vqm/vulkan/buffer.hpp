// buffer: a VkBuffer with its own memory, persistently mapped when host-visible.
//
// Kinds: device_local (what kernels read and write), upload (host-visible, uncached/write-combined:
// sequential host writes, then a transfer or a direct read), readback (host-visible, cached: random host
// reads after a fence wait), device_upload (device-local and host-visible — a resizable BAR: the host writes
// straight into VRAM over PCIe and kernels read it in place, no device copy; see direct_upload_heap()). Non-coherent memory needs flush()/invalidate(); both are no-ops otherwise.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::vulkan {

enum class memory_kind : std::uint8_t { device_local, upload, readback, device_upload };

inline constexpr VkBufferUsageFlags default_buffer_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

class buffer {
 public:
  buffer() = default;
  buffer(const context& ctx, VkDeviceSize size, memory_kind kind, VkBufferUsageFlags usage = default_buffer_usage)
      : ctx_(&ctx), size_(size), kind_(kind) {
    const auto& fn = ctx.fn();
    VkBufferCreateInfo bi{};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = std::max<VkDeviceSize>(size, 4);
    bi.usage = usage;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer b = VK_NULL_HANDLE;
    check(fn.vkCreateBuffer(ctx.device(), &bi, nullptr, &b), "creating a buffer");
    buffer_ = handle<VkBuffer>(ctx.device(), b, fn.vkDestroyBuffer);
    VkMemoryRequirements req{};
    fn.vkGetBufferMemoryRequirements(ctx.device(), b, &req);
    const std::uint32_t type = pick_type(ctx, req.memoryTypeBits, kind);
    flags_ = ctx.memory_properties().memoryTypes[type].propertyFlags;
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory m = VK_NULL_HANDLE;
    check(fn.vkAllocateMemory(ctx.device(), &ai, nullptr, &m), "allocating buffer memory");
    memory_ = handle<VkDeviceMemory>(ctx.device(), m, fn.vkFreeMemory);
    check(fn.vkBindBufferMemory(ctx.device(), b, m, 0), "binding buffer memory");
    if (flags_ & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
      void* p = nullptr;
      check(fn.vkMapMemory(ctx.device(), m, 0, VK_WHOLE_SIZE, 0, &p), "mapping buffer memory");
      mapped_ = static_cast<std::byte*>(p);
    }
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  buffer(buffer&& o) noexcept { *this = std::move(o); }
  buffer& operator=(buffer&& o) noexcept {
    if (this != &o) {
      buffer_ = std::move(o.buffer_);  // the buffer goes before its memory
      memory_ = std::move(o.memory_);
      ctx_ = o.ctx_;
      size_ = o.size_;
      kind_ = o.kind_;
      flags_ = o.flags_;
      mapped_ = std::exchange(o.mapped_, nullptr);
    }
    return *this;
  }
  ~buffer() { buffer_.reset(); }  // memory_ is freed after (member order), which unmaps it

  [[nodiscard]] VkBuffer get() const noexcept { return buffer_.get(); }
  operator VkBuffer() const noexcept { return buffer_.get(); }  // NOLINT
  explicit operator bool() const noexcept { return static_cast<bool>(buffer_); }
  [[nodiscard]] VkDeviceSize size() const noexcept { return size_; }
  [[nodiscard]] memory_kind kind() const noexcept { return kind_; }
  [[nodiscard]] VkMemoryPropertyFlags memory_flags() const noexcept { return flags_; }
  // The persistent mapping, or null for memory the host cannot see.
  [[nodiscard]] std::byte* data() const noexcept { return mapped_; }
  template <class T>
  [[nodiscard]] T* as() const noexcept {
    return reinterpret_cast<T*>(mapped_);
  }
  [[nodiscard]] bool host_visible() const noexcept { return mapped_ != nullptr; }
  [[nodiscard]] bool coherent() const noexcept { return flags_ & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT; }
  [[nodiscard]] VkDescriptorBufferInfo range(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const noexcept {
    return {buffer_.get(), offset, size};
  }

  // Makes host writes visible to the device (before the submit that reads them).
  void flush(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const {
    if (!mapped_ || coherent()) return;
    auto r = mapped_range(offset, size);
    check(ctx_->fn().vkFlushMappedMemoryRanges(ctx_->device(), 1, &r), "flushing mapped memory");
  }
  // Makes device writes visible to the host (after the fence wait).
  void invalidate(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const {
    if (!mapped_ || coherent()) return;
    auto r = mapped_range(offset, size);
    check(ctx_->fn().vkInvalidateMappedMemoryRanges(ctx_->device(), 1, &r), "invalidating mapped memory");
  }

 private:
  static std::uint32_t pick_type(const context& ctx, std::uint32_t bits, memory_kind kind) {
    const auto& mp = ctx.memory_properties();
    constexpr auto dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                   hc = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, ca = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    int best = -1, best_score = -1;
    for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
      if (!(bits & (1u << i))) continue;
      const auto f = mp.memoryTypes[i].propertyFlags;
      if (f & (VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) continue;
      int score = -1;
      switch (kind) {
        case memory_kind::device_local:
          score = (f & dl) ? 4 - ((f & hv) ? 1 : 0) : 0;  // prefer plain VRAM over the BAR window
          break;
        case memory_kind::upload:
          // Host memory, uncached (write-combined) and coherent; not the small device-local BAR.
          if (f & hv) score = 1 + ((f & hc) ? 2 : 0) + ((f & ca) ? 0 : 2) + ((f & dl) ? 0 : 1);
          break;
        case memory_kind::readback:
          if (f & hv) score = 1 + ((f & ca) ? 4 : 0) + ((f & hc) ? 1 : 0) + ((f & dl) ? 0 : 1);
          break;
        case memory_kind::device_upload:
          if ((f & hv) && (f & dl)) score = 1 + ((f & hc) ? 2 : 0) + ((f & ca) ? 0 : 2);
          break;
      }
      if (score > best_score) best = static_cast<int>(i), best_score = score;
    }
    if (best < 0 || (kind != memory_kind::device_local && best_score <= 0))
      throw error(errc::device, "Vulkan device " + ctx.name() + " has no suitable memory type for a buffer");
    return static_cast<std::uint32_t>(best);
  }

  VkMappedMemoryRange mapped_range(VkDeviceSize offset, VkDeviceSize size) const noexcept {
    const VkDeviceSize atom = std::max<VkDeviceSize>(1, ctx_->limits().nonCoherentAtomSize);
    VkMappedMemoryRange r{};
    r.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
    r.memory = memory_.get();
    r.offset = offset / atom * atom;
    r.size = VK_WHOLE_SIZE;
    if (size != VK_WHOLE_SIZE) {
      const VkDeviceSize end = (offset + size + atom - 1) / atom * atom;
      // Past the allocation's end only VK_WHOLE_SIZE is valid.
      if (end < size_) r.size = end - r.offset;
    }
    return r;
  }

  const context* ctx_ = nullptr;
  handle<VkDeviceMemory> memory_;
  handle<VkBuffer> buffer_;
  VkDeviceSize size_ = 0;
  memory_kind kind_ = memory_kind::device_local;
  VkMemoryPropertyFlags flags_ = 0;
  std::byte* mapped_ = nullptr;
};

// Whether device_upload buffers are worth using: a memory type both device-local and host-visible in a heap
// of at least 1 GiB (resizable BAR, e.g. NVIDIA data-centre GPUs expose all of VRAM), on a device that is
// not unified memory (there plain upload buffers are read in place already). The classic 256 MiB BAR
// window is left alone (other users share it). VQM_VULKAN_REBAR=0 turns it off.
[[nodiscard]] inline bool direct_upload_heap(const context& ctx) {
  if (const char* v = std::getenv("VQM_VULKAN_REBAR"); v && *v == '0') return false;
  if (ctx.unified_memory()) return false;
  const auto& mp = ctx.memory_properties();
  constexpr auto want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    const auto f = mp.memoryTypes[i].propertyFlags;
    if ((f & want) == want && !(f & (VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) &&
        mp.memoryHeaps[mp.memoryTypes[i].heapIndex].size >= (VkDeviceSize{1} << 30))
      return true;
  }
  return false;
}

}  // namespace vqm::vulkan
