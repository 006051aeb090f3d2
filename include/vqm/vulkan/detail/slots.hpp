// The Vulkan backend's frame slots for one frame format: per slot the input (the pair's planes, where the
// kernels read them), an optional host staging buffer, the host-visible result block, a command buffer and
// a fence, and the plan of the frame it last ran (frame_plan). Slots are built on their own first frame
// and recycled; a format change rebuilds them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"
#include "vqm/vulkan/detail/frame_plan.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan::detail {

struct frame_slot {
  buffer staging, input, results;  // results: host-visible, written by the kernels
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vulkan::fence fence;
  bool busy = false, external = false;
  bool direct = true;  // this frame's planes were written into `input` (or unified staging) by the host
  int planes = 0;      // planes of the pair uploaded for this frame
  std::uint64_t ticket = 0;
  frame_plan frame;  // the jobs and programs of the frame in this slot
};

class slot_ring {
 public:
  slot_ring(context& ctx, std::size_t count) : ctx_(ctx), count_(count), pool_(ctx) {}

  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  [[nodiscard]] frame_slot& at(std::size_t s) noexcept { return slots_[s]; }
  [[nodiscard]] const frame_layout& layout() const noexcept { return *layout_; }
  [[nodiscard]] const slot_buffers& buffers() const noexcept { return buffers_; }
  [[nodiscard]] bool matches(const picture_view& v) const noexcept { return layout_ && layout_->matches(v); }

  // The slot of the next frame, round robin.
  [[nodiscard]] std::size_t next() noexcept {
    const std::size_t s = next_;
    next_ = (next_ + 1) % count_;
    return s;
  }

  // A new format (every slot idle or delivered): the slots are built anew, each on its first frame.
  void reset(const picture_view& v) {
    slots_.clear();
    buffers_ = {};
    layout_ = frame_layout::of(v);
    slots_.resize(count_);
    buffers_.input.assign(count_, VK_NULL_HANDLE);
    buffers_.results.assign(count_, VK_NULL_HANDLE);
    direct_upload_ = direct_upload_heap(ctx_);
    const char* rb = std::getenv("VQM_VULKAN_REBAR");
    rebar_always_ = rb && *rb == '1';
    next_ = 0;
  }

  // Slot s's buffers, command buffer and fence, on its first frame (start-up pays for one slot); true
  // when it built them. Kernels read `input`: device-local memory, host-writable when the device has a
  // resizable BAR (direct_upload_), or, on unified memory, the upload buffer itself. `staging` (host
  // memory, copied by the device) is created when a frame first needs it.
  bool ensure(std::size_t s) {
    auto& sl = slots_[s];
    if (sl.cb) return false;
    const std::uint64_t bytes = layout_->bytes;
    if (ctx_.unified_memory()) {
      sl.staging = buffer(ctx_, bytes, memory_kind::upload);
    } else {
      if (direct_upload_) {
        try {
          sl.input = buffer(ctx_, bytes, memory_kind::device_upload);
        } catch (const error&) {
          direct_upload_ = false;  // BAR exhausted: copy through host memory from now on
        }
      }
      if (!sl.input) sl.input = buffer(ctx_, bytes, memory_kind::device_local);
    }
    sl.results = buffer(ctx_, program_cache::result_block, memory_kind::readback);
    sl.fence = vulkan::fence(ctx_);
    sl.cb = pool_.allocate();
    buffers_.input[s] = sl.input ? sl.input.get() : sl.staging.get();
    buffers_.results[s] = sl.results.get();
    return true;
  }

  // Copies the first `planes` planes of the pair into slot s. The host writes straight into a
  // host-visible input (BAR) when the GPU is the bottleneck (gpu_bound: psnr_hvs, ms_ssim — the device
  // copy would add ~130 µs per frame at 1080p and does not overlap the previous frame's shaders on
  // NVIDIA); otherwise into host memory + a device copy (record_copy), since host writes over PCIe are
  // slower (H200 host: 29 against 43 GB/s) and bound the cheap metrics.
  void upload(std::size_t s, const picture_view& ref, const picture_view& dis, int planes, bool gpu_bound) {
    auto& sl = slots_[s];
    const auto& l = *layout_;
    sl.planes = std::min(planes, l.planes);
    sl.direct = !sl.input || (sl.input.host_visible() && (gpu_bound || rebar_always_));
    if (!sl.direct && !sl.staging) sl.staging = buffer(ctx_, l.bytes, memory_kind::upload);
    const buffer& dst_buf = sl.direct && sl.input ? sl.input : sl.staging;
    std::byte* base = dst_buf.data();
    pieces_.clear();
    for (int pic = 0; pic < 2; ++pic) {
      const picture_view& v = pic == 0 ? ref : dis;
      for (int p = 0; p < sl.planes; ++p) {
        const plane_view& pv = v.planes[p];
        std::byte* dst = base + l.offset[pic][p];
        const std::size_t row = std::size_t{l.width[p]} * l.bps;
        if (pv.stride == static_cast<std::ptrdiff_t>(row) && row == l.stride[p]) {
          pieces_.push_back({dst, pv.data, row * l.height[p]});
        } else {
          for (std::uint32_t y = 0; y < l.height[p]; ++y)
            pieces_.push_back({dst + std::size_t{y} * l.stride[p], pv.data + static_cast<std::ptrdiff_t>(y) * pv.stride, row});
        }
      }
    }
    copier_.run(pieces_);
    dst_buf.flush();
  }

  // staging -> device-local input, when the frame's planes went through host memory.
  void record_copy(std::size_t s, VkCommandBuffer cb) const {
    const auto& sl = slots_[s];
    if (sl.direct) return;
    const auto& l = *layout_;
    std::array<VkBufferCopy, 6> regions{};
    std::uint32_t n = 0;
    for (int pic = 0; pic < 2; ++pic)
      for (int p = 0; p < sl.planes; ++p) regions[n++] = {l.offset[pic][p], l.offset[pic][p], l.plane_bytes(p)};
    if (n) ctx_.fn().vkCmdCopyBuffer(cb, sl.staging, sl.input, n, regions.data());
  }

 private:
  context& ctx_;
  std::size_t count_;
  command_pool pool_;
  std::optional<frame_layout> layout_;
  std::vector<frame_slot> slots_;
  slot_buffers buffers_;
  bool direct_upload_ = false;  // inputs in a resizable BAR (vulkan::direct_upload_heap)
  bool rebar_always_ = false;   // VQM_VULKAN_REBAR=1: every frame written straight into it
  std::size_t next_ = 0;
  copy_pool copier_;
  std::vector<copy_pool::piece> pieces_;
};

}  // namespace vqm::vulkan::detail
