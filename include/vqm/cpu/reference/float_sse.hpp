// Reference kernel (scalar, kept for tests): float_psnr's noise sum (SPEC §3).
#pragma once

#include <cstdint>

#include "vqm/cpu/normalize.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

// libvmaf's loop as written: f32 normalise, f32 difference and square, serial double sum, every depth.
// (The optimised kernel takes the exact integer shortcut up to 12 bits; tests compare the two.)
template <class T>
[[nodiscard]] inline double float_sse_rows(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept {
  const float div = normalize_divisor(bit_depth);
  double noise = 0.0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const T* ra = a.row<T>(y);
    const T* rb = b.row<T>(y);
    for (std::uint32_t x = 0; x < a.width; ++x) {
      const float d = static_cast<float>(ra[x]) / div - static_cast<float>(rb[x]) / div;
      noise += static_cast<double>(d * d);
    }
  }
  return noise;
}

[[nodiscard]] inline double float_sse(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept {
  return bit_depth > 8 ? float_sse_rows<std::uint16_t>(a, b, bit_depth) : float_sse_rows<std::uint8_t>(a, b, bit_depth);
}

}  // namespace vqm::cpu::reference
