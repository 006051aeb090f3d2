// Reference kernel (scalar, kept for tests): the integer motion SAD (SPEC-vmaf A.3 steps 1-4), literally.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

// SAD of the 5x5-filtered difference prev - cur (reflect-101 borders, floor shifts by bpc then 16, per-row
// uint32 sums of |E| added into uint64). Planes of equal size, W and H >= 3; bpc 8 (uint8) or 9..16 (uint16).
[[nodiscard]] inline std::uint64_t motion_sad(const plane_view& prev, const plane_view& cur, unsigned bpc) {
  static constexpr std::int64_t f[5] = {3571, 16004, 26386, 16004, 3571};
  const std::int64_t w = cur.width, h = cur.height;
  if (w < 3 || h < 3 || prev.width != cur.width || prev.height != cur.height || bpc < 8 || bpc > 16)
    throw error(errc::invalid_argument, "motion_sad needs two planes of the same size, at least 3x3, and 8..16 bits");
  const auto m = [](std::int64_t t, std::int64_t n) { return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t); };
  const auto sample = [&](const plane_view& p, std::int64_t y, std::int64_t x) -> std::int64_t {
    const auto r = static_cast<std::uint32_t>(y);
    return bpc == 8 ? std::int64_t{p.row<std::uint8_t>(r)[x]} : std::int64_t{p.row<std::uint16_t>(r)[x]};
  };
  std::vector<std::int64_t> v(static_cast<std::size_t>(w));
  std::uint64_t sad = 0;
  for (std::int64_t r = 0; r < h; ++r) {
    for (std::int64_t c = 0; c < w; ++c) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) {
        const std::int64_t y = m(r - 2 + k, h);
        acc += f[k] * (sample(prev, y, c) - sample(cur, y, c));
      }
      v[static_cast<std::size_t>(c)] = (acc + (std::int64_t{1} << (bpc - 1))) >> bpc;
    }
    std::uint32_t row = 0;
    for (std::int64_t c = 0; c < w; ++c) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) acc += f[k] * v[static_cast<std::size_t>(m(c - 2 + k, w))];
      const std::int64_t e = (acc + (std::int64_t{1} << 15)) >> 16;
      row += static_cast<std::uint32_t>(e < 0 ? -e : e);
    }
    sad += row;
  }
  return sad;
}

}  // namespace vqm::cpu::reference
