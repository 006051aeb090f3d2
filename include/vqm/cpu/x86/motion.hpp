// x86 kernels of cpu/motion.hpp (which includes this file after its filter constants when VQM_CPU_X86 is
// set): the differences of a row pair, and the horizontal pass x86/motion.inl as SSE2 and as AVX2.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

// One row of prev - cur as int32: d[c] = p[c] - q[c], c < n. (GCC turns __builtin_convertvector of 8-byte
// vectors into scalar code, so x86 widens with unpacks / vpmovzx; the loops write memory, so no vector
// crosses a call between differently targeted functions.)
namespace vqm::cpu::detail::x86::sse2 {
template <class T>
inline void motion_diff_row(const T* p, const T* q, std::int32_t* d, std::int64_t n) noexcept {
  std::int64_t c = 0;
  const __m128i z = _mm_setzero_si128();
  for (; c + 8 <= n; c += 8) {
    __m128i a, b;
    if constexpr (sizeof(T) == 1) {
      a = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + c)), z);
      b = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + c)), z);
    } else {
      a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + c));
      b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + c));
    }
    const __m128i lo = _mm_sub_epi32(_mm_unpacklo_epi16(a, z), _mm_unpacklo_epi16(b, z));
    const __m128i hi = _mm_sub_epi32(_mm_unpackhi_epi16(a, z), _mm_unpackhi_epi16(b, z));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + c), lo);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + c + 4), hi);
  }
  for (; c < n; ++c) d[c] = std::int32_t{p[c]} - std::int32_t{q[c]};
}
#include "vqm/cpu/x86/motion.inl"
}  // namespace vqm::cpu::detail::x86::sse2

VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::detail::x86::avx2 {
template <class T>
inline void motion_diff_row(const T* p, const T* q, std::int32_t* d, std::int64_t n) noexcept {
  std::int64_t c = 0;
  for (; c + 8 <= n; c += 8) {
    const __m256i a = simd::widen8_avx2(p + c), b = simd::widen8_avx2(q + c);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + c), _mm256_sub_epi32(a, b));
  }
  for (; c < n; ++c) d[c] = std::int32_t{p[c]} - std::int32_t{q[c]};
}
#include "vqm/cpu/x86/motion.inl"
}  // namespace vqm::cpu::detail::x86::avx2
VQM_CPU_AVX2_END

#pragma GCC diagnostic pop
