// Cpu kernel: exact integer sum of squared differences of one plane (integer PSNR, SPEC §2.4).
//
// Integer sums are exact in any order, so this kernel is free to use wide SIMD: on x86 (x86/sse.hpp),
// differences as int16, pmaddwd for the squares, 32-bit lane sums widened to 64 bits before they could
// overflow; elsewhere the plain loop, which the compiler vectorises.
#pragma once

#include <cstdint>

#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::detail {

template <class T>
[[nodiscard]] inline std::uint64_t sse_row_scalar(const T* a, const T* b, std::uint32_t from, std::uint32_t to) noexcept {
  std::uint64_t s = 0;
  for (std::uint32_t x = from; x < to; ++x) {
    const std::int64_t d = std::int64_t{a[x]} - std::int64_t{b[x]};
    s += static_cast<std::uint64_t>(d * d);
  }
  return s;
}

template <class T>
[[nodiscard]] inline std::uint64_t sse_generic(const plane_view& a, const plane_view& b) noexcept {
  std::uint64_t total = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) total += sse_row_scalar(a.row<T>(y), b.row<T>(y), 0, a.width);
  return total;
}

}  // namespace vqm::cpu::detail

#if VQM_CPU_X86
#include "vqm/cpu/x86/sse.hpp"
#endif

namespace vqm::cpu {

[[nodiscard]] VQM_CPU_KERNEL std::uint64_t sse_plane(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept
#if VQM_CPU_KERNEL_BODIES
{
#if VQM_CPU_X86
  const bool avx2 = active_isa() >= isa::avx2;
  if (bit_depth <= 8) return avx2 ? detail::x86::avx2::sse8(a, b) : detail::x86::sse2::sse8(a, b);
  if (bit_depth <= 15) return avx2 ? detail::x86::avx2::sse16(a, b) : detail::x86::sse2::sse16(a, b);
  return detail::sse_generic<std::uint16_t>(a, b);  // 16-bit squares need 64-bit lanes; plain loop
#else
  return bit_depth > 8 ? detail::sse_generic<std::uint16_t>(a, b) : detail::sse_generic<std::uint8_t>(a, b);
#endif
}
#else
;
#endif

}  // namespace vqm::cpu
