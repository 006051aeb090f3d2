// Reference: the float picture copy of float_psnr / float_ssim / float_ms_ssim (SPEC §1.2): samples scaled to the
// 8-bit range by an exact power-of-two division.
#pragma once

#include <cstdint>

#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

// f32(v) / 2^(bpc−8) as a float op; exact for every supported depth.
[[nodiscard]] constexpr float normalize_divisor(std::uint32_t bit_depth) noexcept {
  return static_cast<float>(1u << (bit_depth - 8));
}

// Writes plane `p` as floats into `out` (row-major, width·height, tightly packed).
inline void normalize_plane(const plane_view& p, std::uint32_t bit_depth, float* out) noexcept {
  const float div = normalize_divisor(bit_depth);
  for (std::uint32_t y = 0; y < p.height; ++y, out += p.width) {
    if (bit_depth > 8) {
      const auto* row = p.row<std::uint16_t>(y);
      for (std::uint32_t x = 0; x < p.width; ++x) out[x] = static_cast<float>(row[x]) / div;
    } else {
      const auto* row = p.row<std::uint8_t>(y);
      for (std::uint32_t x = 0; x < p.width; ++x) out[x] = static_cast<float>(row[x]);
    }
  }
}

}  // namespace vqm::cpu::reference
