// SSIM geometry shared by float_ssim and every backend: the decimation factor and decimated size.
#pragma once

#include <algorithm>
#include <cstdint>

namespace vqm {

// Automatic factor (SPEC §4.3): max(1, round_half_up(f32(f32(min(W, H)) / 256.0f))), the fraction
// compared in float.
[[nodiscard]] inline std::uint32_t ssim_auto_scale(std::uint32_t width, std::uint32_t height) noexcept {
  const float a = static_cast<float>(std::min(width, height)) / 256.0f;
  const float t = static_cast<float>(static_cast<std::int64_t>(a));
  const std::int64_t r = (a - t >= 0.5f) ? static_cast<std::int64_t>(t) + 1 : static_cast<std::int64_t>(t);
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, r));
}

// Decimated size (SPEC §4.4): floor(D/s) + (D mod 2) for s > 1 — the input's parity is added whatever s.
[[nodiscard]] constexpr std::uint32_t ssim_decimated(std::uint32_t d, std::uint32_t s) noexcept {
  return s <= 1 ? d : d / s + (d % 2);
}

// Half-sample symmetric reflection with period 2n (SPEC §4.4), used by both box and 9/7 decimation.
[[nodiscard]] constexpr std::int64_t mirror(std::int64_t i, std::int64_t n) noexcept {
  const std::int64_t period = 2 * n;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - 1 - i;
}

// MS-SSIM pyramid level sizes: ceil halving (SPEC §5.3).
[[nodiscard]] constexpr std::uint32_t ms_ssim_level_size(std::uint32_t d, int level) noexcept {
  for (int k = 0; k < level; ++k) d = d / 2 + (d % 2);
  return d;
}

}  // namespace vqm
