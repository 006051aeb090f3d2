// The float picture copy of float_psnr / float_ssim / float_ms_ssim (SPEC §1.2): samples scaled to the
// 8-bit range by an exact power-of-two division.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "vqm/picture.hpp"

namespace vqm::cpu {

// f32(v) / 2^(bpc−8) as a float op; exact for every supported depth.
[[nodiscard]] constexpr float normalize_divisor(std::uint32_t bit_depth) noexcept {
  return static_cast<float>(1u << (bit_depth - 8));
}

// Writes plane `p` as floats into `out` (row-major, width·height, tightly packed). An element-wise
// stage: Eigen maps the rows and vectorises the conversion.
inline void normalize_plane(const plane_view& p, std::uint32_t bit_depth, float* out) noexcept {
  const float div = normalize_divisor(bit_depth);
  const Eigen::Index w = p.width;
  for (std::uint32_t y = 0; y < p.height; ++y, out += w) {
    Eigen::Map<Eigen::ArrayXf> dst(out, w);
    if (bit_depth > 8) {
      dst = Eigen::Map<const Eigen::Array<std::uint16_t, Eigen::Dynamic, 1>>(p.row<std::uint16_t>(y), w).cast<float>() / div;
    } else {
      dst = Eigen::Map<const Eigen::Array<std::uint8_t, Eigen::Dynamic, 1>>(p.row<std::uint8_t>(y), w).cast<float>();
    }
  }
}

}  // namespace vqm::cpu
