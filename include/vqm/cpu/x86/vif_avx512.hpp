// AVX-512 (F+BW+VL+DQ; + VNNI at the avx512vnni level) part of the Cpu VIF kernel: the building blocks of
// x86/vif.hpp at 32 int16 lanes (vpmaddwd zmm, or vpdpwssd) and the per-pixel stage at 16 positions (two
// sets of 8 double lanes, the table parts of LOG gathered under a lane mask). The same integers and the
// same IEEE double operations as the scalar blocks (cpu/vif_blocks.hpp), each rounded separately (no FMA).
#pragma once

#include <cstddef>
#include <cstdint>

#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/vif_blocks.hpp"
#include "vqm/cpu/x86/vif.hpp"
#include "vqm/cpu/x86/vif_rows.hpp"
#include "vqm/tables/vif.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#if !defined(__clang__)
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_*() (self-initialised) through in their unmasked forms.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace vqm::cpu::vif_detail::x86 {

VQM_CPU_AVX512 inline __m512i set32(std::int32_t v) noexcept { return _mm512_set1_epi32(v); }

// (a·b + 2^31) >> 32 per uint32 lane.
VQM_CPU_AVX512 inline __m512i mulhi_round512(__m512i a, __m512i b) noexcept {
  const __m512i r = _mm512_set1_epi64(std::int64_t{1} << 31);
  const __m512i e = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epu32(a, b), r), 32);
  const __m512i o = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)), r);
  return _mm512_mask_blend_epi32(0xaaaa, e, o);
}

// acc + the pair sums of the int16 products of a and c per int32 lane, wrapping: add(madd(a, c)), or with
// Vnni the one instruction vpdpwssd (the same integers; a madd pair sum never overflows here, every tap is
// below 2^15). As asm, so that these functions stay compiled for AVX-512 F/BW/VL/DQ: only the avx512vnni
// level runs it.
template <bool Vnni>
VQM_CPU_AVX512 inline __m512i dot_acc(__m512i acc, __m512i a, __m512i c) noexcept {
  if constexpr (Vnni) {
    asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(c), "v"(a));
    return acc;
  } else {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(a, c));
  }
}
// dot_acc of the 32 int16 at p (unaligned), read by the instruction itself.
template <bool Vnni>
VQM_CPU_AVX512 inline __m512i dot_acc_at(__m512i acc, const std::int16_t* p, __m512i c) noexcept {
  if constexpr (Vnni) {
    asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(c), "m"(*reinterpret_cast<const __m512i_u*>(p)));
    return acc;
  } else {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_loadu_si512(p), c));
  }
}

VQM_CPU_AVX512 inline __m512d barrier512(__m512d v) noexcept {
  asm("" : "+v"(v));
  return v;
}

VQM_CPU_AVX512 inline __m512d trunc512(__m512d v) noexcept {
  return _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}

VQM_CPU_AVX512 inline __m256i half512(__m512i v, int half) noexcept {
  return half ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
}

// Of 16 integer-valued doubles in [2^17, 2^53) (lanes 0..7 in a, 8..15 in b): the table index (the 15 bits
// below the leading one) and the biased exponent, as int32 lanes.
// Both sit in the high dword of each double (sign 0): the exponent in its bits 20..30, the index in 5..19.
VQM_CPU_AVX512 inline void log_parts512_pd(__m512d a, __m512d b, __m512i& idx, __m512i& e) noexcept {
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m512i hi = _mm512_permutex2var_epi32(_mm512_castpd_si512(a), odd, _mm512_castpd_si512(b));
  idx = _mm512_and_si512(_mm512_srli_epi32(hi, 5), set32(0x7fff));
  e = _mm512_srli_epi32(hi, 20);
}

// Of 16 int32 lanes in [2^17, 2^31): the table index and k = bit length − 16 (as log_parts_epi32).
VQM_CPU_AVX512 inline void log_parts512_epi32(__m512i v, __m512i& idx, __m512i& k) noexcept {
  const __m512i fb = _mm512_castps_si512(_mm512_cvtepi32_ps(_mm512_andnot_si512(set32(0xff), v)));
  k = _mm512_sub_epi32(_mm512_srli_epi32(fb, 23), set32(127 + 15));
  idx = _mm512_and_si512(_mm512_srlv_epi32(v, k), set32(0x7fff));
}

// T32[idx] in the `m` lanes, 0 elsewhere.
VQM_CPU_AVX512 inline __m512i table512(__m512i idx, __mmask16 m) noexcept {
  return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, idx, log_table32(), 4);
}

struct acc512 {
  __m512i nl, dl, dn, nl2;  // int32 lanes (LOG sums, table parts included), flushed every few thousand columns
  __m512i nn;               // int64 lanes
};

// NL's terms LOG(trunc(g_l² · d1) + n1) − LOG(n1) at one gain limit l for the `num` lanes (LOG(n1): its
// exponents e2 and its table parts t2).
VQM_CPU_AVX512 inline void num_log512(const __m512d (&g)[2], const __m512d (&d1)[2], const __m512d (&n1)[2], __m512i e2,
                                      __m512i t2, __m512d limit, __mmask16 num, __m512i& nl) noexcept {
  __m512d n1t[2];
  for (int half = 0; half < 2; ++half) {
    const __m512d gl = _mm512_min_pd(g[half], limit);  // g < limit ? g : limit
    n1t[half] = _mm512_add_pd(trunc512(barrier512(_mm512_mul_pd(barrier512(_mm512_mul_pd(gl, gl)), d1[half]))), n1[half]);
  }
  __m512i i1, e1;
  log_parts512_pd(n1t[0], n1t[1], i1, e1);
  const __m512i d = _mm512_add_epi32(_mm512_sub_epi32(table512(i1, num), t2), _mm512_slli_epi32(_mm512_sub_epi32(e1, e2), 11));
  nl = _mm512_mask_add_epi32(nl, num, nl, d);
}

// §7.3 + §8 for 16 positions; `valid` marks the lanes inside the row.
template <bool Two>
VQM_CPU_AVX512 inline void pixels512(__m512i mu1, __m512i mu2, __m512i xx, __m512i yy, __m512i xy, __mmask16 valid,
                                     __m512d lim_a, __m512d lim_b, acc512& acc) noexcept {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i s1 = _mm512_sub_epi32(xx, mulhi_round512(mu1, mu1));
  const __m512i s2 = _mm512_max_epi32(_mm512_sub_epi32(yy, mulhi_round512(mu2, mu2)), zero);
  const __m512i s12 = _mm512_sub_epi32(xy, mulhi_round512(mu1, mu2));
  const __mmask16 big = _mm512_cmpgt_epi32_mask(s1, set32(131071));
  const __mmask16 is_log = static_cast<__mmask16>(big & valid);
  const __mmask16 non_log = static_cast<__mmask16>(~big & valid);
  // non-log: NN += s2, DN += 1
  const __m512i s2n = _mm512_maskz_mov_epi32(non_log, s2);
  acc.nn = _mm512_add_epi64(acc.nn, _mm512_cvtepu32_epi64(half512(s2n, 0)));
  acc.nn = _mm512_add_epi64(acc.nn, _mm512_cvtepu32_epi64(half512(s2n, 1)));
  acc.dn = _mm512_mask_add_epi32(acc.dn, non_log, acc.dn, set32(1));
  if (is_log == 0) return;
  // DL += LOG(NSQ + s1) − 17·2048 = T + 2048·k − 17·2048
  __m512i idx, k;
  log_parts512_epi32(_mm512_add_epi32(s1, set32(131072)), idx, k);
  const __m512i dl = _mm512_add_epi32(table512(idx, is_log), _mm512_sub_epi32(_mm512_slli_epi32(k, 11), set32(17 * 2048)));
  acc.dl = _mm512_mask_add_epi32(acc.dl, is_log, acc.dl, dl);
  const __mmask16 num = static_cast<__mmask16>(is_log & _mm512_cmpgt_epi32_mask(s12, zero) & _mm512_cmpgt_epi32_mask(s2, zero));
  if (num == 0) return;
  const __m512d nsq = _mm512_set1_pd(131072.0), eps = _mm512_set1_pd(tables::vif_eps);
  __m512d g[2], d1[2], n1[2];
  for (int half = 0; half < 2; ++half) {
    d1[half] = _mm512_cvtepi32_pd(half512(s1, half));
    const __m512d d2 = _mm512_cvtepi32_pd(half512(s2, half)), d12 = _mm512_cvtepi32_pd(half512(s12, half));
    g[half] = _mm512_div_pd(d12, barrier512(_mm512_add_pd(d1[half], eps)));
    const __m512d sv = _mm512_max_pd(trunc512(barrier512(_mm512_sub_pd(d2, barrier512(_mm512_mul_pd(g[half], d12))))),
                                     _mm512_setzero_pd());
    n1[half] = _mm512_add_pd(sv, nsq);
  }
  __m512i i2, e2;
  log_parts512_pd(n1[0], n1[1], i2, e2);
  const __m512i t2 = table512(i2, num);
  num_log512(g, d1, n1, e2, t2, lim_a, num, acc.nl);
  if constexpr (Two) num_log512(g, d1, n1, e2, t2, lim_b, num, acc.nl2);
}

// Adds the lanes of an accumulator set to `out` and clears it.
VQM_CPU_AVX512 inline void flush512(acc512& acc, sums& out) noexcept {
  out.nl += _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(half512(acc.nl, 0)),
                                                     _mm512_cvtepi32_epi64(half512(acc.nl, 1))));
  out.dl += _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(half512(acc.dl, 0)),
                                                     _mm512_cvtepi32_epi64(half512(acc.dl, 1))));
  out.dn += _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(half512(acc.dn, 0)),
                                                     _mm512_cvtepi32_epi64(half512(acc.dn, 1))));
  out.nl2 += _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(half512(acc.nl2, 0)),
                                                      _mm512_cvtepi32_epi64(half512(acc.nl2, 1))));
  out.nn += _mm512_reduce_add_epi64(acc.nn);
  const __m512i z = _mm512_setzero_si512();
  acc = acc512{z, z, z, z, z};
}

VQM_CPU_AVX512 inline void put512(std::int16_t* p, __m512i v) noexcept { _mm512_storeu_si512(p, v); }

// Cache of one source row, 32 columns at a time (as squares16_avx2; the tail read under a lane mask).
template <class T, bool Split>
VQM_CPU_AVX512 inline void squares32_avx512(const T* x, const T* y, int n, std::int16_t* out, std::size_t cs) noexcept {
  const __m512i flip = _mm512_set1_epi16(static_cast<short>(0x8000));
  for (int j = 0; j < n; j += 32) {
    const __mmask32 m = n - j >= 32 ? ~__mmask32{0} : (__mmask32{1} << (n - j)) - 1;
    __m512i a, b;
    if constexpr (sizeof(T) == 1) {
      a = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, x + j));
      b = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, y + j));
    } else {
      a = _mm512_maskz_loadu_epi16(m, x + j);
      b = _mm512_maskz_loadu_epi16(m, y + j);
    }
    const auto at = [&](int q) { return out + static_cast<std::size_t>(q) * cs + static_cast<std::size_t>(j); };
    put512(at(0), _mm512_xor_si512(a, flip));
    put512(at(1), _mm512_xor_si512(b, flip));
    if constexpr (Split) {
      put512(at(2), _mm512_xor_si512(_mm512_mulhi_epu16(a, a), flip));
      put512(at(3), _mm512_xor_si512(_mm512_mullo_epi16(a, a), flip));
      put512(at(4), _mm512_xor_si512(_mm512_mulhi_epu16(b, b), flip));
      put512(at(5), _mm512_xor_si512(_mm512_mullo_epi16(b, b), flip));
      put512(at(6), _mm512_xor_si512(_mm512_mulhi_epu16(a, b), flip));
      put512(at(7), _mm512_xor_si512(_mm512_mullo_epi16(a, b), flip));
    } else {
      put512(at(2), _mm512_xor_si512(_mm512_mullo_epi16(a, a), flip));
      put512(at(3), _mm512_xor_si512(_mm512_mullo_epi16(b, b), flip));
      put512(at(4), _mm512_xor_si512(_mm512_mullo_epi16(a, b), flip));
    }
  }
}

// Σ over tap pairs of one cached quantity at 32 columns, true sums, for R output rows: lo holds columns
// 8b..8b+3 of each 128-bit block b, hi columns 8b+4..8b+7 (the order of unpacklo/hi, which packs_epi32
// undoes). R > 1: rows i + 2r from the window rows[0 .. n + 2(R − 1) − 1]; the interleaved pair (rows[2p],
// rows[2p + 1]) is row i + 2r's pair p − r (scales 0..2, whose pairs are two rows apart).
template <int S, bool Vnni, int R>
VQM_CPU_AVX512 inline void vsum32(const std::int16_t* const* rows, std::size_t qoff, int j, __m512i (&lo)[R],
                                  __m512i (&hi)[R]) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  static_assert(R == 1 || S < 3);
  __m512i al[R], ah[R];
  for (int r = 0; r < R; ++r) al[r] = ah[r] = _mm512_setzero_si512();
#pragma GCC unroll 16
  for (int p = 0; p < tp.n + R - 1; ++p) {
    const int o = R == 1 ? tp.off[static_cast<std::size_t>(p)] : 2 * p;
    const __m512i a = _mm512_loadu_si512(rows[o] + qoff + j);
    const __m512i b = _mm512_loadu_si512(rows[o + 1] + qoff + j);
    const __m512i ul = _mm512_unpacklo_epi16(a, b), uh = _mm512_unpackhi_epi16(a, b);
    for (int r = 0; r < R; ++r) {
      const int t = p - r;  // this pair's tap pair in output row r
      if (t < 0 || t >= tp.n) continue;
      const __m512i c = set32(tp.coef[static_cast<std::size_t>(t)]);
      al[r] = dot_acc<Vnni>(al[r], ul, c);
      ah[r] = dot_acc<Vnni>(ah[r], uh, c);
    }
  }
  const __m512i bias = set32(static_cast<std::int32_t>(0x80000000u));
  for (int r = 0; r < R; ++r) {
    lo[r] = _mm512_xor_si512(al[r], bias);
    hi[r] = _mm512_xor_si512(ah[r], bias);
  }
}

// lo/hi of vsum32 (values < 2^16) → 32 int16 (v − 32768) in natural order.
VQM_CPU_AVX512 inline void store32(std::int16_t* p, __m512i lo, __m512i hi) noexcept {
  const __m512i off = set32(32768);
  put512(p, _mm512_packs_epi32(_mm512_sub_epi32(lo, off), _mm512_sub_epi32(hi, off)));
}

// §7.1 for 32 columns at a time (as vertical16_avx2), for R output rows: row r's lines are Ls[r][0..7].
template <int S, bool Split, bool Vnni, int R>
VQM_CPU_AVX512 inline void vertical32_avx512(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                                             std::int16_t* const* const (&Ls)[R]) noexcept {
  const __m512i rm = set32(static_cast<std::int32_t>(1u << (p.sh_mean - 1)));
  const __m128i shm = _mm_cvtsi32_si128(p.sh_mean);
  const __m512i lo16 = set32(0xffff);
  const __m128i sa = _mm_cvtsi32_si128(16 - p.sh_sq), sb = _mm_cvtsi32_si128(p.sh_sq);
  const __m512i rq = set32(static_cast<std::int32_t>(1u << (p.sh_sq - 1)));
  for (int j = 0; j < w; j += 32) {
    const std::size_t o = static_cast<std::size_t>(j + p.H);
    __m512i a[R], b[R];
    for (int q = 0; q < 2; ++q) {
      vsum32<S, Vnni, R>(rows, static_cast<std::size_t>(q) * cs, j, a, b);
      for (int r = 0; r < R; ++r)
        store32(Ls[r][q] + o, _mm512_srl_epi32(_mm512_add_epi32(a[r], rm), shm), _mm512_srl_epi32(_mm512_add_epi32(b[r], rm), shm));
    }
    for (int q = 0; q < 3; ++q) {
      __m512i v0[R], v1[R];
      if constexpr (Split) {
        __m512i h0[R], h1[R], l0[R], l1[R];
        vsum32<S, Vnni, R>(rows, static_cast<std::size_t>(2 + 2 * q) * cs, j, h0, h1);
        vsum32<S, Vnni, R>(rows, static_cast<std::size_t>(3 + 2 * q) * cs, j, l0, l1);
        for (int r = 0; r < R; ++r) {
          v0[r] = _mm512_add_epi32(_mm512_sll_epi32(h0[r], sa), _mm512_srl_epi32(_mm512_add_epi32(l0[r], rq), sb));
          v1[r] = _mm512_add_epi32(_mm512_sll_epi32(h1[r], sa), _mm512_srl_epi32(_mm512_add_epi32(l1[r], rq), sb));
        }
      } else {
        vsum32<S, Vnni, R>(rows, static_cast<std::size_t>(2 + q) * cs, j, v0, v1);
      }
      for (int r = 0; r < R; ++r) {
        store32(Ls[r][2 + 2 * q] + o, _mm512_srli_epi32(v0[r], 16), _mm512_srli_epi32(v1[r], 16));
        store32(Ls[r][3 + 2 * q] + o, _mm512_and_si512(v0[r], lo16), _mm512_and_si512(v1[r], lo16));
      }
    }
  }
}

// A square sum from the horizontal sums of its high and low halves: h + ((l + 2^15) >> 16).
VQM_CPU_AVX512 inline __m512i hi_lo512(__m512i h, __m512i l, __m512i r16) noexcept {
  return _mm512_add_epi32(h, _mm512_srli_epi32(_mm512_add_epi32(l, r16), 16));
}

// §7.2 + §8 for one row, 32 columns at a time, even and odd columns in separate lanes (as horizontal16_avx2).
template <int S, bool Two, bool Vnni>
VQM_CPU_AVX512 inline void horizontal32_avx512(const std::int16_t* const* L, int w, limits lim, sums& out) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  const __m512i z = _mm512_setzero_si512();
  acc512 acc{z, z, z, z, z};
  const __m512d lim_a = _mm512_set1_pd(lim.a), lim_b = _mm512_set1_pd(lim.b);
  const __m512i bias = set32(static_cast<std::int32_t>(0x80000000u));
  const __m512i r16 = set32(32768);
  const __m512i twice = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  int since_flush = 0;
  for (int j = 0; j < w; j += 32) {
    __m512i e[8], o[8];
    for (int q = 0; q < 8; ++q) {
      __m512i ae = z, ao = z;
#pragma GCC unroll 16
      for (int p = 0; p < tp.n; ++p) {
        const std::int16_t* src = L[q] + j + tp.off[static_cast<std::size_t>(p)];
        const __m512i c = set32(tp.coef[static_cast<std::size_t>(p)]);
        ae = dot_acc_at<Vnni>(ae, src, c);
        ao = dot_acc_at<Vnni>(ao, src + 1, c);
      }
      e[q] = _mm512_xor_si512(ae, bias);
      o[q] = _mm512_xor_si512(ao, bias);
    }
    for (int par = 0; par < 2; ++par) {
      const __m512i* v = par ? o : e;
      const __mmask16 valid = _mm512_cmpgt_epi32_mask(set32(w - j - par), twice);
      pixels512<Two>(v[0], v[1], hi_lo512(v[2], v[3], r16), hi_lo512(v[4], v[5], r16), hi_lo512(v[6], v[7], r16), valid,
                     lim_a, lim_b, acc);
    }
    if (++since_flush == 512) {  // int32 lanes: at most 2^17 per position, two positions per step
      flush512(acc, out);
      since_flush = 0;
    }
  }
  flush512(acc, out);
}

// 16 samples of T, zero-extended to int32 lanes.
template <class T>
VQM_CPU_AVX512 inline __m512i widen16(const T* p) noexcept {
  if constexpr (sizeof(T) == 1) return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  else return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// §6 vertical part, 16 columns at a time (as down_vertical_avx2).
template <class T>
VQM_CPU_AVX512 inline void down_vertical_avx512(const T* const* rows, const std::uint32_t* taps, int H, int shift, int w,
                                                std::uint32_t* line) noexcept {
  const __m512i r = set32(static_cast<std::int32_t>(1u << (shift - 1)));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int j = 0;
  for (; j + 16 <= w; j += 16) {
    __m512i a = _mm512_mullo_epi32(set32(static_cast<std::int32_t>(taps[H])), widen16(rows[H] + j));
    for (int k = 0; k < H; ++k) {
      const __m512i u = widen16(rows[k] + j), v = widen16(rows[2 * H - k] + j);
      a = _mm512_add_epi32(a, _mm512_mullo_epi32(set32(static_cast<std::int32_t>(taps[k])), _mm512_add_epi32(u, v)));
    }
    _mm512_storeu_si512(line + j + H, _mm512_srl_epi32(_mm512_add_epi32(a, r), sh));
  }
  if (j < w) down_vertical_base<T>(rows, taps, H, shift, j, w, line);
}

// §6 horizontal part at the even columns, 16 outputs at a time (as down_horizontal_avx2).
VQM_CPU_AVX512 inline void down_horizontal_avx512(const std::uint32_t* line, const std::uint32_t* taps, int H, int ow,
                                                  std::uint16_t* out) noexcept {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i r = set32(32768);
  int o = 0;
  for (; o + 16 <= ow; o += 16) {
    __m512i a = _mm512_setzero_si512();
    for (int k = 0; k <= 2 * H; ++k) {
      const std::uint32_t* p = line + 2 * o + k;
      const __m512i ev = _mm512_permutex2var_epi32(_mm512_loadu_si512(p), even, _mm512_loadu_si512(p + 16));
      a = _mm512_add_epi32(a, _mm512_mullo_epi32(set32(static_cast<std::int32_t>(taps[k])), ev));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + o), _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_add_epi32(a, r), 16)));
  }
  if (o < ow) down_horizontal_base(line, taps, H, o, ow, out);
}

// The AVX-512 building blocks of one scale, for i16_rows; Vnni: the filters' multiply-adds as vpdpwssd.
template <bool Vnni>
struct avx512_kernels {
  static constexpr int lanes = 32;
  static constexpr int batch = 4;  // output rows i, i + 2, i + 4, i + 6 in one vertical pass (8: no faster)
  template <class T, bool Split>
  static void squares(const T* x, const T* y, int n, std::int16_t* out, std::size_t cs) noexcept {
    squares32_avx512<T, Split>(x, y, n, out, cs);
  }
  template <int S, bool Split>
  static void vertical(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                       std::int16_t* const* L) noexcept {
    std::int16_t* const* const Ls[1] = {L};
    vertical32_avx512<S, Split, Vnni, 1>(rows, cs, p, w, Ls);
  }
  template <int S, bool Split>
  static void vertical_batch(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                             std::int16_t* const* L) noexcept {
    std::int16_t* const* Ls[batch];
    for (int t = 0; t < batch; ++t) Ls[t] = L + 8 * t;
    vertical32_avx512<S, Split, Vnni, batch>(rows, cs, p, w, Ls);
  }
  template <int S, bool Two>
  static void horizontal(const std::int16_t* const* L, int w, limits lim, sums& out) noexcept {
    horizontal32_avx512<S, Two, Vnni>(L, w, lim, out);
  }
};
template <class T, bool Split, bool Vnni>
using avx512_rows = i16_rows<avx512_kernels<Vnni>, T, Split>;

}  // namespace vqm::cpu::vif_detail::x86

#pragma GCC diagnostic pop
