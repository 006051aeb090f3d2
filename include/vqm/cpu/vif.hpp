// Cpu kernel: libvmaf's integer VIF sums (SPEC-vmaf Part I), bit-identical to cpu/reference/vif.hpp on every
// input and every instruction-set path.
//
// Row streaming per scale: the vertical pass of output row i (x, y and the squares of each source row are
// cached once in a ring of 2H+1 rows), the mirrored line, then the horizontal pass fused with the per-pixel
// stage. Exactness: every integer sum is computed modulo 2^32 where its true value is known to lie in
// [0, 2^32) (SPEC §13); sums that need more bits are split into the Q16 high and low halves of their
// inputs (Σc·v = 2^16·Σc·hi + Σc·lo) and the rounding shift is applied to the halves (vertical_combine).
// The AVX2 path stores every quantity as int16 v − 32768 and filters with pmaddwd (pairs of taps, each
// below 2^15; F3's centre tap is split in two), adding back 2^31 = 32768·Σc. The per-pixel doubles are the
// IEEE operations of §8 in that order, each rounded separately (no FMA); the truncations are double
// round-toward-zero, and LOG takes the bit length and the top 16 bits from the exactly converted value.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/vif.hpp"

namespace vqm::cpu {

namespace vif_detail {

inline constexpr int slack = 32;  // uint32 elements of slack after every line (vector over-reads/-writes)

[[nodiscard]] inline int fold(int p, int n) noexcept {
  if (n <= 1) return 0;
  const int period = 2 * (n - 1);
  int m = p % period;
  if (m < 0) m += period;
  return m <= n - 1 ? m : period - m;
}

// T[32768 + i] as uint32, i in [0, 32768), then zeros (entry 32768 is what masked-off lanes read).
[[nodiscard]] inline const std::uint32_t* log_table32() {
  static const std::vector<std::uint32_t> t = [] {
    const auto& t16 = tables::vif_log2_table();
    std::vector<std::uint32_t> v(32768 + 8, 0);
    for (std::size_t i = 0; i < 32768; ++i) v[i] = t16[32768 + i];
    return v;
  }();
  return t.data();
}

// One rounded double operation (no FMA contraction, whatever the flags).
VQM_CPU_INLINE double rounded(double v) noexcept {
#if VQM_CPU_X86
  asm("" : "+x"(v));
#endif
  return v;
}

// LOG(x) of §9 for an integer-valued double 2^17 <= x < 2^53: bit length and top 16 bits from its bits.
VQM_CPU_INLINE std::int64_t log_of_double(double x) noexcept {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  const auto e = static_cast<std::int64_t>(b >> 52);
  return std::int64_t{log_table32()[(b >> 37) & 0x7fff]} + 2048 * (e - 1038);
}

// Scratch of one thread, grown as needed and reused from frame to frame.
struct workspace {
  std::array<std::vector<std::uint16_t>, 4> img_r, img_d;  // scales 1..3 (index = scale)
  std::vector<std::uint32_t> cache;                        // squares of the ring of source rows
  std::vector<int> cache_row;                              // which source row each ring slot holds
  std::vector<std::uint32_t> lines;                        // 8 padded vertical-pass lines
  std::vector<std::uint32_t> carry;                        // 8 padded lines of the last row of the previous scale
  int carry_half = 0;
  bool has_carry = false;
  std::vector<std::uint32_t> dline;                        // downsampling line (padded)
  std::vector<std::uint16_t> stale_r, stale_d;             // one-row rule: the rows at ±1
  std::vector<std::int16_t> cache16, lines16;              // AVX2 path: the same, as int16 (v − 32768)
  std::array<std::vector<std::uint8_t>, 2> one8;           // one-row images: the rows at ±1 (ref, dis)
  std::array<std::vector<std::uint16_t>, 2> one16;

  template <class T>
  [[nodiscard]] std::vector<T>& one_row(int i) noexcept {
    if constexpr (sizeof(T) == 1) return one8[static_cast<std::size_t>(i)];
    else return one16[static_cast<std::size_t>(i)];
  }
};

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

// The scale-s image: the input plane at s = 0, a uint16 buffer above.
struct source {
  const std::byte* data = nullptr;
  std::ptrdiff_t stride = 0;  // bytes
  int w = 0, h = 0;
  bool bytes = false;  // uint8 samples (8-bit scale 0)
};

// Line q (0..7: m1 m2 xxh xxl yyh yyl xyh xyl) of a padded line set of `stride` elements.
struct line_set {
  std::uint32_t* base;
  std::size_t stride;
  [[nodiscard]] std::uint32_t* operator[](int q) const noexcept { return base + static_cast<std::size_t>(q) * stride; }
};

// ----------------------------------------------------------------------------------------------------------
// Baseline (scalar) building blocks; the AVX2 ones below compute the same integers.

// Squares of one source row into the ring slot: Split: (hi, lo) Q16 halves of x², y², xy; else x², y², xy.
template <class T, bool Split>
inline void squares_base(const T* x, const T* y, int n, std::uint32_t* out, std::size_t cstride) noexcept {
  for (int j = 0; j < n; ++j) {
    const std::uint32_t a = x[j], b = y[j];
    const std::uint32_t xx = a * a, yy = b * b, xy = a * b;
    if constexpr (Split) {
      out[0 * cstride + j] = xx >> 16;
      out[1 * cstride + j] = xx & 0xffff;
      out[2 * cstride + j] = yy >> 16;
      out[3 * cstride + j] = yy & 0xffff;
      out[4 * cstride + j] = xy >> 16;
      out[5 * cstride + j] = xy & 0xffff;
    } else {
      out[0 * cstride + j] = xx;
      out[1 * cstride + j] = yy;
      out[2 * cstride + j] = xy;
    }
  }
}

// rs(Σc·v, sh) of a square sum from the sums of its halves: Σc·v = 2^16·SH + SL; SH, SL < 2^32 and the
// result < 2^32 (§13). For 1 <= sh <= 16: rs = (SH << (16 − sh)) + ((SL + 2^(sh−1)) >> sh), exactly, because
// 2^16·SH is a multiple of 2^sh; SL + 2^(sh−1) <= 65536·65535 + 2^15 does not wrap.
VQM_CPU_INLINE std::uint32_t vertical_combine(std::uint32_t sh_sum, std::uint32_t sl_sum, int sh) noexcept {
  return (sh_sum << (16 - sh)) + ((sl_sum + (1u << (sh - 1))) >> sh);
}

struct vparams {
  const std::uint32_t* taps;
  int H;
  int sh_mean, sh_sq;
};

// §7.1 for columns [j0, j1): rows xr[k], yr[k] and cached squares sq[k] (k = 0..2H); writes the 8 lines at
// offset H. Symmetric taps: rows k and 2H−k share c_k.
template <class T, bool Split>
inline void vertical_base(const T* const* xr, const T* const* yr, const std::uint32_t* const* sq, std::size_t cstride,
                          const vparams& p, int j0, int j1, const line_set& L) noexcept {
  const int H = p.H;
  for (int j = j0; j < j1; ++j) {
    std::uint32_t am = 0, an = 0;
    std::array<std::uint32_t, 6> s{};
    for (int k = 0; k <= 2 * H; ++k) {
      const std::uint32_t c = p.taps[k];
      am += c * xr[k][j];
      an += c * yr[k][j];
      for (int q = 0; q < (Split ? 6 : 3); ++q) s[q] += c * sq[k][static_cast<std::size_t>(q) * cstride + j];
    }
    const std::uint32_t m1 = (am + (1u << (p.sh_mean - 1))) >> p.sh_mean;
    const std::uint32_t m2 = (an + (1u << (p.sh_mean - 1))) >> p.sh_mean;
    std::uint32_t xx, yy, xy;
    if constexpr (Split) {
      xx = vertical_combine(s[0], s[1], p.sh_sq);
      yy = vertical_combine(s[2], s[3], p.sh_sq);
      xy = vertical_combine(s[4], s[5], p.sh_sq);
    } else {
      xx = s[0];
      yy = s[1];
      xy = s[2];
    }
    const auto o = static_cast<std::size_t>(j + H);
    L[0][o] = m1;
    L[1][o] = m2;
    L[2][o] = xx >> 16;
    L[3][o] = xx & 0xffff;
    L[4][o] = yy >> 16;
    L[5][o] = yy & 0xffff;
    L[6][o] = xy >> 16;
    L[7][o] = xy & 0xffff;
  }
}

// The per-pixel stage of §7.3 and §8 for one position.
struct sums {
  std::int64_t nl = 0, dl = 0, nn = 0, dn = 0;
};
VQM_CPU_INLINE void pixel_base(std::uint32_t mu1, std::uint32_t mu2, std::uint32_t xx, std::uint32_t yy,
                               std::uint32_t xy, double limit, sums& acc) noexcept {
  constexpr std::uint64_t half = std::uint64_t{1} << 31;
  const auto mu1_sq = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu1 + half) >> 32);
  const auto mu2_sq = static_cast<std::uint32_t>((std::uint64_t{mu2} * mu2 + half) >> 32);
  const auto mu1_mu2 = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu2 + half) >> 32);
  const auto s1 = static_cast<std::int32_t>(xx - mu1_sq);
  const auto s2 = std::max(static_cast<std::int32_t>(yy - mu2_sq), 0);
  const auto s12 = static_cast<std::int32_t>(xy - mu1_mu2);
  if (s1 >= tables::vif_sigma_nsq) {
    const double d1 = s1;
    acc.dl += log_of_double(d1 + 131072.0) - 17 * 2048;
    if (s12 > 0 && s2 > 0) {
      const double d2 = s2, d12 = s12;
      double g = d12 / rounded(d1 + tables::vif_eps);
      const double sv = std::max(__builtin_trunc(rounded(d2 - rounded(g * d12))), 0.0);
      g = g < limit ? g : limit;
      const double n1 = sv + 131072.0;
      const double n1t = __builtin_trunc(rounded(rounded(g * g) * d1)) + n1;
      acc.nl += log_of_double(n1t) - log_of_double(n1);
    }
  } else {
    acc.nn += s2;
    acc.dn += 1;
  }
}

// §7.2 + §8 for columns [0, w) of one padded line set.
inline void horizontal_base(const line_set& L, const std::uint32_t* taps, int H, int w, double limit,
                            sums& acc) noexcept {
  for (int j = 0; j < w; ++j) {
    std::array<std::uint32_t, 8> s{};
    for (int k = 0; k <= 2 * H; ++k)
      for (int q = 0; q < 8; ++q) s[q] += taps[k] * L[q][static_cast<std::size_t>(j + k)];
    pixel_base(s[0], s[1], s[2] + ((s[3] + 32768u) >> 16), s[4] + ((s[5] + 32768u) >> 16),
               s[6] + ((s[7] + 32768u) >> 16), limit, acc);
  }
}

// §6 vertical part for columns [j0, j1): rs(Σ c·I, S) into line (offset H).
template <class T>
inline void down_vertical_base(const T* const* rows, const std::uint32_t* taps, int H, int shift, int j0, int j1,
                               std::uint32_t* line) noexcept {
  for (int j = j0; j < j1; ++j) {
    std::uint32_t a = 0;
    for (int k = 0; k <= 2 * H; ++k) a += taps[k] * rows[k][j];
    line[j + H] = (a + (1u << (shift - 1))) >> shift;
  }
}

// §6 horizontal part at the even columns: out[o] = rs(Σ c·line[2o + k], 16).
inline void down_horizontal_base(const std::uint32_t* line, const std::uint32_t* taps, int H, int o0, int ow,
                                 std::uint16_t* out) noexcept {
  for (int o = o0; o < ow; ++o) {
    std::uint32_t a = 0;
    for (int k = 0; k <= 2 * H; ++k) a += taps[k] * line[2 * o + k];
    out[o] = static_cast<std::uint16_t>((a + 32768u) >> 16);
  }
}

#if VQM_CPU_X86
// ----------------------------------------------------------------------------------------------------------
// AVX2 building blocks (8 uint32 lanes).

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

template <class T>
[[gnu::target("avx2")]] inline __m256i load8(const T* p) noexcept {
  if constexpr (sizeof(T) == 1)
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  else
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
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
  std::int64_t tnl = 0, tdl = 0;  // the table parts of NL and DL
};

// §7.3 + §8 for 8 positions; `valid` marks the lanes inside the row.
VQM_CPU_AVX2 inline void pixels_avx2(__m256i mu1, __m256i mu2, __m256i xx, __m256i yy, __m256i xy, __m256i valid,
                                     __m256d limit, acc_avx2& acc) noexcept {
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
  __m256d n1[2], n1t[2];
  for (int half = 0; half < 2; ++half) {
    const __m256d d1 = _mm256_cvtepi32_pd(half_of(s1, half)), d2 = _mm256_cvtepi32_pd(half_of(s2, half)),
                  d12 = _mm256_cvtepi32_pd(half_of(s12, half));
    __m256d g = _mm256_div_pd(d12, barrier(_mm256_add_pd(d1, eps)));
    const __m256d sv = _mm256_max_pd(
        _mm256_round_pd(barrier(_mm256_sub_pd(d2, barrier(_mm256_mul_pd(g, d12)))), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
        _mm256_setzero_pd());
    g = _mm256_min_pd(g, limit);  // g < limit ? g : limit
    n1[half] = _mm256_add_pd(sv, nsq);
    n1t[half] = _mm256_add_pd(
        _mm256_round_pd(barrier(_mm256_mul_pd(barrier(_mm256_mul_pd(g, g)), d1)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
        n1[half]);
  }
  __m256i i1, e1, i2, e2;
  log_parts_pd(n1t[0], n1t[1], i1, e1);
  log_parts_pd(n1[0], n1[1], i2, e2);
  acc.tnl += table_sum(i1, num, t) - table_sum(i2, num, t);
  acc.nl = _mm256_add_epi32(acc.nl, _mm256_and_si256(_mm256_slli_epi32(_mm256_sub_epi32(e1, e2), 11), num));
}

// Adds the lanes of an accumulator set to `out` and clears it.
VQM_CPU_AVX2 inline void flush(acc_avx2& acc, sums& out) noexcept {
  alignas(32) std::int32_t d[3][8];
  alignas(32) std::int64_t n[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[0]), acc.nl);
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[1]), acc.dl);
  _mm256_store_si256(reinterpret_cast<__m256i*>(d[2]), acc.dn);
  _mm256_store_si256(reinterpret_cast<__m256i*>(n), acc.nn);
  for (int i = 0; i < 8; ++i) {
    out.nl += d[0][i];
    out.dl += d[1][i];
    out.dn += d[2][i];
  }
  out.nn += n[0] + n[1] + n[2] + n[3];
  out.nl += acc.tnl;
  out.dl += acc.tdl;
  acc = acc_avx2{_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
}

template <class T>
VQM_CPU_AVX2 inline void down_vertical_avx2(const T* const* rows, const std::uint32_t* taps, int H, int shift, int w,
                                            std::uint32_t* line) noexcept {
  const __m256i r = _mm256_set1_epi32(static_cast<int>(1u << (shift - 1)));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int j = 0;
  for (; j + 8 <= w; j += 8) {
    __m256i a = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(taps[H])), load8(rows[H] + j));
    for (int k = 0; k < H; ++k)
      a = _mm256_add_epi32(a, _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(taps[k])),
                                                 _mm256_add_epi32(load8(rows[k] + j), load8(rows[2 * H - k] + j))));
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

// Σ over tap pairs of one cached quantity q at 16 columns, natural order: (cols 0..7, cols 8..15), true sums.
template <int S>
VQM_CPU_AVX2 inline void vsum16(const std::int16_t* const* rows, std::size_t qoff, int j, __m256i& lo8,
                                __m256i& hi8) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  __m256i al = _mm256_setzero_si256(), ah = _mm256_setzero_si256();
#pragma GCC unroll 16
  for (int p = 0; p < tp.n; ++p) {
    const int o = tp.off[static_cast<std::size_t>(p)];
    const __m256i c = _mm256_set1_epi32(tp.coef[static_cast<std::size_t>(p)]);
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[o] + qoff + j));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[o + 1] + qoff + j));
    al = _mm256_add_epi32(al, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), c));
    ah = _mm256_add_epi32(ah, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), c));
  }
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  al = _mm256_xor_si256(al, bias);
  ah = _mm256_xor_si256(ah, bias);
  lo8 = _mm256_permute2x128_si256(al, ah, 0x20);
  hi8 = _mm256_permute2x128_si256(al, ah, 0x31);
}

// Two uint32 vectors (values < 2^16) of 8 columns each → 16 int16 (v − 32768), natural order.
VQM_CPU_AVX2 inline void store16(std::int16_t* p, __m256i lo8, __m256i hi8) noexcept {
  const __m256i off = _mm256_set1_epi32(32768);
  const __m256i v = _mm256_packs_epi32(_mm256_sub_epi32(lo8, off), _mm256_sub_epi32(hi8, off));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_permute4x64_epi64(v, 0xd8));
}

// §7.1 for 16 columns at a time (w rounded up): rows[k] = cache slot of tap row k (k = 0..2H, plus one
// spare for the zero partner); writes the 8 int16 lines at offset H.
template <int S, bool Split>
VQM_CPU_AVX2 inline void vertical16_avx2(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                                         std::int16_t* const* L) noexcept {
  const __m256i rm = _mm256_set1_epi32(static_cast<int>(1u << (p.sh_mean - 1)));
  const __m128i shm = _mm_cvtsi32_si128(p.sh_mean);
  const __m256i lo16 = _mm256_set1_epi32(0xffff);
  for (int j = 0; j < w; j += 16) {
    const std::size_t o = static_cast<std::size_t>(j + p.H);
    __m256i a, b;
    vsum16<S>(rows, 0 * cs, j, a, b);
    store16(L[0] + o, _mm256_srl_epi32(_mm256_add_epi32(a, rm), shm), _mm256_srl_epi32(_mm256_add_epi32(b, rm), shm));
    vsum16<S>(rows, 1 * cs, j, a, b);
    store16(L[1] + o, _mm256_srl_epi32(_mm256_add_epi32(a, rm), shm), _mm256_srl_epi32(_mm256_add_epi32(b, rm), shm));
    for (int q = 0; q < 3; ++q) {
      __m256i v0, v1;
      if constexpr (Split) {
        __m256i h0, h1, l0, l1;
        vsum16<S>(rows, static_cast<std::size_t>(2 + 2 * q) * cs, j, h0, h1);
        vsum16<S>(rows, static_cast<std::size_t>(3 + 2 * q) * cs, j, l0, l1);
        const __m128i sa = _mm_cvtsi32_si128(16 - p.sh_sq), sb = _mm_cvtsi32_si128(p.sh_sq);
        const __m256i r = _mm256_set1_epi32(static_cast<int>(1u << (p.sh_sq - 1)));
        v0 = _mm256_add_epi32(_mm256_sll_epi32(h0, sa), _mm256_srl_epi32(_mm256_add_epi32(l0, r), sb));
        v1 = _mm256_add_epi32(_mm256_sll_epi32(h1, sa), _mm256_srl_epi32(_mm256_add_epi32(l1, r), sb));
      } else {
        vsum16<S>(rows, static_cast<std::size_t>(2 + q) * cs, j, v0, v1);
      }
      store16(L[2 + 2 * q] + o, _mm256_srli_epi32(v0, 16), _mm256_srli_epi32(v1, 16));
      store16(L[3 + 2 * q] + o, _mm256_and_si256(v0, lo16), _mm256_and_si256(v1, lo16));
    }
  }
}

// §7.2 + §8 for one row: 16 columns at a time, even and odd columns in separate lanes (pmaddwd reads the
// pair (o, o+1) of output column j at j + o: loading at j0 + o gives the even columns, at j0 + o + 1 the
// odd ones).
template <int S>
VQM_CPU_AVX2 inline void horizontal16_avx2(const std::int16_t* const* L, int w, double limit, sums& out) noexcept {
  constexpr tap_pairs tp = pairs_of(S);
  acc_avx2 acc{_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
  const __m256d lim = _mm256_set1_pd(limit);
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
      pixels_avx2(v[0], v[1], xx, yy, xy, valid, lim, acc);
    }
    if (++since_flush == 512) {  // int32 lanes: at most 2^17 per position, two positions per step
      flush(acc, out);
      since_flush = 0;
    }
  }
  flush(acc, out);
}

#pragma GCC diagnostic pop
#endif

// ----------------------------------------------------------------------------------------------------------
// Driver, shared by both paths.

template <class T>
[[nodiscard]] inline const T* row_of(const source& s, int r) noexcept {
  return reinterpret_cast<const T*>(s.data + static_cast<std::ptrdiff_t>(r) * s.stride);
}

template <bool Avx2, class T>
inline void downsample(const source& in, int s, unsigned bpc, std::vector<std::uint16_t>& out, workspace& ws) {
  const auto f = tables::vif_filter_of(s + 1);
  const int H = f.half, w = in.w, h = in.h, ow = w / 2, oh = h / 2;
  const int shift = s == 0 ? static_cast<int>(bpc) : 16;
  out.assign(static_cast<std::size_t>(ow) * oh + slack, 0);
  if (ow == 0 || oh == 0) return;
  ws.dline.assign(static_cast<std::size_t>(w + 2 * H + slack), 0);
  std::uint32_t* line = ws.dline.data();
  std::array<const T*, 17> rows{};
  for (int oi = 0; oi < oh; ++oi) {
    const int i = 2 * oi;
    for (int k = 0; k <= 2 * H; ++k) rows[static_cast<std::size_t>(k)] = row_of<T>(in, fold(i - H + k, h));
#if VQM_CPU_X86
    if constexpr (Avx2) down_vertical_avx2<T>(rows.data(), f.taps, H, shift, w, line);
    else
#endif
      down_vertical_base<T>(rows.data(), f.taps, H, shift, 0, w, line);
    for (int p = 1; p <= H; ++p) {
      line[H - p] = line[H + fold(-p, w)];
      line[H + w - 1 + p] = line[H + fold(w - 1 + p, w)];
    }
    std::uint16_t* dst = out.data() + static_cast<std::size_t>(oi) * ow;
#if VQM_CPU_X86
    if constexpr (Avx2) down_horizontal_avx2(line, f.taps, H, ow, dst);
    else
#endif
      down_horizontal_base(line, f.taps, H, 0, ow, dst);
  }
}


#if VQM_CPU_X86
// The AVX2 form of statistics(): the same rows and rules, int16 caches and lines.
template <class T, bool Split>
inline vif_scale_sums statistics_avx2(const source& X, const source& Y, int s, unsigned bpc, double limit,
                                      const std::uint16_t* stale_r, const std::uint16_t* stale_d, workspace& ws) {
  const auto f = tables::vif_filter_of(s);
  const int H = f.half, w = X.w, h = X.h, n = 2 * H + 1;
  const vparams vp{f.taps, H, s == 0 ? static_cast<int>(bpc) : 16, s == 0 ? 2 * (static_cast<int>(bpc) - 8) : 16};
  constexpr int nq = Split ? 8 : 5;
  const int w16 = (w + 15) & ~15;
  const std::size_t cs = static_cast<std::size_t>(w16 + slack);
  const std::size_t ls = static_cast<std::size_t>(w16 + 2 * H + 2 * slack);
  ws.lines16.assign(8 * ls, 0);
  ws.cache16.assign(static_cast<std::size_t>(n) * nq * cs, 0);
  ws.cache_row.assign(static_cast<std::size_t>(n), -1);
  std::array<std::int16_t*, 8> L{};
  for (int q = 0; q < 8; ++q) L[static_cast<std::size_t>(q)] = ws.lines16.data() + static_cast<std::size_t>(q) * ls;

  auto& one_r = ws.one_row<T>(0);
  auto& one_d = ws.one_row<T>(1);
  if (h == 1) {
    one_r.assign(static_cast<std::size_t>(w) + slack, 0);
    one_d.assign(static_cast<std::size_t>(w) + slack, 0);
    for (int j = 0; j < w && stale_r; ++j) {
      one_r[static_cast<std::size_t>(j)] = static_cast<T>(stale_r[j]);
      one_d[static_cast<std::size_t>(j)] = static_cast<T>(stale_d[j]);
    }
  }
  auto src_row = [&](const source& S, const std::vector<T>& one, int r) -> const T* {
    if (h >= 2) return row_of<T>(S, fold(r, h));
    return r == 0 ? row_of<T>(S, 0) : one.data();
  };
  auto key_of = [&](int r) { return h >= 2 ? fold(r, h) : (r == 0 ? 0 : 1); };

  std::array<const std::int16_t*, 18> rows{};
  sums acc;
  for (int i = 0; i < h; ++i) {
    for (int k = 0; k < n; ++k) {
      const int r = i - H + k;
      const int key = key_of(r);
      const auto slot = static_cast<std::size_t>(key % n);
      std::int16_t* c = ws.cache16.data() + slot * nq * cs;
      if (ws.cache_row[slot] != key) {
        squares16_avx2<T, Split>(src_row(X, one_r, r), src_row(Y, one_d, r), w, c, cs);
        ws.cache_row[slot] = key;
      }
      rows[static_cast<std::size_t>(k)] = c;
    }
    rows[static_cast<std::size_t>(n)] = rows[static_cast<std::size_t>(n - 1)];  // the zero-tap partner
    switch (s) {
      case 0: vertical16_avx2<0, Split>(rows.data(), cs, vp, w, L.data()); break;
      case 1: vertical16_avx2<1, Split>(rows.data(), cs, vp, w, L.data()); break;
      case 2: vertical16_avx2<2, Split>(rows.data(), cs, vp, w, L.data()); break;
      default: vertical16_avx2<3, Split>(rows.data(), cs, vp, w, L.data()); break;
    }
    for (int q = 0; q < 8; ++q) {
      std::int16_t* l = L[static_cast<std::size_t>(q)];
      for (int p = 1; p <= H; ++p) {
        if (w >= 2) {
          l[H - p] = l[H + fold(-p, w)];
          l[H + w - 1 + p] = l[H + fold(w - 1 + p, w)];
        } else {
          const std::uint32_t v = ws.has_carry ? ws.carry[static_cast<std::size_t>(q) * ws.carry.size() / 8 +
                                                          static_cast<std::size_t>(ws.carry_half + p)]
                                               : 0;
          l[H - p] = static_cast<std::int16_t>(static_cast<int>(v) - 32768);
          l[H + p] = l[H - p];
        }
      }
    }
    switch (s) {
      case 0: horizontal16_avx2<0>(L.data(), w, limit, acc); break;
      case 1: horizontal16_avx2<1>(L.data(), w, limit, acc); break;
      case 2: horizontal16_avx2<2>(L.data(), w, limit, acc); break;
      default: horizontal16_avx2<3>(L.data(), w, limit, acc); break;
    }
  }
  const std::size_t used = static_cast<std::size_t>(w + 2 * H);
  ws.carry.resize(8 * used);
  for (int q = 0; q < 8; ++q)
    for (std::size_t k = 0; k < used; ++k)
      ws.carry[static_cast<std::size_t>(q) * used + k] = static_cast<std::uint32_t>(L[static_cast<std::size_t>(q)][k] + 32768);
  ws.carry_half = H;
  ws.has_carry = true;
  return {acc.nl, acc.dl, acc.nn, acc.dn};
}
#endif

// One scale's sums (§7, §8). `stale` is row 1 of the previous scale's image (one-row rule), or null.
template <bool Avx2, class T, bool Split>
inline vif_scale_sums statistics(const source& X, const source& Y, int s, unsigned bpc, double limit,
                                 const std::uint16_t* stale_r, const std::uint16_t* stale_d, workspace& ws) {
#if VQM_CPU_X86
  if constexpr (Avx2) return statistics_avx2<T, Split>(X, Y, s, bpc, limit, stale_r, stale_d, ws);
#endif
  const auto f = tables::vif_filter_of(s);
  const int H = f.half, w = X.w, h = X.h, n = 2 * H + 1;
  const vparams vp{f.taps, H, s == 0 ? static_cast<int>(bpc) : 16, s == 0 ? 2 * (static_cast<int>(bpc) - 8) : 16};
  constexpr int nq = Split ? 6 : 3;
  const std::size_t lstride = static_cast<std::size_t>(w + 2 * H + slack);
  const std::size_t cstride = static_cast<std::size_t>(w + slack);
  ws.lines.assign(8 * lstride, 0);
  ws.cache.assign(static_cast<std::size_t>(n) * nq * cstride, 0);
  ws.cache_row.assign(static_cast<std::size_t>(n), -1);
  const line_set L{ws.lines.data(), lstride};

  // One-row images: the rows at ±f are the previous scale's row 1 (§4.3), as samples of type T.
  auto& one_r = ws.one_row<T>(0);
  auto& one_d = ws.one_row<T>(1);
  if (h == 1) {
    one_r.assign(static_cast<std::size_t>(w) + slack, 0);
    one_d.assign(static_cast<std::size_t>(w) + slack, 0);
    for (int j = 0; j < w && stale_r; ++j) {
      one_r[static_cast<std::size_t>(j)] = static_cast<T>(stale_r[j]);
      one_d[static_cast<std::size_t>(j)] = static_cast<T>(stale_d[j]);
    }
  }
  // Source row of tap position r (rows −1 .. for a one-row image: the stale row; its ring slot is keyed by r).
  auto src_row = [&](const source& S, const std::vector<T>& one, int r) -> const T* {
    if (h >= 2) return row_of<T>(S, fold(r, h));
    return r == 0 ? row_of<T>(S, 0) : one.data();
  };
  auto key_of = [&](int r) { return h >= 2 ? fold(r, h) : (r == 0 ? 0 : 1); };

  std::array<const T*, 17> xr{}, yr{};
  std::array<const std::uint32_t*, 17> sq{};
  sums acc;
  for (int i = 0; i < h; ++i) {
    for (int k = 0; k < n; ++k) {
      const int r = i - H + k;
      const int key = key_of(r);
      const auto slot = static_cast<std::size_t>(key % n);
      const T* xrow = src_row(X, one_r, r);
      const T* yrow = src_row(Y, one_d, r);
      std::uint32_t* c = ws.cache.data() + slot * nq * cstride;
      if (ws.cache_row[slot] != key) {
        squares_base<T, Split>(xrow, yrow, w, c, cstride);
        ws.cache_row[slot] = key;
      }
      xr[static_cast<std::size_t>(k)] = xrow;
      yr[static_cast<std::size_t>(k)] = yrow;
      sq[static_cast<std::size_t>(k)] = c;
    }
    vertical_base<T, Split>(xr.data(), yr.data(), sq.data(), cstride, vp, 0, w, L);
    // mirror the line (§4.1), or the stale values of the previous scale's last line (§4.3)
    for (int q = 0; q < 8; ++q) {
      std::uint32_t* l = L[q];
      for (int p = 1; p <= H; ++p) {
        if (w >= 2) {
          l[H - p] = l[H + fold(-p, w)];
          l[H + w - 1 + p] = l[H + fold(w - 1 + p, w)];
        } else {
          const std::uint32_t v =
              ws.has_carry ? ws.carry[static_cast<std::size_t>(q) * ws.carry.size() / 8 + static_cast<std::size_t>(ws.carry_half + p)] : 0;
          l[H - p] = v;
          l[H + p] = v;
        }
      }
    }
    horizontal_base(L, f.taps, H, w, limit, acc);
  }
  // what this scale leaves for the next one: the padded lines of its last row
  const std::size_t used = static_cast<std::size_t>(w + 2 * H);
  ws.carry.resize(8 * used);
  for (int q = 0; q < 8; ++q) std::memcpy(ws.carry.data() + q * used, L[q], used * sizeof(std::uint32_t));
  ws.carry_half = H;
  ws.has_carry = true;
  return {acc.nl, acc.dl, acc.nn, acc.dn};
}

template <bool Avx2>
inline vif_partials run(const plane_view& ref, const plane_view& dis, unsigned bpc, const vif_request& q) {
  thread_local workspace ws;
  ws.has_carry = false;
  vif_partials out;
  source X{ref.data, ref.stride, static_cast<int>(ref.width), static_cast<int>(ref.height), bpc <= 8};
  source Y{dis.data, dis.stride, X.w, X.h, X.bytes};
  for (int s = 0; s < 4; ++s) {
    if (s > 0) {
      auto& nr = ws.img_r[static_cast<std::size_t>(s)];
      auto& nd = ws.img_d[static_cast<std::size_t>(s)];
      if (X.bytes) {
        downsample<Avx2, std::uint8_t>(X, s - 1, bpc, nr, ws);
        downsample<Avx2, std::uint8_t>(Y, s - 1, bpc, nd, ws);
      } else {
        downsample<Avx2, std::uint16_t>(X, s - 1, bpc, nr, ws);
        downsample<Avx2, std::uint16_t>(Y, s - 1, bpc, nd, ws);
      }
      const int w = X.w / 2, h = X.h / 2;
      // the previous image's row 1, for a one-row image (§4.3)
      const bool one_row = h == 1 && X.h >= 2;
      if (one_row) {
        ws.stale_r.assign(static_cast<std::size_t>(w), 0);
        ws.stale_d.assign(static_cast<std::size_t>(w), 0);
        for (int j = 0; j < w; ++j) {
          if (X.bytes) {
            ws.stale_r[static_cast<std::size_t>(j)] = row_of<std::uint8_t>(X, 1)[j];
            ws.stale_d[static_cast<std::size_t>(j)] = row_of<std::uint8_t>(Y, 1)[j];
          } else {
            ws.stale_r[static_cast<std::size_t>(j)] = row_of<std::uint16_t>(X, 1)[j];
            ws.stale_d[static_cast<std::size_t>(j)] = row_of<std::uint16_t>(Y, 1)[j];
          }
        }
      }
      const bool prev_ran = !(s == 1 && q.skip_scale0);
      X = source{reinterpret_cast<const std::byte*>(nr.data()), static_cast<std::ptrdiff_t>(w) * 2, w, h, false};
      Y = source{reinterpret_cast<const std::byte*>(nd.data()), X.stride, w, h, false};
      if (w == 0 || h == 0) break;
      if (!prev_ran) ws.has_carry = false;
      const bool stale = one_row && prev_ran;
      out.scale[static_cast<std::size_t>(s)] = statistics<Avx2, std::uint16_t, true>(
          X, Y, s, bpc, q.gain_limit, stale ? ws.stale_r.data() : nullptr, stale ? ws.stale_d.data() : nullptr, ws);
      continue;
    }
    if (X.w == 0 || X.h == 0) break;
    if (q.skip_scale0) continue;
    if (X.bytes)
      out.scale[0] = statistics<Avx2, std::uint8_t, false>(X, Y, 0, bpc, q.gain_limit, nullptr, nullptr, ws);
    else
      out.scale[0] = statistics<Avx2, std::uint16_t, true>(X, Y, 0, bpc, q.gain_limit, nullptr, nullptr, ws);
  }
  return out;
}

}  // namespace vif_detail

// The exact VIF sums of every scale (SPEC-vmaf Part I §5); bit-identical to reference::vif on every input
// and every instruction-set path. Thread-safe; per-thread scratch is reused between calls.
[[nodiscard]] VQM_CPU_KERNEL vif_partials vif(const plane_view& ref, const plane_view& dis, unsigned bpc,
                                              const vif_request& q)
#if VQM_CPU_KERNEL_BODIES
{
#if VQM_CPU_X86
  if (active_isa() == isa::avx2) return vif_detail::run<true>(ref, dis, bpc, q);
#endif
  return vif_detail::run<false>(ref, dis, bpc, q);
}
#else
;
#endif

}  // namespace vqm::cpu
