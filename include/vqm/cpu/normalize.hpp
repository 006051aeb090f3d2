// The float picture copy of float_psnr / float_ssim / float_ms_ssim (SPEC §1.2): samples scaled to the
// 8-bit range by an exact power-of-two division.
#pragma once

#include <cstdint>

#include "vqm/picture.hpp"

namespace vqm::cpu {

// f32(v) / 2^(bpc−8) as a float op; exact for every supported depth.
[[nodiscard]] constexpr float normalize_divisor(std::uint32_t bit_depth) noexcept {
  return static_cast<float>(1u << (bit_depth - 8));
}

namespace detail {
// A plain loop: compilers vectorise it (convert, divide) at -O2/-O3; every value is exact.
template <class T>
inline void normalize_rows(const plane_view& p, float div, float* out) noexcept {
  for (std::uint32_t y = 0; y < p.height; ++y, out += p.width) {
    const T* row = p.row<T>(y);
    for (std::uint32_t x = 0; x < p.width; ++x) out[x] = static_cast<float>(row[x]) / div;
  }
}
}  // namespace detail

// Writes plane `p` as floats into `out` (row-major, width·height, tightly packed).
inline void normalize_plane(const plane_view& p, std::uint32_t bit_depth, float* out) noexcept {
  if (bit_depth > 8) {
    detail::normalize_rows<std::uint16_t>(p, normalize_divisor(bit_depth), out);
  } else {
    detail::normalize_rows<std::uint8_t>(p, 1.0f, out);  // v / 1 is v: the division folds away
  }
}

}  // namespace vqm::cpu
