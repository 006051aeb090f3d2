// plane_binding: where one picture plane lies in a device buffer, as GPU kernels receive it.
//
// The samples are the raw bytes of the picture rows (uint8 at 8 bits, little-endian uint16 above), row y
// starting at offset + y·stride_bytes; shaders read them from a uint[] SSBO with bit extraction.
// offset and stride_bytes are multiples of 4 in every binding vqm creates.
#pragma once

#include <cstdint>

#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

struct plane_binding {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;  // bytes from the buffer start to sample (0, 0)
  std::uint32_t stride_bytes = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t bit_depth = 8;
};

}  // namespace vqm::vulkan
