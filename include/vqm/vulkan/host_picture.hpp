// host_picture: one frame's worth of host memory the device reads — a caller writes the samples straight
// into it (a file read with frame_source::read_into, a decoder's output) and pushes it as a gpu_picture:
// the frame's command buffer copies it into the slot's input, so the pixels are never copied on the host (a
// host picture_view is copied into the slot's staging buffer first). The frame is stored packed as a
// picture stores it (packed_view()). Memory, by what the host does with it:
//   host_access::write       written only (a file read with read_into, a decoder's output): in VRAM mapped
//                            through a resizable BAR where the device has one (direct_upload_heap: the
//                            write crosses PCIe, the frame's copy is VRAM → VRAM), else write-combined host
//                            memory (the copy crosses PCIe). Reading it back is slow (uncached).
//   host_access::read_write  read back too (the samples checked, a host metric): cached host memory.
//
//   auto hp = backend.host_picture(source.format());
//   source.read_into(hp.bytes());
//   hp.flush();                                   // no-op on coherent memory
//   session.push(hp.gpu(), other.gpu());          // hp untouched until that frame has completed
//
// Reuse follows the session's rule for views: rewrite it only after depth() more frames were pushed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/gpu_picture.hpp"

namespace vqm::vulkan {

enum class host_access : std::uint8_t { write, read_write };

class host_picture {
 public:
  using access = host_access;
  host_picture(const context& ctx, const picture_format& f, host_access a = host_access::write)
      : device_(ctx.device()), format_(f), offsets_(packed_offsets(f)) {
    if (auto why = storage_problem(f); !why.empty()) throw error(errc::unsupported_format, why);
    if (f.width == 0 || f.height == 0) throw error(errc::invalid_argument, "vqm::vulkan::host_picture: empty picture");
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    if (a == host_access::write && direct_upload_heap(ctx)) {
      try {
        memory_ = buffer(ctx, f.frame_bytes(), memory_kind::device_upload, usage);
        return;
      } catch (const error&) {  // the BAR window is full: host memory
      }
    }
    memory_ = buffer(ctx, f.frame_bytes(), a == host_access::write ? memory_kind::upload : memory_kind::readback, usage);
  }

  [[nodiscard]] const picture_format& format() const noexcept { return format_; }
  // In VRAM (a resizable BAR): the frame's copy stays on the device.
  [[nodiscard]] bool device_local() const noexcept { return memory_.kind() == memory_kind::device_upload; }
  // The frame's bytes (format().frame_bytes()), planes back to back as Y4M/raw files store them.
  [[nodiscard]] std::span<std::byte> bytes() const noexcept { return {memory_.data(), format_.frame_bytes()}; }
  // The samples as a host view (slow to read from host_access::write memory).
  [[nodiscard]] picture_view view() const noexcept { return packed_view(format_, memory_.data()); }
  // Makes host writes visible to the device on non-coherent memory (before the push).
  void flush() const { memory_.flush(); }

  // The picture Vulkan::begin_frame / session::push take (no semaphores: host writes before the
  // submission are visible to it).
  [[nodiscard]] gpu_picture gpu() const noexcept {
    gpu_picture g{};
    g.device = device_;
    g.format = format_;
    g.host_written = true;
    for (int p = 0; p < format_.stored_planes(); ++p) {
      g.planes[p].buffer = memory_.get();
      g.planes[p].offset = offsets_[p];
      g.planes[p].row_pitch = std::size_t{format_.stored_width(p)} * format_.bytes_per_sample();
    }
    return g;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  picture_format format_;
  std::array<std::size_t, 3> offsets_{};
  buffer memory_;
};

}  // namespace vqm::vulkan
