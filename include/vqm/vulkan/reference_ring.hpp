// reference_ring: one reference picture per frame, uploaded host → device once and read by several frames
// (multi_session<Vulkan>: one frame per distorted). put() copies the picture into an entry's host staging
// buffer and submits that entry's copy into its device-local buffer, then returns the entry as a
// gpu_picture: each reader's frame copies it on the device into its slot's input (detail/gpu_copy.hpp),
// as for any GPU-resident input, so the values are those of a host upload.
//
// Ordering: with timeline semaphores (vqm's own devices have them), the copy's submission signals the
// put's number and each reader waits for it at the transfer stage; without, the readers follow it on
// vqm's queue (submission order and gpu_copier's ALL_COMMANDS barrier). Reuse: an entry is rewritten by
// the put `size()` puts later; its readers must have completed by then (multi_session: each session keeps
// at most size() − 1 frames in flight). The copy itself is waited for through the entry's fence.
// Every plane is uploaded: which planes the readers read is known only inside their frames.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/gpu_picture.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::vulkan {

class reference_ring {
 public:
  // `uploaded`: the backend's count of host bytes uploaded (Vulkan::host_bytes_uploaded), outliving this.
  reference_ring(const context& ctx, const picture_format& f, std::size_t entries, std::uint64_t& uploaded)
      : ctx_(ctx), format_(f), uploaded_(uploaded), pool_(ctx), copier_(ctx.options().pool) {
    if (auto why = storage_problem(f); !why.empty()) throw error(errc::unsupported_format, why);
    // Rows padded as a frame slot pads them (detail/layout.hpp), so that the readers copy each plane whole.
    std::uint64_t bytes = 0;
    for (int p = 0; p < f.stored_planes(); ++p) {
      const bool pairs = p == 1 && f.semi_planar();
      pitch_[p] = detail::align_up(std::uint64_t{f.stored_width(p)} * f.bytes_per_sample(), pairs ? 8 : 4);
      offset_[p] = bytes;
      bytes = detail::align_up(bytes + pitch_[p] * f.plane_height(p), 256);
    }
    if (ctx.features().timeline_semaphore) {
      VkSemaphoreTypeCreateInfo ti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
      VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &ti, 0};
      VkSemaphore s = VK_NULL_HANDLE;
      check(ctx.fn().vkCreateSemaphore(ctx.device(), &ci, nullptr, &s), "creating a timeline semaphore");
      timeline_ = handle<VkSemaphore>(ctx.device(), s, ctx.fn().vkDestroySemaphore);
    }
    entries_.resize(std::max<std::size_t>(entries, 1));
    for (auto& e : entries_) {
      e.staging = buffer(ctx, bytes, memory_kind::upload);
      e.device = buffer(ctx, bytes, memory_kind::device_local);
      e.done = fence(ctx);
      // The same copy every time: recorded once, submitted per put.
      e.cb = pool_.allocate();
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, nullptr};
      check(ctx.fn().vkBeginCommandBuffer(e.cb, &bi), "beginning a command buffer");
      const VkBufferCopy all{0, 0, bytes};
      ctx.fn().vkCmdCopyBuffer(e.cb, e.staging, e.device, 1, &all);
      end(ctx, e.cb);
    }
  }
  reference_ring(const reference_ring&) = delete;
  reference_ring& operator=(const reference_ring&) = delete;
  // Readers may still copy from the entries: they go once the queue is idle.
  ~reference_ring() {
    std::lock_guard lock(ctx_.queue_mutex());
    ctx_.fn().vkQueueWaitIdle(ctx_.queue());
  }

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }

  // The picture put() takes: the ring's format, planes of the format's (ceil) sizes.
  [[nodiscard]] bool fits(const picture_view& v) const noexcept {
    if (!(v.format == format_)) return false;
    for (int p = 0; p < format_.stored_planes(); ++p)
      if (!v.planes[p].data || v.planes[p].width != format_.plane_width(p) || v.planes[p].height != format_.plane_height(p))
        return false;
    return true;
  }

  // Uploads `v` (fits(v)) into the next entry; the result is valid until size() more puts.
  [[nodiscard]] gpu_picture put(const picture_view& v) {
    if (!fits(v)) throw error(errc::invalid_argument, "vqm::vulkan::reference_ring: a picture of another format or size");
    entry& e = entries_[next_];
    next_ = (next_ + 1) % entries_.size();
    if (e.pending) e.done.wait();  // its staging buffer and command buffer are free again
    pieces_.clear();
    const std::size_t bps = format_.bytes_per_sample();
    for (int p = 0; p < format_.stored_planes(); ++p)
      detail::copy_pool::add_rows(pieces_, e.staging.data() + offset_[p], pitch_[p], v.planes[p].data, v.planes[p].stride,
                                  std::size_t{format_.stored_width(p)} * bps, format_.plane_height(p));
    uploaded_ += copier_.run(pieces_);
    e.staging.flush();

    const std::uint64_t value = ++puts_;
    VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, 0, nullptr, 1, &value};
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &e.cb;
    const VkSemaphore sem = timeline_.get();
    if (sem) {
      si.pNext = &ti;
      si.signalSemaphoreCount = 1;
      si.pSignalSemaphores = &sem;
    }
    e.done.reset();
    ctx_.submit(si, e.done);
    e.pending = true;

    gpu_picture g{};
    g.device = ctx_.device();
    g.format = format_;
    for (int p = 0; p < format_.stored_planes(); ++p) {
      g.planes[p].buffer = e.device;
      g.planes[p].offset = offset_[p];
      g.planes[p].row_pitch = pitch_[p];
    }
    if (sem) {
      g.wait[0] = {sem, value};
      g.wait_count = 1;
    }
    return g;
  }

 private:
  struct entry {
    buffer staging, device;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    fence done;            // the copy's
    bool pending = false;  // the copy was submitted and not yet waited for
  };

  const context& ctx_;
  picture_format format_;
  std::uint64_t& uploaded_;
  std::array<std::uint64_t, 3> offset_{}, pitch_{};
  command_pool pool_;
  handle<VkSemaphore> timeline_;  // null without the timelineSemaphore feature
  std::vector<entry> entries_;
  std::size_t next_ = 0;
  std::uint64_t puts_ = 0;
  detail::copy_pool copier_;
  std::vector<detail::copy_pool::piece> pieces_;
};

}  // namespace vqm::vulkan
