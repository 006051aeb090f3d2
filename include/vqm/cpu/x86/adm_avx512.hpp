// x86 AVX-512 (F+BW+VL+DQ) building blocks of the Cpu ADM kernel: cpu/adm_dwt.hpp includes this file after the
// kernel's types when VQM_CPU_X86 is set; the AVX-512 instance of the kernel's body (cpu::isa::avx512) calls them.
// The full-mask maskz_ forms avoid GCC 12's false -Wmaybe-uninitialized on the plain ones (_mm512_undefined_*).
// Each lane performs the portable code's operations (cpu/adm_decouple.hpp) in the same order; no FMA.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"
#include "vqm/tables/adm.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

VQM_CPU_AVX512_BEGIN
namespace vqm::cpu::adm_detail::x86 {

inline __m512d load8d_avx512(const i16* p) noexcept {
  return _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
inline __m512d trunc8_avx512(__m512d x) noexcept { return _mm512_maskz_roundscale_pd(0xFF, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }

// decouple0_v (§7, scale 0) on 8 positions: the same double operations, the selects as masked blends.
// floor via round-down equals the portable trunc(x + 65536) − 65536 for x > −65536; clamping with max/min
// equals the portable compare-and-select (no NaN, and max(−0, 0) truncates to 0 as well).
// The gain limit's part of decouple0_v: r, or where apply the limited value.
inline __m512d limit0_avx512(__m512d r, __m512d t, __mmask8 pos, __mmask8 apply, double egl) noexcept {
  const __m512d xe = _mm512_mul_pd(r, _mm512_set1_pd(egl));
  const __m512d lo = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(xe, t, _CMP_LT_OQ), t, xe);  // xe < t ? xe : t
  const __m512d hi = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(xe, t, _CMP_GT_OQ), t, xe);  // xe > t ? xe : t
  return _mm512_mask_blend_pd(apply, r, trunc8_avx512(_mm512_mask_blend_pd(pos, hi, lo)));
}

// With Two, also the result at gain limit egl2 into r2 (everything before the limit's select shared).
template <bool Two>
inline __m512d decouple0_avx512(__m512d o, __m512d t, __mmask8 flag, double egl, double egl2, __m512d& r2) noexcept {
  const __m512d zero = _mm512_setzero_pd();
  const __mmask8 neg = _mm512_cmp_pd_mask(o, zero, _CMP_LT_OQ), pos = _mm512_cmp_pd_mask(o, zero, _CMP_GT_OQ);
  const __m512d m = _mm512_mask_sub_pd(o, neg, zero, o);
  const __mmask8 mz = _mm512_cmp_pd_mask(m, zero, _CMP_EQ_OQ);
  const __m512d dm = trunc8_avx512(_mm512_div_pd(_mm512_set1_pd(1073741824.0), _mm512_mask_blend_pd(mz, m, _mm512_set1_pd(1.0))));
  const __m512d ts = _mm512_mask_sub_pd(t, neg, zero, t);
  __m512d x = _mm512_mul_pd(_mm512_add_pd(_mm512_mul_pd(dm, ts), _mm512_set1_pd(16384.0)), _mm512_set1_pd(1.0 / 32768.0));
  x = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, zero, _CMP_LT_OQ), x, zero);
  x = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, _mm512_set1_pd(32768.0), _CMP_GT_OQ), x, _mm512_set1_pd(32768.0));
  __m512d k = trunc8_avx512(x);
  k = _mm512_mask_blend_pd(mz, k, _mm512_set1_pd(32768.0));
  const __m512d r = _mm512_maskz_roundscale_pd(0xFF, 
      _mm512_mul_pd(_mm512_add_pd(_mm512_mul_pd(k, o), _mm512_set1_pd(16384.0)), _mm512_set1_pd(1.0 / 32768.0)),
      _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __mmask8 apply = flag & _mm512_cmp_pd_mask(k, zero, _CMP_GT_OQ) & static_cast<__mmask8>(~mz);
  if constexpr (Two) r2 = limit0_avx512(r, t, pos, apply, egl2);
  return limit0_avx512(r, t, pos, apply, egl);
}

// v rounded to float, back to double, / 4096 (exact: a power of two)
inline __m512d f32_4096_avx512(__m512d v) noexcept {
  return _mm512_mul_pd(_mm512_maskz_cvtps_pd(0xFF, _mm512_maskz_cvtpd_ps(0xFF, v)), _mm512_set1_pd(1.0 / 4096.0));
}

// The angle test's p >= 0 && p·p >= (cos1_sq·o)·t.
inline __mmask8 angle_test_avx512(__m512d p, __m512d o, __m512d t) noexcept {
  const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(T::cos1_sq), o), t);
  return _mm512_cmp_pd_mask(p, _mm512_setzero_pd(), _CMP_GE_OQ) & _mm512_cmp_pd_mask(_mm512_mul_pd(p, p), rhs, _CMP_GE_OQ);
}

// angle_flag_v on 8 positions.
inline __mmask8 angle_flag_avx512(__m512d oh, __m512d ov, __m512d th, __m512d tv) noexcept {
  const __m512d p = f32_4096_avx512(_mm512_add_pd(_mm512_mul_pd(oh, th), _mm512_mul_pd(ov, tv)));
  const __m512d o = f32_4096_avx512(_mm512_add_pd(_mm512_mul_pd(oh, oh), _mm512_mul_pd(ov, ov)));
  const __m512d t = f32_4096_avx512(_mm512_add_pd(_mm512_mul_pd(th, th), _mm512_mul_pd(tv, tv)));
  return angle_test_avx512(p, o, t);
}

// rst and add = t − rst of 8 positions (int16, wrapped)
inline void store_rst_add_avx512(__m512d r, const i16* t, i16* rst, i16* add) noexcept {
  const __m256i ri = _mm512_maskz_cvttpd_epi32(0xFF, r);
  const __m256i ti = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(rst), _mm256_maskz_cvtepi32_epi16(0xFF, ri));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(add), _mm256_maskz_cvtepi32_epi16(0xFF, _mm256_sub_epi32(ti, ri)));
}

// decouple0_row's positions [c0, c0 + 8·n) on 8 lanes (with Two, at egl2 into rst2/add2 too); returns the first
// position left to the caller.
template <bool Two>
inline int decouple0_row_avx512(const i16* const ob[3], const i16* const tb[3], i16* const rst[3], i16* const add[3],
                                i16* const rst2[3], i16* const add2[3], int c0, int c1, double egl,
                                double egl2) noexcept {
  int j = c0;
  for (; j + 8 <= c1; j += 8) {
    const __m512d oh = load8d_avx512(ob[0] + j), ov = load8d_avx512(ob[1] + j);
    const __m512d th = load8d_avx512(tb[0] + j), tv = load8d_avx512(tb[1] + j);
    const __mmask8 flag = angle_flag_avx512(oh, ov, th, tv);
    __m512d r2[3] = {};
    const __m512d r[3] = {decouple0_avx512<Two>(oh, th, flag, egl, egl2, r2[0]),
                          decouple0_avx512<Two>(ov, tv, flag, egl, egl2, r2[1]),
                          decouple0_avx512<Two>(load8d_avx512(ob[2] + j), load8d_avx512(tb[2] + j), flag, egl, egl2, r2[2])};
    for (int b = 0; b < 3; ++b) {
      store_rst_add_avx512(r[b], tb[b] + j, rst[b] + j, add[b] + j);
      if constexpr (Two) store_rst_add_avx512(r2[b], tb[b] + j, rst2[b] + j, add2[b] + j);
    }
  }
  return j;
}

// Scales 1..3: angle_flag_i of positions [c0, c0 + 8·n) into flags (all-ones / zero); returns the first position
// left. The int64 products of int32 values (vpmuldq), their sums (< 2^63) and the int64 → float rounding
// (vcvtqq2ps) are the scalar code's.
inline __m512i load8q_avx512(const i32* p) noexcept {
  return _mm512_maskz_cvtepi32_epi64(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
// a·b + c·d of int32 values in int64 lanes, rounded to float, as double / 4096
inline __m512d dot_f32_4096_avx512(__m512i a, __m512i b, __m512i c, __m512i d) noexcept {
  const __m512i s = _mm512_add_epi64(_mm512_maskz_mul_epi32(0xFF, a, b), _mm512_maskz_mul_epi32(0xFF, c, d));
  return _mm512_mul_pd(_mm512_maskz_cvtps_pd(0xFF, _mm512_maskz_cvtepi64_ps(0xFF, s)), _mm512_set1_pd(1.0 / 4096.0));
}
inline int angle_flags_avx512(const i32* oh, const i32* ov, const i32* th, const i32* tv, int c0, int c1,
                              i64* flags) noexcept {
  int j = c0;
  for (; j + 8 <= c1; j += 8) {
    const __m512i a = load8q_avx512(oh + j), b = load8q_avx512(ov + j), c = load8q_avx512(th + j),
                  d = load8q_avx512(tv + j);
    const __m512d p = dot_f32_4096_avx512(a, c, b, d), o = dot_f32_4096_avx512(a, a, b, b),
                  t = dot_f32_4096_avx512(c, c, d, d);
    _mm512_storeu_si512(flags + j, _mm512_movm_epi64(angle_test_avx512(p, o, t)));
  }
  return j;
}

}  // namespace vqm::cpu::adm_detail::x86
VQM_CPU_AVX512_END

#pragma GCC diagnostic pop
