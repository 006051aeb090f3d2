// x86 AVX2 DWT of scales 1..3 (SPEC-vmaf §4.4) for the Cpu ADM kernel: cpu/adm_dwt.hpp includes this file after
// the kernel's types when VQM_CPU_X86 is set; dwt_s's AVX2 instance runs it. Scale 1's input is scale 0's band
// a (int16): its vertical pass (no shift) is pmaddwd on row pairs, exact in int32 (|Σ| <= 54822·32768). The
// other passes do the portable int64 arithmetic in doubles, exactly: the inputs are int32, every product with
// a tap is below 2^46 and every sum below 2^48, so all are integers a double holds; the shifts are
// multiplications by 2^-n and floor, and the wrap to int32 is the low dword of the sum with 1.5·2^52 (whose
// mantissa is the integer + 2^51).
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
  lo = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(15826), x0), _mm256_mul_pd(_mm256_set1_pd(27411), x1)),
                                   _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(7345), x2), _mm256_mul_pd(_mm256_set1_pd(-4240), x3))),
                     rnd);
  hi = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(-4240), x0), _mm256_mul_pd(_mm256_set1_pd(-7345), x1)),
                                   _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(27411), x2), _mm256_mul_pd(_mm256_set1_pd(-15826), x3))),
                     rnd);
}

inline void store4i_avx2(i32* p, __m128i v) noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline __m256d load4i_pd_avx2(const i32* p) noexcept {
  return _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Vertical pass over columns [0, 4·n) of int32 rows r[0..3] (taps 0..3) into tl/th (already offset by one).
// Returns the first column left to the caller.
inline int dwt_s_vertical_avx2(const i32* const (&r)[4], int W, double round, double scale, i32* tl, i32* th) noexcept {
  const __m256d rnd = _mm256_set1_pd(round), sc = _mm256_set1_pd(scale);
  int x = 0;
  for (; x + 4 <= W; x += 4) {
    __m256d l, h;
    lohi_avx2(load4i_pd_avx2(r[0] + x), load4i_pd_avx2(r[1] + x), load4i_pd_avx2(r[2] + x), load4i_pd_avx2(r[3] + x),
              rnd, l, h);
    store4i_avx2(tl + x, floor_wrap32_avx2(l, sc));
    store4i_avx2(th + x, floor_wrap32_avx2(h, sc));
  }
  return x;
}

// 16 int32 columns from pmaddwd sums of row pairs unpacked within 128-bit halves (s0: columns 0-3 and 8-11,
// s1: 4-7 and 12-15), in order
inline void put16_avx2(i32* t, __m256i s0, __m256i s1) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t), _mm256_permute2x128_si256(s0, s1, 0x20));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t + 8), _mm256_permute2x128_si256(s0, s1, 0x31));
}

// The same for int16 rows with no rounding or shift (scale 1), 16 columns at a time with pmaddwd.
inline int dwt_s_vertical_avx2(const i16* const (&r)[4], int W, double, double, i32* tl, i32* th) noexcept {
  const auto pair = [](int a, int b) { return static_cast<int>((static_cast<u32>(b) << 16) | static_cast<std::uint16_t>(a)); };
  const __m256i l01 = _mm256_set1_epi32(pair(15826, 27411)), l23 = _mm256_set1_epi32(pair(7345, -4240));
  const __m256i h01 = _mm256_set1_epi32(pair(-4240, -7345)), h23 = _mm256_set1_epi32(pair(27411, -15826));
  int x = 0;
  for (; x + 16 <= W; x += 16) {
    __m256i v[4];
    for (int k = 0; k < 4; ++k) v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r[k] + x));
    const __m256i a0 = _mm256_unpacklo_epi16(v[0], v[1]), a1 = _mm256_unpackhi_epi16(v[0], v[1]);
    const __m256i b0 = _mm256_unpacklo_epi16(v[2], v[3]), b1 = _mm256_unpackhi_epi16(v[2], v[3]);
    put16_avx2(tl + x, _mm256_add_epi32(_mm256_madd_epi16(a0, l01), _mm256_madd_epi16(b0, l23)),
        _mm256_add_epi32(_mm256_madd_epi16(a1, l01), _mm256_madd_epi16(b1, l23)));
    put16_avx2(th + x, _mm256_add_epi32(_mm256_madd_epi16(a0, h01), _mm256_madd_epi16(b0, h23)),
        _mm256_add_epi32(_mm256_madd_epi16(a1, h01), _mm256_madd_epi16(b1, h23)));
  }
  return x;
}

// Horizontal pass of one padded row t (t[p + 1] = position p): outputs [0, 4·n) of LO into lo, HI into hi
// (output j reads t[2j .. 2j + 3]; two loads of 8 split into even and odd positions give the four taps of 4
// outputs). Returns the first output left to the caller.
inline int dwt_s_horizontal_avx2(const i32* t, int mw, double round, double scale, i32* lo, i32* hi) noexcept {
  const __m256d rnd = _mm256_set1_pd(round), sc = _mm256_set1_pd(scale);
  const __m256i deint = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  int j = 0;
  // reads t[2j .. 2j + 9]: t holds 2·mw + 2 values at least
  for (; j + 4 <= mw; j += 4) {
    const __m256i p0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j)), deint);
    const __m256i p2 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 2)), deint);
    __m256d l, h;
    lohi_avx2(_mm256_cvtepi32_pd(_mm256_castsi256_si128(p0)), _mm256_cvtepi32_pd(_mm256_extracti128_si256(p0, 1)),
              _mm256_cvtepi32_pd(_mm256_castsi256_si128(p2)), _mm256_cvtepi32_pd(_mm256_extracti128_si256(p2, 1)), rnd, l, h);
    store4i_avx2(lo + j, floor_wrap32_avx2(l, sc));
    store4i_avx2(hi + j, floor_wrap32_avx2(h, sc));
  }
  return j;
}

}  // namespace vqm::cpu::adm_detail::x86
VQM_CPU_AVX2_END
