// x86 (AVX2) part of the Cpu VIF kernel, which cpu/vif.hpp includes when VQM_CPU_X86 is set: the int16
// (v − 32768) building blocks with pmaddwd (x86/vif_rows.hpp drives them).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/vif_blocks.hpp"
#include "vqm/tables/vif.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace vqm::cpu::vif_detail::x86 {

// A filter as pairs of taps for pmaddwd: taps (a, b) at positions (o, o + 1), each below 2^15. The last
// tap of an odd-length kernel gets a zero partner; F3's centre tap (43728) is split in two halves.
struct tap_pairs {
  int n = 0;
  std::array<int, 9> off{};
  std::array<std::int32_t, 9> coef{};  // (b << 16) | a
};
[[nodiscard]] constexpr tap_pairs pairs_of(int s) noexcept {
  const auto f = tables::vif_filter_of(s);
  tap_pairs p;
  auto add = [&p](int o, std::uint32_t a, std::uint32_t b) {
    p.off[static_cast<std::size_t>(p.n)] = o;
    p.coef[static_cast<std::size_t>(p.n)] = static_cast<std::int32_t>((b << 16) | a);
    ++p.n;
  };
  if (s == 3) {
    add(0, f.taps[0], f.taps[1] / 2);
    add(1, f.taps[1] - f.taps[1] / 2, f.taps[2]);
    return p;
  }
  for (int k = 0; k <= 2 * f.half; k += 2) add(k, f.taps[k], k + 1 <= 2 * f.half ? f.taps[k + 1] : 0);
  return p;
}

// Building blocks (8 uint32 lanes).

[[gnu::target("avx2")]] inline __m256i ld(const std::uint32_t* p) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
[[gnu::target("avx2")]] inline void st(std::uint32_t* p, __m256i v) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

// (a·b + 2^31) >> 32 per uint32 lane.
VQM_CPU_AVX2 inline __m256i mulhi_round(__m256i a, __m256i b) noexcept {
  const __m256i r = _mm256_set1_epi64x(std::int64_t{1} << 31);
  const __m256i e = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(a, b), r), 32);
  const __m256i o = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)), r);
  return _mm256_blend_epi32(e, o, 0xaa);
}

VQM_CPU_AVX2 inline __m256d barrier(__m256d v) noexcept {
  asm("" : "+x"(v));
  return v;
}

// The low dwords of the 64-bit lanes of a (lanes 0..3) and b (lanes 4..7).
VQM_CPU_AVX2 inline __m256i pack_lo32(__m256i a, __m256i b) noexcept {
  const __m256i perm = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  return _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(a, perm), _mm256_permutevar8x32_epi32(b, perm), 0x20);
}

// LOG (§9) is T[top 16 bits] + 2048·(bit length − 16). The table part is looked up with scalar loads
// (AVX2 gathers are slow on some cores); lanes outside `mask` read the zero entry T32[32768].
VQM_CPU_AVX2 inline std::int64_t table_sum(__m256i idx, __m256i mask, const std::uint32_t* t) noexcept {
  alignas(32) std::uint32_t i[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(i),
                     _mm256_or_si256(_mm256_and_si256(idx, mask), _mm256_andnot_si256(mask, _mm256_set1_epi32(32768))));
  return std::int64_t{t[i[0]]} + t[i[1]] + t[i[2]] + t[i[3]] + t[i[4]] + t[i[5]] + t[i[6]] + t[i[7]];
}

// Of 8 integer-valued doubles in [2^17, 2^53) (lanes 0..3 in a, 4..7 in b): the table index (bits 37..51,
// the 15 bits below the leading one) and the biased exponent e (bit length e − 1022), as int32 lanes.
VQM_CPU_AVX2 inline void log_parts_pd(__m256d a, __m256d b, __m256i& idx, __m256i& e) noexcept {
  const __m256i ba = _mm256_castpd_si256(a), bb = _mm256_castpd_si256(b);
  idx = _mm256_and_si256(pack_lo32(_mm256_srli_epi64(ba, 37), _mm256_srli_epi64(bb, 37)), _mm256_set1_epi32(0x7fff));
  e = _mm256_and_si256(pack_lo32(_mm256_srli_epi64(ba, 52), _mm256_srli_epi64(bb, 52)), _mm256_set1_epi32(0x7ff));
}

// Of 8 int32 lanes in [2^17, 2^31): the table index and k = bit length − 16; the bit length comes from the
// binary32 conversion of v with its low 8 bits cleared (at most 23 significant bits, so exact).
VQM_CPU_AVX2 inline void log_parts_epi32(__m256i v, __m256i& idx, __m256i& k) noexcept {
  const __m256i fb = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_andnot_si256(_mm256_set1_epi32(0xff), v)));
  k = _mm256_sub_epi32(_mm256_srli_epi32(fb, 23), _mm256_set1_epi32(127 + 15));
  idx = _mm256_and_si256(_mm256_srlv_epi32(v, k), _mm256_set1_epi32(0x7fff));
}

VQM_CPU_AVX2 inline __m128i half_of(__m256i v, int half) noexcept {
  return half ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
}

struct acc_avx2 {
  __m256i nl, dl, dn;  // int32 lanes, flushed every few thousand columns
  __m256i nn;          // int64 lanes
  __m256i nl2;         // NL at the second limit (Two)
  std::int64_t tnl = 0, tdl = 0, tnl2 = 0;  // the table parts of NL, DL and NL at the second limit
};
[[nodiscard]] VQM_CPU_AVX2 inline acc_avx2 zero_acc() noexcept {
  const __m256i z = _mm256_setzero_si256();
  return acc_avx2{z, z, z, z, z};
}

// NL's terms LOG(trunc(g_l² · d1) + n1) − LOG(n1) at one gain limit l, for the `num` lanes (LOG(n1): its
// exponents e2 and the sum t2 of its table parts).
VQM_CPU_AVX2 inline void num_log_at(const __m256d (&g)[2], const __m256d (&d1)[2], const __m256d (&n1)[2],
                                    __m256i e2, std::int64_t t2, __m256d limit, __m256i num, const std::uint32_t* t,
                                    __m256i& nl, std::int64_t& tnl) noexcept {
  __m256d n1t[2];
  for (int half = 0; half < 2; ++half) {
    const __m256d gl = _mm256_min_pd(g[half], limit);  // g < limit ? g : limit
    n1t[half] = _mm256_add_pd(
        _mm256_round_pd(barrier(_mm256_mul_pd(barrier(_mm256_mul_pd(gl, gl)), d1[half])), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
        n1[half]);
  }
  __m256i i1, e1;
  log_parts_pd(n1t[0], n1t[1], i1, e1);
  tnl += table_sum(i1, num, t) - t2;
  nl = _mm256_add_epi32(nl, _mm256_and_si256(_mm256_slli_epi32(_mm256_sub_epi32(e1, e2), 11), num));
}

// §7.3 + §8 for 8 positions; `valid` marks the lanes inside the row.
template <bool Two>
VQM_CPU_AVX2 inline void pixels_avx2(__m256i mu1, __m256i mu2, __m256i xx, __m256i yy, __m256i xy, __m256i valid,
                                     __m256d lim_a, __m256d lim_b, acc_avx2& acc) noexcept {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i s1 = _mm256_sub_epi32(xx, mulhi_round(mu1, mu1));
  const __m256i s2 = _mm256_max_epi32(_mm256_sub_epi32(yy, mulhi_round(mu2, mu2)), zero);
  const __m256i s12 = _mm256_sub_epi32(xy, mulhi_round(mu1, mu2));
  const __m256i big = _mm256_cmpgt_epi32(s1, _mm256_set1_epi32(131071));
  const __m256i is_log = _mm256_and_si256(big, valid);
  const __m256i non_log = _mm256_andnot_si256(big, valid);
  // non-log: NN += s2, DN += 1
  const __m256i s2n = _mm256_and_si256(s2, non_log);
  acc.nn = _mm256_add_epi64(acc.nn, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(s2n)));
  acc.nn = _mm256_add_epi64(acc.nn, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(s2n, 1)));
  acc.dn = _mm256_sub_epi32(acc.dn, non_log);
  if (_mm256_testz_si256(is_log, is_log)) return;
  const std::uint32_t* t = log_table32();
  // den_log += LOG(NSQ + s1) − 17·2048 = T + 2048·k − 17·2048
  __m256i idx, k;
  log_parts_epi32(_mm256_add_epi32(s1, _mm256_set1_epi32(131072)), idx, k);
  acc.tdl += table_sum(idx, is_log, t);
  acc.dl = _mm256_add_epi32(acc.dl, _mm256_and_si256(_mm256_sub_epi32(_mm256_slli_epi32(k, 11), _mm256_set1_epi32(17 * 2048)), is_log));
  const __m256i num = _mm256_and_si256(is_log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
  if (_mm256_testz_si256(num, num)) return;
  const __m256d nsq = _mm256_set1_pd(131072.0), eps = _mm256_set1_pd(tables::vif_eps);
  __m256d g[2], d1[2], n1[2];
  for (int half = 0; half < 2; ++half) {
    d1[half] = _mm256_cvtepi32_pd(half_of(s1, half));
    const __m256d d2 = _mm256_cvtepi32_pd(half_of(s2, half)), d12 = _mm256_cvtepi32_pd(half_of(s12, half));
    g[half] = _mm256_div_pd(d12, barrier(_mm256_add_pd(d1[half], eps)));
    const __m256d sv = _mm256_max_pd(
        _mm256_round_pd(barrier(_mm256_sub_pd(d2, barrier(_mm256_mul_pd(g[half], d12)))), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
        _mm256_setzero_pd());
    n1[half] = _mm256_add_pd(sv, nsq);
  }
  __m256i i2, e2;
  log_parts_pd(n1[0], n1[1], i2, e2);
  const std::int64_t t2 = table_sum(i2, num, t);
  num_log_at(g, d1, n1, e2, t2, lim_a, num, t, acc.nl, acc.tnl);
  if constexpr (Two) num_log_at(g, d1, n1, e2, t2, lim_b, num, t, acc.nl2, acc.tnl2);
}

// Adds the lanes of an accumulator set to `out` and clears it.
VQM_CPU_AVX2 inline void flush(acc_avx2& acc, sums& out) noexcept {
  alignas(32) std::int32_t d[4][8];
  alignas(32) std::int64_t n[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[0]), acc.nl);
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[1]), acc.dl);
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[2]), acc.dn);
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[3]), acc.nl2);
  _mm256_store_si256(reinterpret_cast<__m256i*>(n), acc.nn);
  for (int i = 0; i < 8; ++i) {
    out.nl += d[0][i];
    out.dl += d[1][i];
    out.dn += d[2][i];
    out.nl2 += d[3][i];
  }
  out.nn += n[0] + n[1] + n[2] + n[3];
  out.nl += acc.tnl;
  out.dl += acc.tdl;
  out.nl2 += acc.tnl2;
  acc = zero_acc();
}

template <class T>
VQM_CPU_AVX2 inline void down_vertical_avx2(const T* const* rows, const std::uint32_t* taps, int H, int shift, int w,
                                            std::uint32_t* line) noexcept {
  const __m256i r = _mm256_set1_epi32(static_cast<int>(1u << (shift - 1)));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int j = 0;
  for (; j + 8 <= w; j += 8) {
    __m256i a = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(taps[H])), simd::widen8_avx2(rows[H] + j));
    for (int k = 0; k < H; ++k)
      a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(taps[k])),
                                                 _mm256_add_epi32(simd::widen8_avx2(rows[k] + j), simd::widen8_avx2(rows[2 * H - k] + j))));
    st(line + j + H, _mm256_srl_epi32(_mm256_add_epi32(a, r), sh));
  }
  if (j < w) down_vertical_base<T>(rows, taps, H, shift, j, w, line);
}

VQM_CPU_AVX2 inline void down_horizontal_avx2(const std::uint32_t* line, const std::uint32_t* taps, int H, int ow,
                                              std::uint16_t* out) noexcept {
  // even/odd deinterleave of line[2o + k]: lanes o..o+7 of tap k read line[2o + k + 2m].
  const __m256i perm = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i r = _mm256_set1_epi32(32768);
  int o = 0;
  for (; o + 8 <= ow; o += 8) {
    __m256i a = _mm256_setzero_si256();
    for (int k = 0; k <= 2 * H; ++k) {
      const std::uint32_t* p = line + 2 * o + k;
      const __m256i lo = _mm256_permutevar8x32_epi32(ld(p), perm);
      const __m256i hi = _mm256_permutevar8x32_epi32(ld(p + 8), perm);
      const __m256i ev = _mm256_permute2x128_si256(lo, hi, 0x20);
      a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(taps[k])), ev));
    }
    const __m256i v = _mm256_srli_epi32(_mm256_add_epi32(a, r), 16);
    const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + o), packed);
  }
  if (o < ow) down_horizontal_base(line, taps, H, o, ow, out);
}


// ---- AVX2 statistics with pmaddwd: every quantity is stored as int16 v − 32768 (v in [0, 65535]), so
// Σ c·(v − 32768) = Σ c·v − 2^31 (the taps sum to 2^16) and the true sum is that plus 2^31, mod 2^32.

VQM_CPU_AVX2 inline void put16(std::int16_t* base, std::size_t at, __m256i v) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(base + at), v);
}

// Cache of one source row (16 columns at a time; `n` rounded up, the row read through a padded copy at
// the tail): x, y and the squares (8-bit scale 0: x², y², xy < 2^16; Split: their high and low halves).
template <class T, bool Split>
VQM_CPU_AVX2 inline void squares16_avx2(const T* x, const T* y, int n, std::int16_t* out, std::size_t cs) noexcept {
  const __m256i flip = _mm256_set1_epi16(static_cast<short>(0x8000));
  alignas(32) T tx[16], ty[16];
  for (int j = 0; j < n; j += 16) {
    const T* px = x + j;
    const T* py = y + j;
    if (j + 16 > n) {
      std::memset(tx, 0, sizeof tx);
      std::memset(ty, 0, sizeof ty);
      std::memcpy(tx, px, static_cast<std::size_t>(n - j) * sizeof(T));
      std::memcpy(ty, py, static_cast<std::size_t>(n - j) * sizeof(T));
      px = tx;
      py = ty;
    }
    __m256i a, b;
    if constexpr (sizeof(T) == 1) {
      a = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(px)));
      b = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(py)));
    } else {
      a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(px));
      b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(py));
    }
    put16(out, 0 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(a, flip));
    put16(out, 1 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(b, flip));
    if constexpr (Split) {
      put16(out, 2 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mulhi_epu16(a, a), flip));
      put16(out, 3 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(a, a), flip));
      put16(out, 4 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mulhi_epu16(b, b), flip));
      put16(out, 5 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(b, b), flip));
      put16(out, 6 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mulhi_epu16(a, b), flip));
      put16(out, 7 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(a, b), flip));
    } else {
      put16(out, 2 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(a, a), flip));
      put16(out, 3 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(b, b), flip));
      put16(out, 4 * cs + static_cast<std::size_t>(j), _mm256_xor_si256(_mm256_mullo_epi16(a, b), flip));
    }
  }
}

// Σ over tap pairs of one cached quantity q at 16 columns, natural order: (cols 0..7, cols 8..15), true sums,
// for R output rows (R > 1: rows i + 2r from one window, as vsum32 in x86/vif_avx512.hpp).
template <int S, int R>
VQM_CPU_AVX2 inline void vsum16(const std::int16_t* const* rows, std::size_t qoff, int j, __m256i (&lo8)[R],
                                __m256i (&hi8)[R]) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  static_assert(R == 1 || S < 3);
  __m256i al[R], ah[R];
  for (int r = 0; r < R; ++r) al[r] = ah[r] = _mm256_setzero_si256();
#pragma GCC unroll 16
  for (int p = 0; p < tp.n + R - 1; ++p) {
    const int o = R == 1 ? tp.off[static_cast<std::size_t>(p)] : 2 * p;
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[o] + qoff + j));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[o + 1] + qoff + j));
    const __m256i ul = _mm256_unpacklo_epi16(a, b), uh = _mm256_unpackhi_epi16(a, b);
    for (int r = 0; r < R; ++r) {
      const int t = p - r;
      if (t < 0 || t >= tp.n) continue;
      const __m256i c = _mm256_set1_epi32(tp.coef[static_cast<std::size_t>(t)]);
      al[r] = _mm256_add_epi32(al[r], _mm256_madd_epi16(ul, c));
      ah[r] = _mm256_add_epi32(ah[r], _mm256_madd_epi16(uh, c));
    }
  }
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  for (int r = 0; r < R; ++r) {
    al[r] = _mm256_xor_si256(al[r], bias);
    ah[r] = _mm256_xor_si256(ah[r], bias);
    lo8[r] = _mm256_permute2x128_si256(al[r], ah[r], 0x20);
    hi8[r] = _mm256_permute2x128_si256(al[r], ah[r], 0x31);
  }
}

// Two uint32 vectors (values < 2^16) of 8 columns each → 16 int16 (v − 32768), natural order.
VQM_CPU_AVX2 inline void store16(std::int16_t* p, __m256i lo8, __m256i hi8) noexcept {
  const __m256i off = _mm256_set1_epi32(32768);
  const __m256i v = _mm256_packs_epi32(_mm256_sub_epi32(lo8, off), _mm256_sub_epi32(hi8, off));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_permute4x64_epi64(v, 0xd8));
}

// §7.1 for 16 columns at a time (w rounded up), for R output rows: rows[k] = cache slot of tap row k (k = 0..2H
// + 2(R − 1), plus one spare for the zero partner); writes row r's 8 int16 lines Ls[r] at offset H.
template <int S, bool Split, int R>
VQM_CPU_AVX2 inline void vertical16_avx2(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                                         std::int16_t* const* const (&Ls)[R]) noexcept {
  const __m256i rm = _mm256_set1_epi32(static_cast<int>(1u << (p.sh_mean - 1)));
  const __m128i shm = _mm_cvtsi32_si128(p.sh_mean);
  const __m256i lo16 = _mm256_set1_epi32(0xffff);
  const __m128i sa = _mm_cvtsi32_si128(16 - p.sh_sq), sb = _mm_cvtsi32_si128(p.sh_sq);
  const __m256i rq = _mm256_set1_epi32(static_cast<int>(1u << (p.sh_sq - 1)));
  for (int j = 0; j < w; j += 16) {
    const std::size_t o = static_cast<std::size_t>(j + p.H);
    __m256i a[R], b[R];
    for (int q = 0; q < 2; ++q) {
      vsum16<S, R>(rows, static_cast<std::size_t>(q) * cs, j, a, b);
      for (int r = 0; r < R; ++r)
        store16(Ls[r][q] + o, _mm256_srl_epi32(_mm256_add_epi32(a[r], rm), shm), _mm256_srl_epi32(_mm256_add_epi32(b[r], rm), shm));
    }
    for (int q = 0; q < 3; ++q) {
      __m256i v0[R], v1[R];
      if constexpr (Split) {
        __m256i h0[R], h1[R], l0[R], l1[R];
        vsum16<S, R>(rows, static_cast<std::size_t>(2 + 2 * q) * cs, j, h0, h1);
        vsum16<S, R>(rows, static_cast<std::size_t>(3 + 2 * q) * cs, j, l0, l1);
        for (int r = 0; r < R; ++r) {
          v0[r] = _mm256_add_epi32(_mm256_sll_epi32(h0[r], sa), _mm256_srl_epi32(_mm256_add_epi32(l0[r], rq), sb));
          v1[r] = _mm256_add_epi32(_mm256_sll_epi32(h1[r], sa), _mm256_srl_epi32(_mm256_add_epi32(l1[r], rq), sb));
        }
      } else {
        vsum16<S, R>(rows, static_cast<std::size_t>(2 + q) * cs, j, v0, v1);
      }
      for (int r = 0; r < R; ++r) {
        store16(Ls[r][2 + 2 * q] + o, _mm256_srli_epi32(v0[r], 16), _mm256_srli_epi32(v1[r], 16));
        store16(Ls[r][3 + 2 * q] + o, _mm256_and_si256(v0[r], lo16), _mm256_and_si256(v1[r], lo16));
      }
    }
  }
}

// §7.2 + §8 for one row: 16 columns at a time, even and odd columns in separate lanes (pmaddwd reads the
// pair (o, o+1) of output column j at j + o: loading at j0 + o gives the even columns, at j0 + o + 1 the
// odd ones).
template <int S, bool Two>
VQM_CPU_AVX2 inline void horizontal16_avx2(const std::int16_t* const* L, int w, limits lim, sums& out) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  acc_avx2 acc = zero_acc();
  const __m256d lim_a = _mm256_set1_pd(lim.a), lim_b = _mm256_set1_pd(lim.b);
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i r16 = _mm256_set1_epi32(32768);
  const __m256i twice = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  int since_flush = 0;
  for (int j = 0; j < w; j += 16) {
    __m256i e[8], o[8];
    for (int q = 0; q < 8; ++q) {
      __m256i ae = _mm256_setzero_si256(), ao = _mm256_setzero_si256();
#pragma GCC unroll 16
      for (int p = 0; p < tp.n; ++p) {
        const std::int16_t* src = L[q] + j + tp.off[static_cast<std::size_t>(p)];
        const __m256i c = _mm256_set1_epi32(tp.coef[static_cast<std::size_t>(p)]);
        ae = _mm256_add_epi32(ae, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src)), c));
        ao = _mm256_add_epi32(ao, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 1)), c));
      }
      e[q] = _mm256_xor_si256(ae, bias);
      o[q] = _mm256_xor_si256(ao, bias);
    }
    for (int par = 0; par < 2; ++par) {
      __m256i* v = par ? o : e;
      const __m256i xx = _mm256_add_epi32(v[2], _mm256_srli_epi32(_mm256_add_epi32(v[3], r16), 16));
      const __m256i yy = _mm256_add_epi32(v[4], _mm256_srli_epi32(_mm256_add_epi32(v[5], r16), 16));
      const __m256i xy = _mm256_add_epi32(v[6], _mm256_srli_epi32(_mm256_add_epi32(v[7], r16), 16));
      const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(w - j - par), twice);
      pixels_avx2<Two>(v[0], v[1], xx, yy, xy, valid, lim_a, lim_b, acc);
    }
    if (++since_flush == 512) {  // int32 lanes: at most 2^17 per position, two positions per step
      flush(acc, out);
      since_flush = 0;
    }
  }
  flush(acc, out);
}

}  // namespace vqm::cpu::vif_detail::x86

#pragma GCC diagnostic pop
