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
