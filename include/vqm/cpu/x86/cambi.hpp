// x86 kernels of cpu/cambi_scale.hpp (which includes this file after c_scalar_ops when VQM_CPU_X86 is set):
// the equal-column scan, the histogram ramp and the c-value row as AVX2 (16 uint16 / 8 int32 lanes) and
// AVX-512 (32 / 16 lanes) code. Same integer counts, the same int product converted to binary32 and
// multiplied by the same reciprocal, the same max: bit-identical to c_scalar_ops. The histograms are read
// with 32-bit gathers at uint16 indices (histograms::counts has slack for the last one), the high half dropped.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"
#include "vqm/metrics/cambi.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace vqm::cpu::cambi_detail::x86 {
// 0, 1, 2, ...: lane offsets.
alignas(64) inline constexpr std::int16_t lane16[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
alignas(64) inline constexpr std::int32_t lane32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
}  // namespace vqm::cpu::cambi_detail::x86

VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::cambi_detail::x86 {
struct c_avx2_ops {
  static int skip_equal(const std::uint16_t* a, const std::uint16_t* b, int x, int w) noexcept {
    for (; x + 16 <= w; x += 16) {
      const __m256i eq = _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + x)),
                                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + x)));
      const auto ne = ~static_cast<unsigned>(_mm256_movemask_epi8(eq));
      if (ne != 0) return x + (__builtin_ctz(ne) >> 1);
    }
    return c_scalar_ops::skip_equal(a, b, x, w);
  }
  static void ramp(std::uint16_t* h, int lo, int hi, int cap, int w, bool add) noexcept {
    int c = lo > 0 ? lo : 0;
    const int e = hi < w - 1 ? hi : w - 1;
    const __m256i step = _mm256_load_si256(reinterpret_cast<const __m256i*>(lane16));
    const __m256i lo1 = _mm256_set1_epi16(static_cast<short>(lo - 1)),
                  hi1 = _mm256_set1_epi16(static_cast<short>(hi + 1));
    const __m256i capv = _mm256_set1_epi16(static_cast<short>(cap));
    for (; c + 16 <= e + 1; c += 16) {
      const __m256i cv = _mm256_add_epi16(_mm256_set1_epi16(static_cast<short>(c)), step);
      const __m256i n = _mm256_min_epi16(_mm256_min_epi16(_mm256_sub_epi16(cv, lo1), _mm256_sub_epi16(hi1, cv)), capv);
      auto* p = reinterpret_cast<__m256i*>(h + c);
      const __m256i x = _mm256_loadu_si256(p);
      _mm256_storeu_si256(p, add ? _mm256_add_epi16(x, n) : _mm256_sub_epi16(x, n));
    }
    if (c <= e) c_scalar_ops::ramp(h + c, lo - c, hi - c, cap, e - c + 1, add);
  }

  static void c_row(const c_row_args& a, float* o) noexcept {
    const int* counts = reinterpret_cast<const int*>(a.counts);
    const __m256i lanes = _mm256_load_si256(reinterpret_cast<const __m256i*>(lane32));
    const __m256i low = _mm256_set1_epi32(0xffff), zero = _mm256_setzero_si256();
    const __m256i none = _mm256_set1_epi32(no_key);
    const __m256i origin = _mm256_set1_epi32(a.base - a.pad_rows),
                  stride = _mm256_set1_epi32(static_cast<int>(a.stride));
    int x = 0;
    for (; x + 8 <= a.w; x += 8) {
      const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a.keys + x)));
      const __m256i act = _mm256_cmpgt_epi32(none, v);
      __m256 c = _mm256_setzero_ps();
      if (!_mm256_testz_si256(act, act)) {
        const __m256i adjusted = _mm256_add_epi32(v, _mm256_set1_epi32(a.diffs));
        const __m256i i0 = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(v, origin), stride),
                                            _mm256_add_epi32(_mm256_set1_epi32(x), lanes));
        const __m256i p0 = _mm256_and_si256(_mm256_mask_i32gather_epi32(zero, counts, i0, act, 2), low);
        for (int d = 0; d < a.diffs; ++d) {
          const __m256i visible =
              _mm256_cmpgt_epi32(_mm256_add_epi32(adjusted, _mm256_set1_epi32(d + 1)), _mm256_set1_epi32(a.vlt));
          const __m256i cond = _mm256_and_si256(
              _mm256_andnot_si256(_mm256_cmpgt_epi32(adjusted, _mm256_set1_epi32(a.tvi[d])), visible), act);
          if (_mm256_testz_si256(cond, cond)) continue;
          const __m256i off = _mm256_set1_epi32((d + 1) * static_cast<int>(a.stride));
          const __m256i p1 = _mm256_mask_i32gather_epi32(zero, counts, _mm256_add_epi32(i0, off), cond, 2);
          const __m256i p2 = _mm256_mask_i32gather_epi32(zero, counts, _mm256_sub_epi32(i0, off), cond, 2);
          const __m256i pm = _mm256_max_epi32(_mm256_and_si256(p1, low), _mm256_and_si256(p2, low));
          const __m256i prod =
              _mm256_mullo_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(cambi_model::contrast_weights[d]), p0), pm);
          const __m256 r = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), a.lut, _mm256_add_epi32(pm, p0),
                                                    _mm256_castsi256_ps(cond), 4);
          const __m256 val = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), r);
          c = _mm256_blendv_ps(c, _mm256_max_ps(c, val), _mm256_castsi256_ps(cond));
        }
      }
      _mm256_storeu_ps(o + x, c);
    }
    c_scalar_ops::c_row_tail(a, x, o);
  }
};
}  // namespace vqm::cpu::cambi_detail::x86
VQM_CPU_AVX2_END

VQM_CPU_AVX512_BEGIN
namespace vqm::cpu::cambi_detail::x86 {
struct c_avx512_ops {
  static int skip_equal(const std::uint16_t* a, const std::uint16_t* b, int x, int w) noexcept {
    for (; x + 32 <= w; x += 32) {
      const __mmask32 ne = _mm512_cmpneq_epi16_mask(_mm512_loadu_si512(a + x), _mm512_loadu_si512(b + x));
      if (ne != 0) return x + __builtin_ctz(ne);
    }
    return c_scalar_ops::skip_equal(a, b, x, w);
  }
  static void ramp(std::uint16_t* h, int lo, int hi, int cap, int w, bool add) noexcept {
    const int e = hi < w - 1 ? hi : w - 1;
    const __m512i step = _mm512_load_si512(lane16);
    const __m512i lo1 = _mm512_set1_epi16(static_cast<short>(lo - 1)),
                  hi1 = _mm512_set1_epi16(static_cast<short>(hi + 1));
    const __m512i capv = _mm512_set1_epi16(static_cast<short>(cap));
    for (int c = lo > 0 ? lo : 0; c <= e; c += 32) {
      const int left = e - c + 1;
      const __mmask32 k = left >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((1u << left) - 1);
      const __m512i cv = _mm512_add_epi16(_mm512_set1_epi16(static_cast<short>(c)), step);
      const __m512i n = _mm512_min_epi16(_mm512_min_epi16(_mm512_sub_epi16(cv, lo1), _mm512_sub_epi16(hi1, cv)), capv);
      const __m512i x = _mm512_maskz_loadu_epi16(k, h + c);
      _mm512_mask_storeu_epi16(h + c, k, add ? _mm512_add_epi16(x, n) : _mm512_sub_epi16(x, n));
    }
  }

  static void c_row(const c_row_args& a, float* o) noexcept {
    const __mmask16 all = 0xffff;  // GCC 12 warns on the unmasked forms' undefined source (-Wmaybe-uninitialized)
    const __m512i lanes = _mm512_load_si512(lane32);
    const __m512i low = _mm512_set1_epi32(0xffff), zero = _mm512_setzero_si512();
    const __m512i none = _mm512_set1_epi32(no_key);
    const __m512i origin = _mm512_set1_epi32(a.base - a.pad_rows),
                  stride = _mm512_set1_epi32(static_cast<int>(a.stride));
    int x = 0;
    for (; x + 16 <= a.w; x += 16) {
      const __m512i v =
          _mm512_maskz_cvtepu16_epi32(all, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.keys + x)));
      const __mmask16 act = _mm512_cmplt_epi32_mask(v, none);
      __m512 c = _mm512_setzero_ps();
      if (act) {
        const __m512i adjusted = _mm512_add_epi32(v, _mm512_set1_epi32(a.diffs));
        const __m512i i0 = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_sub_epi32(v, origin), stride),
                                            _mm512_add_epi32(_mm512_set1_epi32(x), lanes));
        const __m512i p0 = _mm512_and_si512(_mm512_mask_i32gather_epi32(zero, act, i0, a.counts, 2), low);
        for (int d = 0; d < a.diffs; ++d) {
          const __mmask16 cond =
              act & _mm512_cmple_epi32_mask(adjusted, _mm512_set1_epi32(a.tvi[d])) &
              _mm512_cmpgt_epi32_mask(_mm512_add_epi32(adjusted, _mm512_set1_epi32(d + 1)), _mm512_set1_epi32(a.vlt));
          if (!cond) continue;
          const __m512i off = _mm512_set1_epi32((d + 1) * static_cast<int>(a.stride));
          const __m512i p1 = _mm512_mask_i32gather_epi32(zero, cond, _mm512_add_epi32(i0, off), a.counts, 2);
          const __m512i p2 = _mm512_mask_i32gather_epi32(zero, cond, _mm512_sub_epi32(i0, off), a.counts, 2);
          const __m512i pm = _mm512_maskz_max_epi32(all, _mm512_and_si512(p1, low), _mm512_and_si512(p2, low));
          const __m512i prod =
              _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(cambi_model::contrast_weights[d]), p0), pm);
          const __m512 r = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), cond, _mm512_add_epi32(pm, p0), a.lut, 4);
          c = _mm512_mask_max_ps(c, cond, c, _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(all, prod), r));
        }
      }
      _mm512_storeu_ps(o + x, c);
    }
    c_scalar_ops::c_row_tail(a, x, o);
  }
};
}  // namespace vqm::cpu::cambi_detail::x86
VQM_CPU_AVX512_END

#pragma GCC diagnostic pop
