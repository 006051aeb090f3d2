// x86 (AVX2) building blocks of the Cpu ADM kernel: cpu/adm_dwt.hpp includes this file after the kernel's
// types when VQM_CPU_X86 is set; the AVX2 instance of the kernel's body calls them.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace vqm::cpu::adm_detail::x86 {

// §4.3 horizontal pass of one padded row t (t[p + 1] = position p) with pmaddwd: outputs j in [0, n16) of the
// LO and HI filters, n16 a multiple of 16. Exact: each pair sum |F0·t0 + F1·t1| < 2^31 and the final value
// after >> 16 is within int16 (|Σ| <= 54822·32768), so the saturating pack never saturates.
__attribute__((target("avx2"))) inline void hpass0_avx2(const i16* t, int n16, i16* lo, i16* hi) noexcept {
  const __m256i l01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(27411) << 16) | 15826u));
  const __m256i l23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-4240)) << 16) | 7345u));
  const __m256i h01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-7345)) << 16) | static_cast<std::uint16_t>(-4240)));
  const __m256i h23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-15826)) << 16) | 27411u));
  const __m256i rnd = _mm256_set1_epi32(32768);
  for (int j = 0; j < n16; j += 16) {
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j));       // pairs j..j+7
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 2));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 16));  // pairs j+8..j+15
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 18));
    const __m256i lo0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a0, l01), _mm256_madd_epi16(b0, l23)), rnd), 16);
    const __m256i lo1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a1, l01), _mm256_madd_epi16(b1, l23)), rnd), 16);
    const __m256i hi0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a0, h01), _mm256_madd_epi16(b0, h23)), rnd), 16);
    const __m256i hi1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a1, h01), _mm256_madd_epi16(b1, h23)), rnd), 16);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo + j), _mm256_permute4x64_epi64(_mm256_packs_epi32(lo0, lo1), 0xD8));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi + j), _mm256_permute4x64_epi64(_mm256_packs_epi32(hi0, hi1), 0xD8));
  }
}

// §4.3 vertical pass with pmaddwd for samples below 2^15 (used for 8-bit input): columns [0, n16) of the rows
// r0..r3 into tl/th (already offset by one), n16 a multiple of 16. Exact: every pair sum and the 4-tap sum are
// below 2^31 in magnitude for such samples, and the results after the shift are within int16 (the pack never
// saturates).
template <class Px>
__attribute__((target("avx2"))) inline __m256i load16_avx2(const Px* p) noexcept {
  if constexpr (sizeof(Px) == 1) return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  else return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
template <class Px>
__attribute__((target("avx2"))) inline void vpass0_avx2(const Px* r0, const Px* r1, const Px* r2, const Px* r3, int n16,
                                                       int shift, i32 off_lo, i32 off_hi, bool lo_only, i16* tl,
                                                       i16* th) noexcept {
  const __m256i l01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(27411) << 16) | 15826u));
  const __m256i l23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-4240)) << 16) | 7345u));
  const __m256i h01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-7345)) << 16) | static_cast<std::uint16_t>(-4240)));
  const __m256i h23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-15826)) << 16) | 27411u));
  const __m256i ol = _mm256_set1_epi32(off_lo), oh = _mm256_set1_epi32(off_hi);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  for (int x = 0; x < n16; x += 16) {
    const __m256i a = load16_avx2(r0 + x), b = load16_avx2(r1 + x), c = load16_avx2(r2 + x), d = load16_avx2(r3 + x);
    const __m256i ab0 = _mm256_unpacklo_epi16(a, b), ab1 = _mm256_unpackhi_epi16(a, b);
    const __m256i cd0 = _mm256_unpacklo_epi16(c, d), cd1 = _mm256_unpackhi_epi16(c, d);
    const __m256i lo0 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab0, l01), _mm256_madd_epi16(cd0, l23)), ol), sh);
    const __m256i lo1 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab1, l01), _mm256_madd_epi16(cd1, l23)), ol), sh);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(tl + x), _mm256_packs_epi32(lo0, lo1));
    if (lo_only) continue;
    const __m256i hi0 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab0, h01), _mm256_madd_epi16(cd0, h23)), oh), sh);
    const __m256i hi1 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab1, h01), _mm256_madd_epi16(cd1, h23)), oh), sh);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(th + x), _mm256_packs_epi32(hi0, hi1));
  }
}

}  // namespace vqm::cpu::adm_detail::x86

// §7 scale-0 decoupling on 4 double lanes (decouple0_v's operations in the same order, written with AVX2
// intrinsics: GCC lowers the portable code's int32 round trips for trunc to six instructions where vroundpd
// is one, and its selects to and/andnot/or). floor by round-down, the clamps by max/min, as x86/adm_avx512.hpp.
VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::adm_detail::x86 {

inline __m256d load4d_avx2(const i16* p) noexcept {
  return _mm256_cvtepi32_pd(_mm_cvtepi16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
inline __m256d trunc4_avx2(__m256d x) noexcept { return _mm256_round_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }

// r, or where apply the gain-limited value (o > 0: min(r·e, t); else max(r·e, t))
inline __m256d limit0_avx2(__m256d r, __m256d t, __m256d pos, __m256d apply, double egl) noexcept {
  const __m256d xe = _mm256_mul_pd(r, _mm256_set1_pd(egl));
  return _mm256_blendv_pd(r, trunc4_avx2(_mm256_blendv_pd(_mm256_max_pd(xe, t), _mm256_min_pd(xe, t), pos)), apply);
}

template <bool Two>
inline __m256d decouple0_avx2(__m256d o, __m256d t, __m256d flag, double egl, double egl2, __m256d& r2) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d neg = _mm256_cmp_pd(o, zero, _CMP_LT_OQ), pos = _mm256_cmp_pd(o, zero, _CMP_GT_OQ);
  const __m256d m = _mm256_blendv_pd(o, _mm256_sub_pd(zero, o), neg);
  const __m256d mz = _mm256_cmp_pd(m, zero, _CMP_EQ_OQ);
  const __m256d dm = trunc4_avx2(_mm256_div_pd(_mm256_set1_pd(1073741824.0), _mm256_blendv_pd(m, _mm256_set1_pd(1.0), mz)));
  const __m256d ts = _mm256_blendv_pd(t, _mm256_sub_pd(zero, t), neg);
  __m256d x = _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(dm, ts), _mm256_set1_pd(16384.0)), _mm256_set1_pd(1.0 / 32768.0));
  x = _mm256_min_pd(_mm256_max_pd(x, zero), _mm256_set1_pd(32768.0));
  const __m256d k = _mm256_blendv_pd(trunc4_avx2(x), _mm256_set1_pd(32768.0), mz);
  const __m256d r = _mm256_round_pd(
      _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(k, o), _mm256_set1_pd(16384.0)), _mm256_set1_pd(1.0 / 32768.0)),
      _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m256d apply = _mm256_andnot_pd(mz, _mm256_and_pd(flag, _mm256_cmp_pd(k, zero, _CMP_GT_OQ)));
  if constexpr (Two) r2 = limit0_avx2(r, t, pos, apply, egl2);
  return limit0_avx2(r, t, pos, apply, egl);
}

// angle_flag_v on 4 positions (all-ones / zero lanes)
inline __m256d f32_4096_avx2(__m256d v) noexcept {
  return _mm256_mul_pd(_mm256_cvtps_pd(_mm256_cvtpd_ps(v)), _mm256_set1_pd(1.0 / 4096.0));
}
inline __m256d angle_flag_avx2(__m256d oh, __m256d ov, __m256d th, __m256d tv) noexcept {
  const __m256d p = f32_4096_avx2(_mm256_add_pd(_mm256_mul_pd(oh, th), _mm256_mul_pd(ov, tv)));
  const __m256d o = f32_4096_avx2(_mm256_add_pd(_mm256_mul_pd(oh, oh), _mm256_mul_pd(ov, ov)));
  const __m256d t = f32_4096_avx2(_mm256_add_pd(_mm256_mul_pd(th, th), _mm256_mul_pd(tv, tv)));
  const __m256d rhs = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(T::cos1_sq), o), t);
  return _mm256_and_pd(_mm256_cmp_pd(p, _mm256_setzero_pd(), _CMP_GE_OQ), _mm256_cmp_pd(_mm256_mul_pd(p, p), rhs, _CMP_GE_OQ));
}

// rst and add = t − rst of 4 positions (int16, wrapped)
inline void store_rst_add_avx2(__m256d r, const i16* t, i16* rst, i16* add) noexcept {
  const __m128i lo16 = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i ri = _mm256_cvttpd_epi32(r);
  const __m128i ti = _mm_cvtepi16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(t)));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(rst), _mm_shuffle_epi8(ri, lo16));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(add), _mm_shuffle_epi8(_mm_sub_epi32(ti, ri), lo16));
}

// decouple0_row's positions [c0, c0 + 4·n) (with Two, at egl2 into rst2/add2 too); returns the first position
// left to the caller.
template <bool Two>
inline int decouple0_row_avx2(const i16* const ob[3], const i16* const tb[3], i16* const rst[3], i16* const add[3],
                              i16* const rst2[3], i16* const add2[3], int c0, int c1, double egl, double egl2) noexcept {
  int j = c0;
  for (; j + 4 <= c1; j += 4) {
    const __m256d oh = load4d_avx2(ob[0] + j), ov = load4d_avx2(ob[1] + j);
    const __m256d th = load4d_avx2(tb[0] + j), tv = load4d_avx2(tb[1] + j);
    const __m256d flag = angle_flag_avx2(oh, ov, th, tv);
    __m256d r2[3] = {};
    const __m256d r[3] = {decouple0_avx2<Two>(oh, th, flag, egl, egl2, r2[0]),
                          decouple0_avx2<Two>(ov, tv, flag, egl, egl2, r2[1]),
                          decouple0_avx2<Two>(load4d_avx2(ob[2] + j), load4d_avx2(tb[2] + j), flag, egl, egl2, r2[2])};
    for (int b = 0; b < 3; ++b) {
      store_rst_add_avx2(r[b], tb[b] + j, rst[b] + j, add[b] + j);
      if constexpr (Two) store_rst_add_avx2(r2[b], tb[b] + j, rst2[b] + j, add2[b] + j);
    }
  }
  return j;
}

// The masking's int64 stage for 8 int32 lanes x >= 0: Σ (x2·x + rnd) >> c with x2 = wrap32((x·x + r) >> q),
// each term shifted logically with masked_bias added (rb = bias + rnd); masked_total_avx2 takes the biases off.
constexpr u64 masked_bias = u64{1} << 62;
inline __m256i masked_terms_avx2(__m256i x, __m256i rq, __m128i shq, __m256i rb, __m128i shc, __m256i acc) noexcept {
  for (const __m256i h : {x, _mm256_srli_epi64(x, 32)}) {
    const __m256i x2 = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(h, h), rq), shq);
    acc = _mm256_add_epi64(acc, _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epi32(x2, h), rb), shc));
  }
  return acc;
}
inline i64 masked_total_avx2(__m256i acc, u64 terms, int c) noexcept {
  alignas(32) u64 a[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(a), acc);
  return static_cast<i64>(a[0] + a[1] + a[2] + a[3] - terms * (masked_bias >> c));
}

// masked_row0's sum (§9.2) over [L, L + 8·n): the int32 stages (y·irf, |·|, − thr << sub, clamp at 0) in 8
// lanes, the int64 ones in their even and odd halves (vpmuludq for x·x, vpmuldq for x2·x, which reads x2's low
// dword as the portable code's wrap32 does). AVX2 has no 64-bit arithmetic shift: each term is shifted
// logically with 2^62 added (|x2·x| < 2^62), and the 2^62 >> cb each term so carries is taken off the total
// (mod 2^64, as the true sum fits int64). Adds to sum; returns the first position left.
inline int masked_row0_avx2(const i16* y, const i32* thr, int L, int R, u32 irf, int sub, int sq, i64 rsq, int cb,
                            i64& sum) noexcept {
  const __m256i vir = _mm256_set1_epi32(static_cast<int>(irf)), zero = _mm256_setzero_si256();
  const __m128i shs = _mm_cvtsi32_si128(sub), shq = _mm_cvtsi32_si128(sq), shc = _mm_cvtsi32_si128(cb);
  const __m256i rq = _mm256_set1_epi64x(rsq);
  const __m256i rb = _mm256_set1_epi64x(static_cast<i64>(masked_bias + (u64{1} << (cb - 1))));
  __m256i acc = zero;
  int j = L;
  u64 terms = 0;
  for (; j + 8 <= R; j += 8, terms += 8) {
    const __m256i yv = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + j)));
    const __m256i th = _mm256_sll_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(thr + j)), shs);
    const __m256i x = _mm256_max_epi32(_mm256_sub_epi32(_mm256_abs_epi32(_mm256_mullo_epi32(yv, vir)), th), zero);
    acc = masked_terms_avx2(x, rq, shq, rb, shc, acc);
  }
  sum += masked_total_avx2(acc, terms, cb);
  return j;
}

// masked_row_s's sum (§9.3) over [L, L + 8·n) as masked_row0_avx2; the CSF value wrap32((y·irf + 2^27) >> 28)
// from |y|·irf (vpmuludq, < 2^63) in the even and odd halves, rounded as csf_c rounds, negated where y < 0.
inline int masked_row_s_avx2(const i32* y, const i32* thr, int L, int R, u32 irf, int cs, i64& sum) noexcept {
  const __m256i vir = _mm256_set1_epi64x(irf), zero = _mm256_setzero_si256();
  const __m256i r27 = _mm256_set1_epi64x(i64{1} << 27), r27m = _mm256_set1_epi64x((i64{1} << 27) - 1);
  const __m128i shq = _mm_cvtsi32_si128(30), shc = _mm_cvtsi32_si128(cs);
  const __m256i rq = _mm256_set1_epi64x(i64{1} << 29);
  const __m256i rb = _mm256_set1_epi64x(static_cast<i64>(masked_bias + (u64{1} << (cs - 1))));
  __m256i acc = zero;
  int j = L;
  u64 terms = 0;
  for (; j + 8 <= R; j += 8, terms += 8) {
    const __m256i yv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + j));
    const __m256i neg = _mm256_cmpgt_epi32(zero, yv), ay = _mm256_abs_epi32(yv);
    const __m256i ue = _mm256_mul_epu32(ay, vir), uo = _mm256_mul_epu32(_mm256_srli_epi64(ay, 32), vir);
    const __m256i pos = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_add_epi64(ue, r27), 28),
                                           _mm256_slli_epi64(_mm256_srli_epi64(_mm256_add_epi64(uo, r27), 28), 32), 0xaa);
    const __m256i ngm = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_add_epi64(ue, r27m), 28),
                                           _mm256_slli_epi64(_mm256_srli_epi64(_mm256_add_epi64(uo, r27m), 28), 32), 0xaa);
    const __m256i xs = _mm256_blendv_epi8(pos, _mm256_sub_epi32(zero, ngm), neg);
    const __m256i x = _mm256_max_epi32(_mm256_sub_epi32(_mm256_abs_epi32(xs), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(thr + j))), zero);
    acc = masked_terms_avx2(x, rq, shq, rb, shc, acc);
  }
  sum += masked_total_avx2(acc, terms, cs);
  return j;
}

}  // namespace vqm::cpu::adm_detail::x86
VQM_CPU_AVX2_END

namespace vqm::cpu::adm_detail::x86 {

#if !defined(__clang__)
#define VQM_ADM_MUL_AVX2 1
// GCC: the AVX2 widening multiplies as separate target("avx2") functions, inlined into the AVX2 kernel.
__attribute__((target("avx2"))) inline vu4 mul32_avx2(vu4 a, vu4 b) noexcept {  // vpmuludq
  return reinterpret_cast<vu4>(_mm256_mul_epu32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
}
__attribute__((target("avx2"))) inline vl4 mul32_avx2(vl4 a, vl4 b) noexcept {  // vpmuldq
  return reinterpret_cast<vl4>(_mm256_mul_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
}
// The same on the AVX-512 instance's 8 lanes (maskz: GCC 12 warns on the plain forms' _mm512_undefined_epi32).
__attribute__((target("avx512f"))) inline vu8 mul32_avx512(vu8 a, vu8 b) noexcept {  // vpmuludq
  return reinterpret_cast<vu8>(_mm512_maskz_mul_epu32(0xFF, reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b)));
}
__attribute__((target("avx512f"))) inline vl8 mul32_avx512(vl8 a, vl8 b) noexcept {  // vpmuldq
  return reinterpret_cast<vl8>(_mm512_maskz_mul_epi32(0xFF, reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b)));
}
#endif

}  // namespace vqm::cpu::adm_detail::x86

#pragma GCC diagnostic pop
