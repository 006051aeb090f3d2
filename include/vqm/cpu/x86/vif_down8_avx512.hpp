// AVX-512 part of VIF's 8-bit downsampling (scale 0 → 1, SPEC-vmaf §6; cpu/vif.hpp's downsample): the line
// between the vertical and the horizontal pass is int16 v − 32768 and both passes multiply-add tap pairs
// with vpmaddwd, where the uint32 path (down_vertical_avx512, down_horizontal_avx512) multiplies each tap
// with vpmulld. The same integers: vertically Σ f_k·x_k < 255·2^16 from the symmetric pair sums
// x_k + x_{8−k} <= 510, then (· + 2^7) >> 8 < 2^16; horizontally Σ f_k·(v_k − 32768) = Σ f_k·v_k − 2^31
// (the taps sum to 2^16), whose true value is below 2^32, then (· + 2^15) >> 16.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"
#include "vqm/tables/vif.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace vqm::cpu::vif_detail::x86 {

// (b << 16) | a: the tap pair (a, b) of vpmaddwd.
[[nodiscard]] constexpr std::int32_t tap_pair(std::uint32_t a, std::uint32_t b) noexcept {
  return static_cast<std::int32_t>((b << 16) | a);
}

// The vertical pass of one line: rows[0..8] = the 9 source rows of f1, columns [0, w) → line[4 + j].
VQM_CPU_AVX512 inline void down8_vertical_avx512(const std::uint8_t* const* rows, int w, std::int16_t* line) noexcept {
  const std::uint32_t* f = tables::vif_f1.data();
  const __m512i c01 = _mm512_set1_epi32(tap_pair(f[0], f[1])), c23 = _mm512_set1_epi32(tap_pair(f[2], f[3]));
  const __m512i c4 = _mm512_set1_epi32(tap_pair(f[4], 0));
  const __m512i r = _mm512_set1_epi32(128), off = _mm512_set1_epi32(32768), z = _mm512_setzero_si512();
  for (int j = 0; j < w; j += 32) {
    const __mmask32 m = w - j >= 32 ? ~__mmask32{0} : (__mmask32{1} << (w - j)) - 1;
    __m512i x[9];
    for (int k = 0; k < 9; ++k) x[k] = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, rows[k] + j));
    const __m512i s0 = _mm512_add_epi16(x[0], x[8]), s1 = _mm512_add_epi16(x[1], x[7]);
    const __m512i s2 = _mm512_add_epi16(x[2], x[6]), s3 = _mm512_add_epi16(x[3], x[5]);
    __m512i lo = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(s0, s1), c01),
                                  _mm512_madd_epi16(_mm512_unpacklo_epi16(s2, s3), c23));
    __m512i hi = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(s0, s1), c01),
                                  _mm512_madd_epi16(_mm512_unpackhi_epi16(s2, s3), c23));
    lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x[4], z), c4));
    hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x[4], z), c4));
    lo = _mm512_sub_epi32(_mm512_srli_epi32(_mm512_add_epi32(lo, r), 8), off);
    hi = _mm512_sub_epi32(_mm512_srli_epi32(_mm512_add_epi32(hi, r), 8), off);
    _mm512_mask_storeu_epi16(line + 4 + j, m, _mm512_packs_epi32(lo, hi));  // unpack order undone by packs
  }
}

// The horizontal pass at the even columns: out[o] from line[2o .. 2o + 8], 16 outputs a step (reads up to
// line[2·ow + 37]: the line needs that much padding).
VQM_CPU_AVX512 inline void down8_horizontal_avx512(const std::int16_t* line, int ow, std::uint16_t* out) noexcept {
  const std::uint32_t* f = tables::vif_f1.data();
  const __m512i c[5] = {_mm512_set1_epi32(tap_pair(f[0], f[1])), _mm512_set1_epi32(tap_pair(f[2], f[3])),
                        _mm512_set1_epi32(tap_pair(f[4], f[5])), _mm512_set1_epi32(tap_pair(f[6], f[7])),
                        _mm512_set1_epi32(tap_pair(f[8], 0))};
  const __m512i bias = _mm512_set1_epi32(static_cast<std::int32_t>(0x80000000u)), r = _mm512_set1_epi32(32768);
  for (int o = 0; o < ow; o += 16) {
    const __mmask16 m = ow - o >= 16 ? __mmask16{0xffff} : static_cast<__mmask16>((1u << (ow - o)) - 1);
    __m512i a = _mm512_setzero_si512();
    for (int p = 0; p < 5; ++p) a = _mm512_add_epi32(a, _mm512_madd_epi16(_mm512_loadu_si512(line + 2 * o + 2 * p), c[p]));
    a = _mm512_srli_epi32(_mm512_add_epi32(_mm512_xor_si512(a, bias), r), 16);
    _mm256_mask_storeu_epi16(out + o, m, _mm512_cvtepi32_epi16(a));
  }
}

}  // namespace vqm::cpu::vif_detail::x86

#pragma GCC diagnostic pop
