// x86 AVX2 DWT of scales 1..3 (SPEC-vmaf §4.4) for the Cpu ADM kernel: cpu/adm_dwt.hpp includes this file after
// the kernel's types when VQM_CPU_X86 is set; dwt_s's AVX2 instance runs it. The int64 arithmetic of the
// portable passes is done in doubles, exactly: the inputs are int32, every product with a tap is below 2^46 and
// every sum below 2^48, so all are integers a double holds; the shifts are multiplications by 2^-n and floor,
// and the wrap to int32 is the low dword of the sum with 1.5·2^52 (whose mantissa is the integer + 2^51).
// The vertical pass stores its row split by padded position's parity (even / odd arrays), so the horizontal
// pass's taps 2j .. 2j + 3 are four contiguous loads.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"

VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::adm_detail::x86 {

// floor(v · scale), scale = 2^-n, wrapped to int32, for 4 integer-valued doubles |v| < 2^48
inline __m128i floor_wrap32_avx2(__m256d v, __m256d scale) noexcept {
  const __m256d f = _mm256_round_pd(_mm256_mul_pd(v, scale), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m256i b = _mm256_castpd_si256(_mm256_add_pd(f, _mm256_set1_pd(6755399441055744.0)));
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

// The LO and HI filters (§4.1) of four taps, plus the rounding term.
inline void lohi_avx2(__m256d x0, __m256d x1, __m256d x2, __m256d x3, __m256d rnd, __m256d& lo, __m256d& hi) noexcept {
  const auto c = [](double v) { return _mm256_set1_pd(v); };
  lo = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c(15826), x0), _mm256_mul_pd(c(27411), x1)),
                                   _mm256_add_pd(_mm256_mul_pd(c(7345), x2), _mm256_mul_pd(c(-4240), x3))), rnd);
  hi = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c(-4240), x0), _mm256_mul_pd(c(-7345), x1)),
                                   _mm256_add_pd(_mm256_mul_pd(c(27411), x2), _mm256_mul_pd(c(-15826), x3))), rnd);
}

inline void store4i_avx2(i32* p, __m128i v) noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline __m256d load4i_pd_avx2(const i32* p) noexcept {
  return _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Vertical pass over columns [0, 8·n) of rows r[0..3] (taps 0..3): column x is padded position x + 1, stored
// at odd[x / 2] for even x and at even[(x + 1) / 2] for odd x (LO into le/lo, HI into he/ho). Returns the
// first column left to the caller.
inline int dwt_s_vertical_avx2(const i32* const (&r)[4], int W, double round, double scale, i32* le, i32* lo, i32* he,
                               i32* ho) noexcept {
  const __m256i deint = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256d rnd = _mm256_set1_pd(round), sc = _mm256_set1_pd(scale);
  int x = 0;
  for (; x + 8 <= W; x += 8) {
    __m256d ev[4], od[4];
    for (int k = 0; k < 4; ++k) {
      const __m256i v = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r[k] + x)), deint);
      ev[k] = _mm256_cvtepi32_pd(_mm256_castsi256_si128(v));
      od[k] = _mm256_cvtepi32_pd(_mm256_extracti128_si256(v, 1));
    }
    __m256d l, h;
    lohi_avx2(ev[0], ev[1], ev[2], ev[3], rnd, l, h);
    store4i_avx2(lo + x / 2, floor_wrap32_avx2(l, sc));
    store4i_avx2(ho + x / 2, floor_wrap32_avx2(h, sc));
    lohi_avx2(od[0], od[1], od[2], od[3], rnd, l, h);
    store4i_avx2(le + x / 2 + 1, floor_wrap32_avx2(l, sc));
    store4i_avx2(he + x / 2 + 1, floor_wrap32_avx2(h, sc));
  }
  return x;
}

// Horizontal pass of one padded row held as even/odd arrays: outputs [0, 4·n) of LO into lo, HI into hi (output
// j reads padded positions 2j .. 2j + 3 = even[j], odd[j], even[j + 1], odd[j + 1]). Returns the first output
// left to the caller.
inline int dwt_s_horizontal_avx2(const i32* even, const i32* odd, int mw, double round, double scale, i32* lo,
                                 i32* hi) noexcept {
  const __m256d rnd = _mm256_set1_pd(round), sc = _mm256_set1_pd(scale);
  int j = 0;
  for (; j + 4 <= mw; j += 4) {
    __m256d l, h;
    lohi_avx2(load4i_pd_avx2(even + j), load4i_pd_avx2(odd + j), load4i_pd_avx2(even + j + 1),
              load4i_pd_avx2(odd + j + 1), rnd, l, h);
    store4i_avx2(lo + j, floor_wrap32_avx2(l, sc));
    store4i_avx2(hi + j, floor_wrap32_avx2(h, sc));
  }
  return j;
}

}  // namespace vqm::cpu::adm_detail::x86
VQM_CPU_AVX2_END
