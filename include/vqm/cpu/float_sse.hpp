// Cpu kernel: float_psnr's noise sum (SPEC §3).
#pragma once

#include <cstdint>

#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/cpu/sse.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

// libvmaf adds f64(f32(a−b)²) serially in double. Up to 12 bits every term is an exact multiple of
// 2^−2(bpc−8) and every partial sum is exact in double, so the exact integer SSE scaled by that power
// of two is the same double; 16-bit squares round in float, so that depth keeps the serial sum.
[[nodiscard]] VQM_CPU_KERNEL double float_sse(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept
#if VQM_CPU_KERNEL_BODIES
{
  if (bit_depth <= 12) {
    const double scale = static_cast<double>(1ull << (2 * (bit_depth - 8)));
    return static_cast<double>(sse_plane(a, b, bit_depth)) / scale;
  }
  const float div = normalize_divisor(bit_depth);
  double noise = 0.0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint16_t>(y);
    const auto* rb = b.row<std::uint16_t>(y);
    for (std::uint32_t x = 0; x < a.width; ++x) {
      const float d = static_cast<float>(ra[x]) / div - static_cast<float>(rb[x]) / div;
      noise += static_cast<double>(d * d);
    }
  }
  return noise;
}
#else
;
#endif

}  // namespace vqm::cpu
