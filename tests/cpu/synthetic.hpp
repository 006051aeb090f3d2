// SPEC §8.1's deterministic synthetic generator (integer only): the reference and distorted pictures
// of the conformance vectors V1–V7.
#pragma once

#include <cstdint>
#include <cstring>

#include "vqm/picture.hpp"

namespace vqm::test {

// Sample of plane p at (x, y) of frame f; `distorted` applies the hashed noise and the diagonal marks.
[[nodiscard]] constexpr std::uint32_t synthetic_sample(std::uint32_t x, std::uint32_t y, std::uint32_t f, std::uint32_t p,
                                                       std::uint32_t bit_depth, bool distorted) noexcept {
  const std::uint32_t sh = bit_depth - 8;
  const std::int64_t maxv = (std::int64_t{1} << bit_depth) - 1;
  const std::uint32_t base8 = ((3 * x + 5 * y + 7 * f + 11 * p) & 127) + ((((x >> 4) + (y >> 4)) & 1) * 64) + (((x * y) >> 6) & 31);
  const std::uint32_t ref = (base8 << sh) | ((x + y + f) & ((1u << sh) - 1));
  if (!distorted) return ref;
  std::uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (f * 83492791u) ^ (p * 2654435761u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  const std::int64_t n = static_cast<std::int64_t>(h % 9) - 4;
  std::int64_t dist = std::int64_t{ref} + n * (std::int64_t{1} << sh) * (1 + (f & 1));
  if ((x + 2 * y) % 29 == 0) dist += 20 * (std::int64_t{1} << sh);
  return static_cast<std::uint32_t>(dist < 0 ? 0 : dist > maxv ? maxv : dist);
}

// A whole picture (file layout, ceil chroma sizes: every sample is a function of its position, so a
// floor-size view of the chroma planes sees the values libvmaf saw).
[[nodiscard]] inline picture synthetic_picture(const picture_format& fmt, std::uint32_t frame, bool distorted) {
  picture pic(fmt);
  for (int p = 0; p < fmt.planes(); ++p)
    for (std::uint32_t y = 0; y < fmt.plane_height(p); ++y)
      for (std::uint32_t x = 0; x < fmt.plane_width(p); ++x) {
        const std::uint32_t v = synthetic_sample(x, y, frame, static_cast<std::uint32_t>(p), fmt.bit_depth, distorted);
        if (fmt.bit_depth > 8) {
          const auto s = static_cast<std::uint16_t>(v);
          std::memcpy(pic.row<std::uint16_t>(p, y) + x, &s, 2);
        } else {
          pic.row<std::uint8_t>(p, y)[x] = static_cast<std::uint8_t>(v);
        }
      }
  return pic;
}

}  // namespace vqm::test
