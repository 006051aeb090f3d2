// The Vulkan backend's frame slots for one frame format: per slot the input (the pair's planes, where the
// kernels read them), an optional host staging buffer, the host-visible result block, a command buffer and
// a fence, and the plan of the frame it last ran (frame_plan). Slots are built on their own first frame
// and recycled; a format change rebuilds them. Semi-planar and MSB-aligned pictures are uploaded as they
// are and made planar on the GPU (detail/unpack.hpp) before the programs run.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"
#include "vqm/vulkan/detail/frame_plan.hpp"
#include "vqm/vulkan/detail/gpu_copy.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/detail/unpack.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan::detail {

struct frame_slot {
  buffer staging, input, results;  // results: host-visible, written by the kernels
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vulkan::fence fence;
  bool busy = false, external = false;
  bool direct = true;  // this frame's planes were written into `input` (or unified staging) by the host
  int planes = 0;      // planes of the pair uploaded for this frame
  unsigned host_pics = 3;  // bit i: picture i came from host memory (else from the GPU: detail/gpu_copy.hpp)
  std::uint64_t ticket = 0;
  frame_plan frame;  // the jobs and programs of the frame in this slot
};

class slot_ring {
 public:
  slot_ring(context& ctx, std::size_t count) : ctx_(ctx), count_(count), pool_(ctx), copier_(ctx.options().pool) {}

  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  [[nodiscard]] frame_slot& at(std::size_t s) noexcept { return slots_[s]; }
  [[nodiscard]] const frame_layout& layout() const noexcept { return *layout_; }
  [[nodiscard]] const slot_buffers& buffers() const noexcept { return buffers_; }
  [[nodiscard]] bool matches(const picture_view& ref, const picture_view& dis) const noexcept {
    return layout_ && layout_->matches(ref, dis);
  }

  // The slot of the next frame, round robin.
  [[nodiscard]] std::size_t next() noexcept {
    const std::size_t s = next_;
    next_ = (next_ + 1) % count_;
    return s;
  }

  // A new format (every slot idle or delivered): the slots are built anew, each on its first frame.
  void reset(const picture_view& ref, const picture_view& dis) {
    slots_.clear();
    buffers_ = {};
    unpack_.reset();
    layout_ = frame_layout::of(ref, dis);
    if (layout_->unpacks()) unpack_ = std::make_unique<unpack_stage>(ctx_, *layout_, count_);
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
    if (unpack_) unpack_->ensure(s, buffers_.input[s]);
    return true;
  }

  // Copies the first `planes` planes of the pair into slot s. The host writes straight into a
  // host-visible input (BAR) when the GPU is the bottleneck (gpu_bound: psnr_hvs, ms_ssim — the device
  // copy does not overlap the previous frame's shaders on NVIDIA); otherwise into host memory + a device
  // copy (record_copy), since host writes over PCIe are slower and bound the cheap metrics
  // (docs/performance.md).
  // Pictures not in `host_pics` (bit i: picture i) are GPU-resident: the frame copies them on the device.
  // Returns the bytes copied from host memory.
  std::uint64_t upload(std::size_t s, const picture_view& ref, const picture_view& dis, int planes, bool gpu_bound,
              unsigned host_pics = 3) {
    auto& sl = slots_[s];
    const auto& l = *layout_;
    sl.planes = std::min(planes, l.planes);
    sl.host_pics = host_pics;
    sl.direct = host_pics == 0 || !sl.input || (sl.input.host_visible() && (gpu_bound || rebar_always_));
    if (!sl.direct && !sl.staging) sl.staging = buffer(ctx_, l.bytes, memory_kind::upload);
    const buffer& dst_buf = sl.direct && sl.input ? sl.input : sl.staging;
    std::byte* base = dst_buf.data();
    pieces_.clear();
    for (int pic = 0; pic < 2; ++pic) {
      if (!(host_pics & (1u << pic))) continue;
      const picture_view& v = pic == 0 ? ref : dis;
      for (int p = 0; p < sl.planes; ++p) {
        if (p == 2 && l.semi_planar(pic)) break;  // its chroma is one interleaved plane, copied as plane 1
        const plane_view& pv = v.planes[p];
        if (p == 1 && l.semi_planar(pic)) {
          add_rows(base + l.packed[pic], l.packed_stride, pv, 2 * std::size_t{l.width[1]} * l.bps, l.height[1]);
        } else {
          add_rows(base + l.offset[pic][p], l.stride[p], pv, std::size_t{l.width[p]} * l.bps, l.height[p]);
        }
      }
    }
    const std::uint64_t bytes = copier_.run(pieces_);
    dst_buf.flush();
    return bytes;
  }

  // staging -> device-local input, when the frame's planes went through host memory.
  void record_copy(std::size_t s, VkCommandBuffer cb) const {
    const auto& sl = slots_[s];
    if (sl.direct) return;
    const auto& l = *layout_;
    std::array<VkBufferCopy, 6> regions{};
    std::uint32_t n = 0;
    for (int pic = 0; pic < 2; ++pic)
      for (int p = 0; p < sl.planes && (sl.host_pics & (1u << pic)); ++p) {
        if (p == 2 && l.semi_planar(pic)) break;
        if (p == 1 && l.semi_planar(pic)) {
          regions[n++] = {l.packed[pic], l.packed[pic], std::uint64_t{l.packed_stride} * l.height[1]};
        } else {
          regions[n++] = {l.offset[pic][p], l.offset[pic][p], l.plane_bytes(p)};
        }
      }
    if (n) ctx_.fn().vkCmdCopyBuffer(cb, sl.staging, sl.input, n, regions.data());
  }

  // The caller's GPU-resident pictures (null: uploaded from the host) -> slot s's input.
  void record_gpu_copy(std::size_t s, VkCommandBuffer cb, const std::array<const gpu_picture*, 2>& pics) {
    gpu_copier_.record(cb, *layout_, pics, slots_[s].planes, buffers_.input[s]);
  }

  // Semi-planar / MSB-aligned pictures to planar planes on the GPU, after the upload barrier; false when
  // the frame needs nothing (the caller then adds no barrier).
  bool record_unpack(std::size_t s, VkCommandBuffer cb) const {
    return unpack_ && unpack_->record(cb, s, slots_[s].planes);
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
  std::unique_ptr<unpack_stage> unpack_;  // when a picture of this format is not planar
  gpu_copier gpu_copier_{ctx_};

  void add_rows(std::byte* dst, std::size_t stride, const plane_view& src, std::size_t row, std::uint32_t height) {
    copy_pool::add_rows(pieces_, dst, stride, src.data, src.stride, row, height);
  }
};

}  // namespace vqm::vulkan::detail
