// Cpu VIF kernel (cpu/vif.hpp): the scratch, the baseline (scalar) building blocks of one scale and the
// ring of source rows and lines they work on (base_rows). The AVX2 forms (x86/vif.hpp) compute the same
// integers.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/detail/big_buffer.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/tables/vif.hpp"

namespace vqm::cpu::vif_detail {

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
#if defined(__x86_64__) || defined(__i386__)
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
  std::array<vqm::detail::big_vector<std::uint16_t>, 4> img_r, img_d;  // scales 1..3 (index = scale)
  std::vector<std::uint32_t> cache;                        // squares of the ring of source rows
  std::vector<int> cache_row;                              // which source row each ring slot holds
  std::vector<std::uint32_t> lines;                        // 8 padded vertical-pass lines
  std::vector<std::uint32_t> carry;                        // 8 padded lines of the last row of the previous scale
  int carry_half = 0;
  bool has_carry = false;
  std::vector<std::uint32_t> dline;                        // downsampling line (padded)
  std::vector<std::int16_t> dline16;                       // the same as int16 v − 32768 (8-bit, AVX-512)
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
// Baseline building blocks.

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

// The gain limits of one pass: `a`, and with Two also `b` (VMAF and NEG share every sum but NL).
struct limits {
  double a = 100.0, b = 100.0;
};

// The per-pixel stage of §7.3 and §8 for one position; nl2 is NL at the second limit.
struct sums {
  std::int64_t nl = 0, dl = 0, nn = 0, dn = 0, nl2 = 0;
};
template <bool Two>
VQM_CPU_INLINE void pixel_base(std::uint32_t mu1, std::uint32_t mu2, std::uint32_t xx, std::uint32_t yy,
                               std::uint32_t xy, limits lim, sums& acc) noexcept {
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
      const double n1 = sv + 131072.0;
      const std::int64_t log_n1 = log_of_double(n1);
      const double ga = g < lim.a ? g : lim.a;
      acc.nl += log_of_double(__builtin_trunc(rounded(rounded(ga * ga) * d1)) + n1) - log_n1;
      if constexpr (Two) {
        const double gb = g < lim.b ? g : lim.b;
        acc.nl2 += log_of_double(__builtin_trunc(rounded(rounded(gb * gb) * d1)) + n1) - log_n1;
      }
    }
  } else {
    acc.nn += s2;
    acc.dn += 1;
  }
}

// §7.2 + §8 for columns [0, w) of one padded line set.
template <bool Two>
inline void horizontal_base(const line_set& L, const std::uint32_t* taps, int H, int w, limits lim,
                            sums& acc) noexcept {
  for (int j = 0; j < w; ++j) {
    std::array<std::uint32_t, 8> s{};
    for (int k = 0; k <= 2 * H; ++k)
      for (int q = 0; q < 8; ++q) s[q] += taps[k] * L[q][static_cast<std::size_t>(j + k)];
    pixel_base<Two>(s[0], s[1], s[2] + ((s[3] + 32768u) >> 16), s[4] + ((s[5] + 32768u) >> 16),
                    s[6] + ((s[7] + 32768u) >> 16), lim, acc);
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

// The ring of cached source rows (squares) and the 8 padded lines of one scale, on the baseline path: what
// statistics() drives, as uint32 values. An instruction set's form has the same members (x86::avx2_rows).
template <class T, bool Split>
struct base_rows {
  using sample = T;
  static constexpr int nq = Split ? 6 : 3;
  workspace& ws;
  int w;
  vparams vp;
  std::size_t cs;
  line_set L;
  std::array<const T*, 17> xr{}, yr{};
  std::array<const std::uint32_t*, 17> sq{};

  base_rows(workspace& ws_, int, int w_, const vparams& vp_, int n)
      : ws(ws_), w(w_), vp(vp_), cs(static_cast<std::size_t>(w + slack)),
        L{nullptr, static_cast<std::size_t>(w + 2 * vp.H + slack)} {
    ws.lines.assign(8 * L.stride, 0);
    ws.cache.assign(static_cast<std::size_t>(n) * nq * cs, 0);
    L.base = ws.lines.data();
  }
  static constexpr int batch = 1;  // one output row at a time
  [[nodiscard]] std::uint32_t* line(int q, int) const noexcept { return L[q]; }
  [[nodiscard]] std::uint32_t* slot(std::size_t k) const noexcept { return ws.cache.data() + k * nq * cs; }
  void fill(std::size_t k, const T* x, const T* y) noexcept { squares_base<T, Split>(x, y, w, slot(k), cs); }
  void take(int k, std::size_t at, const T* x, const T* y) noexcept {
    xr[static_cast<std::size_t>(k)] = x;
    yr[static_cast<std::size_t>(k)] = y;
    sq[static_cast<std::size_t>(k)] = slot(at);
  }
  void vertical() noexcept { vertical_base<T, Split>(xr.data(), yr.data(), sq.data(), cs, vp, 0, w, L); }
  void horizontal(limits lim, bool two, sums& acc, int) noexcept {
    if (two) horizontal_base<true>(L, vp.taps, vp.H, w, lim, acc);
    else horizontal_base<false>(L, vp.taps, vp.H, w, lim, acc);
  }
  static std::uint32_t from_carry(std::uint32_t v) noexcept { return v; }
  static std::uint32_t to_carry(std::uint32_t v) noexcept { return v; }
};

}  // namespace vqm::cpu::vif_detail
