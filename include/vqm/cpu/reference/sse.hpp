// Reference kernel (scalar, kept for tests): exact integer sum of squared differences of one plane (integer PSNR, SPEC §2.4).
#pragma once

#include <cstdint>

#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

namespace detail {
template <class T>
[[nodiscard]] inline std::uint64_t sse_rows(const plane_view& a, const plane_view& b) noexcept {
  std::uint64_t total = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const T* ra = a.row<T>(y);
    const T* rb = b.row<T>(y);
    // Row sums fit in 64 bits; the compiler vectorises this loop (squares are exact integers).
    std::uint64_t row = 0;
    for (std::uint32_t x = 0; x < a.width; ++x) {
      const std::int64_t d = std::int64_t{ra[x]} - std::int64_t{rb[x]};
      row += static_cast<std::uint64_t>(d * d);
    }
    total += row;
  }
  return total;
}
}  // namespace detail

[[nodiscard]] inline std::uint64_t sse_plane(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept {
  return bit_depth > 8 ? detail::sse_rows<std::uint16_t>(a, b) : detail::sse_rows<std::uint8_t>(a, b);
}

}  // namespace vqm::cpu::reference
