// Cpu kernel: exact integer sum of squared differences of one plane (integer PSNR, SPEC §2.4).
//
// Integer sums are exact in any order, so this kernel is free to use wide SIMD: differences as int16,
// pmaddwd for the squares, 32-bit lane sums widened to 64 bits before they could overflow.
#pragma once

#include <cstdint>

#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

namespace detail {

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

#if VQM_CPU_X86
// Lanes of pmaddwd results (each <= 2·255² for 8 bit) summed in 32 bits; 8192 rounds of 4 per lane stay
// below 2^32, then the lanes are widened to 64 bits.
VQM_CPU_AVX2 inline std::uint64_t sse8_avx2(const plane_view& a, const plane_view& b) noexcept {
  const __m256i zero = _mm256_setzero_si256();
  __m256i acc64 = zero;
  const std::uint32_t w = a.width, vec_end = w & ~31u;
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint8_t>(y);
    const auto* rb = b.row<std::uint8_t>(y);
    __m256i acc32 = zero;
    std::uint32_t rounds = 0;
    for (std::uint32_t x = 0; x < vec_end; x += 32) {
      const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ra + x));
      const __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rb + x));
      const __m256i dlo = _mm256_sub_epi16(_mm256_unpacklo_epi8(va, zero), _mm256_unpacklo_epi8(vb, zero));
      const __m256i dhi = _mm256_sub_epi16(_mm256_unpackhi_epi8(va, zero), _mm256_unpackhi_epi8(vb, zero));
      acc32 = _mm256_add_epi32(acc32, _mm256_add_epi32(_mm256_madd_epi16(dlo, dlo), _mm256_madd_epi16(dhi, dhi)));
      if (++rounds == 8192 || x + 32 >= vec_end) {
        acc64 = _mm256_add_epi64(acc64, _mm256_unpacklo_epi32(acc32, zero));
        acc64 = _mm256_add_epi64(acc64, _mm256_unpackhi_epi32(acc32, zero));
        acc32 = zero;
        rounds = 0;
      }
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc64);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail;
}

// 9..15 bit: differences fit int16 and a pmaddwd pair sum fits int32; widened every round.
VQM_CPU_AVX2 inline std::uint64_t sse16_avx2(const plane_view& a, const plane_view& b) noexcept {
  const __m256i zero = _mm256_setzero_si256();
  __m256i acc64 = zero;
  const std::uint32_t w = a.width, vec_end = w & ~15u;
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint16_t>(y);
    const auto* rb = b.row<std::uint16_t>(y);
    for (std::uint32_t x = 0; x < vec_end; x += 16) {
      const __m256i d = _mm256_sub_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(ra + x)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rb + x)));
      const __m256i sq = _mm256_madd_epi16(d, d);
      acc64 = _mm256_add_epi64(acc64, _mm256_unpacklo_epi32(sq, zero));
      acc64 = _mm256_add_epi64(acc64, _mm256_unpackhi_epi32(sq, zero));
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc64);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail;
}

// The same with SSE2 (every x86-64 has it).
inline std::uint64_t sse8_sse2(const plane_view& a, const plane_view& b) noexcept {
  const __m128i zero = _mm_setzero_si128();
  __m128i acc64 = zero;
  const std::uint32_t w = a.width, vec_end = w & ~15u;
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint8_t>(y);
    const auto* rb = b.row<std::uint8_t>(y);
    __m128i acc32 = zero;
    std::uint32_t rounds = 0;
    for (std::uint32_t x = 0; x < vec_end; x += 16) {
      const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ra + x));
      const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rb + x));
      const __m128i dlo = _mm_sub_epi16(_mm_unpacklo_epi8(va, zero), _mm_unpacklo_epi8(vb, zero));
      const __m128i dhi = _mm_sub_epi16(_mm_unpackhi_epi8(va, zero), _mm_unpackhi_epi8(vb, zero));
      acc32 = _mm_add_epi32(acc32, _mm_add_epi32(_mm_madd_epi16(dlo, dlo), _mm_madd_epi16(dhi, dhi)));
      if (++rounds == 8192 || x + 16 >= vec_end) {
        acc64 = _mm_add_epi64(acc64, _mm_unpacklo_epi32(acc32, zero));
        acc64 = _mm_add_epi64(acc64, _mm_unpackhi_epi32(acc32, zero));
        acc32 = zero;
        rounds = 0;
      }
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  alignas(16) std::uint64_t lanes[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), acc64);
  return lanes[0] + lanes[1] + tail;
}

inline std::uint64_t sse16_sse2(const plane_view& a, const plane_view& b) noexcept {
  const __m128i zero = _mm_setzero_si128();
  __m128i acc64 = zero;
  const std::uint32_t w = a.width, vec_end = w & ~7u;
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint16_t>(y);
    const auto* rb = b.row<std::uint16_t>(y);
    for (std::uint32_t x = 0; x < vec_end; x += 8) {
      const __m128i d = _mm_sub_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(ra + x)),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(rb + x)));
      const __m128i sq = _mm_madd_epi16(d, d);
      acc64 = _mm_add_epi64(acc64, _mm_unpacklo_epi32(sq, zero));
      acc64 = _mm_add_epi64(acc64, _mm_unpackhi_epi32(sq, zero));
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  alignas(16) std::uint64_t lanes[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), acc64);
  return lanes[0] + lanes[1] + tail;
}
#endif

}  // namespace detail

[[nodiscard]] VQM_CPU_KERNEL std::uint64_t sse_plane(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) noexcept
#if VQM_CPU_KERNEL_BODIES
{
#if VQM_CPU_X86
  const bool avx2 = active_isa() == isa::avx2;
  if (bit_depth <= 8) return avx2 ? detail::sse8_avx2(a, b) : detail::sse8_sse2(a, b);
  if (bit_depth <= 15) return avx2 ? detail::sse16_avx2(a, b) : detail::sse16_sse2(a, b);
  return detail::sse_generic<std::uint16_t>(a, b);  // 16-bit squares need 64-bit lanes; plain loop
#else
  return bit_depth > 8 ? detail::sse_generic<std::uint16_t>(a, b) : detail::sse_generic<std::uint8_t>(a, b);
#endif
}
#else
;
#endif

}  // namespace vqm::cpu
