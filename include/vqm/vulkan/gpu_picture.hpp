// gpu_picture: a picture already on the GPU, in the caller's VkBuffers and/or VkImages on the device vqm
// runs on (a context borrowing the caller's VkDevice, or vqm's own). Vulkan::begin_frame takes it in
// place of a host picture_view: the frame's command buffer copies the planes from the caller's resources
// into the slot's input (the layout a host upload produces), so every engine and the semi-planar unpack
// run unchanged and no pixel goes through host memory. Synchronisation contract: docs/vulkan.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

// One stored plane (Y, Cb, Cr; or Y, CbCr for semi-planar formats): a buffer range or an image plane.
struct gpu_plane {
  // A buffer: rows of the plane's samples starting at `offset`, `row_pitch` bytes apart (≥ one row).
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize row_pitch = 0;
  // Or an image: single-plane (R8/R16, R8G8/R16G16 for interleaved chroma) with aspect COLOR, or one plane
  // of a multi-planar image (G8_B8R8_2PLANE_420_UNORM, G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, ...)
  // with aspect PLANE_0 / PLANE_1. The image must have VK_IMAGE_USAGE_TRANSFER_SRC_BIT and be in `layout`
  // when the frame runs; vqm leaves it in `layout` again (through TRANSFER_SRC_OPTIMAL unless it is
  // GENERAL or TRANSFER_SRC_OPTIMAL already).
  VkImage image = VK_NULL_HANDLE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL;
  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  std::uint32_t mip_level = 0, array_layer = 0;
};

// A semaphore to wait on or to signal: binary (value 0) or timeline (the value to wait for / signal; the
// device needs the timelineSemaphore feature).
struct gpu_semaphore {
  VkSemaphore semaphore = VK_NULL_HANDLE;
  std::uint64_t value = 0;
};

struct gpu_picture {
  static constexpr std::size_t max_waits = 4;
  static constexpr std::size_t max_signals = 4;

  VkDevice device = VK_NULL_HANDLE;  // must be the backend's context().device()
  picture_format format{};
  std::array<gpu_plane, 3> planes{};  // format.stored_planes() of them
  // The caller's work that writes the planes: signalled semaphores vqm's submission waits on before its
  // copies. Without any, the writes must have been submitted earlier to vqm's queue (submission order +
  // vqm's ALL_COMMANDS barrier make them visible).
  std::array<gpu_semaphore, max_waits> wait{};
  std::uint32_t wait_count = 0;
  // Signalled by the frame's submission once it has completed (the planes may then be rewritten): `signal`,
  // and the first signal_count of `signals` (one per plane where each plane has its own semaphore, as
  // FFmpeg's AVVkFrame has).
  gpu_semaphore signal{};
  std::array<gpu_semaphore, max_signals> signals{};
  std::uint32_t signal_count = 0;
  // The planes are host-visible buffers only the host wrote, before the frame's submission (host_picture
  // sets it; with record(), before the caller's submission): the submission makes the writes visible, so
  // the copies wait for no earlier GPU work (without it, and without wait semaphores, they wait for all
  // earlier work on the queue). Never set it for memory the GPU writes.
  bool host_written = false;
  // libvmaf's floor chroma for odd sizes (compat::libvmaf), set by with_chroma_rounding.
  chroma_rounding rounding = chroma_rounding::ceil;
};

// The geometry the engines see (format and plane sizes; no host data).
[[nodiscard]] inline picture_view geometry(const gpu_picture& g) noexcept {
  picture_view v{g.format, {}};
  for (int p = 0; p < g.format.stored_planes(); ++p)
    v.planes[p] = plane_view{nullptr, 0, g.format.plane_width(p, g.rounding), g.format.plane_height(p, g.rounding)};
  return v;
}

// Found by ADL from scorer::push: the picture as a metric in compat mode `r` reads it.
[[nodiscard]] inline gpu_picture with_chroma_rounding(gpu_picture g, chroma_rounding r) noexcept {
  g.rounding = r;
  return g;
}

// Throws errc::invalid_argument naming what is wrong with g for a backend on `device`.
inline void check_gpu_picture(const gpu_picture& g, VkDevice device) {
  const auto fail = [](std::string why) { throw error(errc::invalid_argument, "vqm::vulkan::gpu_picture: " + why); };
  if (g.device != device)
    fail("its VkDevice is not the backend's (create vqm's context from your device: vulkan::borrowed_device)");
  if (auto why = storage_problem(g.format); !why.empty()) fail(why);
  if (g.wait_count > gpu_picture::max_waits) fail("wait_count above max_waits (" + std::to_string(gpu_picture::max_waits) + ")");
  for (std::uint32_t i = 0; i < g.wait_count; ++i)
    if (!g.wait[i].semaphore) fail("wait semaphore " + std::to_string(i) + " is null (lower wait_count)");
  if (g.signal_count > gpu_picture::max_signals)
    fail("signal_count above max_signals (" + std::to_string(gpu_picture::max_signals) + ")");
  for (std::uint32_t i = 0; i < g.signal_count; ++i)
    if (!g.signals[i].semaphore) fail("signal semaphore " + std::to_string(i) + " is null (lower signal_count)");
  if (g.host_written && g.wait_count > 0) fail("host_written with wait semaphores (host writes need none)");
  const std::uint64_t bps = g.format.bytes_per_sample();
  for (int p = 0; p < g.format.stored_planes(); ++p) {
    const gpu_plane& pl = g.planes[p];
    const std::string name = "plane " + std::to_string(p);
    if ((pl.buffer != VK_NULL_HANDLE) == (pl.image != VK_NULL_HANDLE)) fail(name + " needs exactly one of buffer and image");
    if (g.host_written && pl.image) fail(name + " is an image: host_written is for host-visible buffers (host_picture)");
    if (pl.buffer && pl.row_pitch < std::uint64_t{g.format.stored_width(p)} * bps)
      fail(name + " row_pitch " + std::to_string(pl.row_pitch) + " is below one row (" +
           std::to_string(std::uint64_t{g.format.stored_width(p)} * bps) + " bytes)");
  }
}

}  // namespace vqm::vulkan
