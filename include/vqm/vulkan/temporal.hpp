// temporal_ring: the device-side history of a temporal engine (one that compares a frame with earlier
// ones, e.g. VMAF's motion), kept on the GPU in presentation order with several frames in flight.
//
// The engine's state type (what make_<metric>_state(format, ring) returns and the metric holds) owns a
// temporal_ring through a shared_ptr, so the history outlives a moved-from metric and its address is
// stable for the frames in flight. The protocol (docs/architecture.md):
//   * record time, host: the engine's kernel call takes the frame's position with advance(): frames get
//     0, 1, 2, ... in the order the kernel calls are made (the scorer makes them in presentation order),
//     and the job carries the ring entries of that position and of the earlier ones it reads;
//   * submit time, host: program::bind() gets the ring (job.state) and creates its device buffer on the
//     first frame only (storage()), then writes its descriptor sets when the buffer changes;
//   * device: the frame's program writes the current entry and reads earlier ones; frames run in
//     submission order on one queue and a frame with a temporal program starts with history_to_compute(),
//     so frame n sees every write of frames < n and a ring of (window + 1) entries is enough whatever the
//     number of frames in flight (the host never reads the ring).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "vqm/error.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/context.hpp"

namespace vqm::vulkan {

class temporal_ring {
 public:
  // `entries` entries of `entry_bytes` (rounded up to 256), then `extra_bytes` of scratch the engine may
  // share between frames (they run one after the other); nothing is allocated until storage().
  temporal_ring(std::size_t entries, std::uint64_t entry_bytes, std::uint64_t extra_bytes = 0)
      : entries_(entries < 2 ? 2 : entries), entry_bytes_((entry_bytes + 255) / 256 * 256), extra_bytes_(extra_bytes) {}
  temporal_ring(const temporal_ring&) = delete;
  temporal_ring& operator=(const temporal_ring&) = delete;

  // The next frame's position in the sequence (record time, presentation order).
  [[nodiscard]] std::uint64_t advance() noexcept { return next_++; }
  // Frames recorded so far.
  [[nodiscard]] std::uint64_t frames() const noexcept { return next_; }

  [[nodiscard]] std::size_t entries() const noexcept { return entries_; }
  [[nodiscard]] std::uint64_t entry_bytes() const noexcept { return entry_bytes_; }
  // Byte offset of the entry holding frame `index`, and of the shared scratch.
  [[nodiscard]] std::uint64_t offset(std::uint64_t index) const noexcept { return (index % entries_) * entry_bytes_; }
  [[nodiscard]] std::uint64_t extra_offset() const noexcept { return entries_ * entry_bytes_; }
  // A job's arguments for frame n compared with frame n - distance: its entry's and the earlier entry's
  // float offsets, and whether the earlier frame exists (the shaders' convention).
  [[nodiscard]] std::array<std::uint32_t, 4> pair_args(std::uint64_t n, std::uint64_t distance) const noexcept {
    const bool has_earlier = n >= distance;
    return {static_cast<std::uint32_t>(offset(n) / 4),
            has_earlier ? static_cast<std::uint32_t>(offset(n - distance) / 4) : 0u, has_earlier ? 1u : 0u, 0u};
  }

  // The device buffer, created on the first call (the first frame that uses the state); a state belongs to
  // the device that first ran it.
  const buffer& storage(const context& ctx) {
    if (!buffer_) {
      buffer_.emplace(ctx, extra_offset() + extra_bytes_, memory_kind::device_local);
      device_ = ctx.device();
    } else if (device_ != ctx.device()) {
      throw error(errc::invalid_argument, "a temporal metric's state was used on two Vulkan devices; make one state "
                                          "per backend");
    }
    return *buffer_;
  }

 private:
  std::size_t entries_;
  std::uint64_t entry_bytes_, extra_bytes_;
  std::uint64_t next_ = 0;
  std::optional<buffer> buffer_;
  VkDevice device_ = VK_NULL_HANDLE;
};

}  // namespace vqm::vulkan
