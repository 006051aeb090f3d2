// Scalar reference of the VP9 loop filter (SPEC §3–§6): one line at a time, full-width int arithmetic.
// This is the definition the SIMD and GPU paths are tested against.
#pragma once

#include <cstddef>
#include <span>

#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"

namespace vqm::lpf::reference {

namespace detail {
constexpr int iabs(int x) { return x < 0 ? -x : x; }
constexpr int imin(int a, int b) { return a < b ? a : b; }
constexpr int iclamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
}  // namespace detail

// Filters one line in place. q0 points at the q0 pixel; step is 1 (h) or the stride (v).
// Count=false compiles the counting away.
template <int Wd, bool Count = false, class Pixel>
constexpr void filter_line(Pixel* q0, std::ptrdiff_t step, int bit_depth, int E, int I, int H, counters* c = nullptr) {
  using namespace detail;
  static_assert(valid_wd(Wd));
  constexpr int r = read_reach(Wd);
  int x[16] = {};  // x[8 + k] = tap at offset k, k in [-r, r-1]
  for (int k = -r; k < r; ++k) x[8 + k] = q0[k * step];
  auto p = [&](int i) { return x[7 - i]; };
  auto q = [&](int i) { return x[8 + i]; };

  const int s = bit_depth - 8;
  const int Ei = E << s, Ii = I << s, Hi = H << s, F = 1 << s;
  const bool fm = iabs(p(3) - p(2)) <= Ii && iabs(p(2) - p(1)) <= Ii && iabs(p(1) - p(0)) <= Ii &&
                  iabs(q(1) - q(0)) <= Ii && iabs(q(2) - q(1)) <= Ii && iabs(q(3) - q(2)) <= Ii &&
                  2 * iabs(p(0) - q(0)) + (iabs(p(1) - q(1)) >> 1) <= Ei;
  const bool hev = iabs(p(1) - p(0)) > Hi || iabs(q(1) - q(0)) > Hi;
  bool flat8 = false, flat16 = false;
  if constexpr (Wd >= 8) {
    flat8 = iabs(p(1) - p(0)) <= F && iabs(q(1) - q(0)) <= F && iabs(p(2) - p(0)) <= F &&
            iabs(q(2) - q(0)) <= F && iabs(p(3) - p(0)) <= F && iabs(q(3) - q(0)) <= F;
  }
  if constexpr (Wd == 16) {
    flat16 = flat8;
    for (int i = 4; i < 8; ++i) flat16 = flat16 && iabs(p(i) - p(0)) <= F && iabs(q(i) - q(0)) <= F;
  }
  if constexpr (Count) {
    ++c->lines;
    if (fm) {
      ++c->fm;
      c->hev_fm += hev;
      c->flat8_fm += flat8;
      c->flat16_fm += flat16;
    }
  }
  if (!fm) {
    if constexpr (Count) ++c->skip;
    return;
  }
  const int pmax = (1 << bit_depth) - 1;
  if (Wd == 16 && flat16) {
    // 15-tap: out[k] = (sum_{j=-7..7} x[clamp(k+j, -8, 7)] + x[k] + 8) >> 4 for k in [-7, 6].
    int out[16];
    for (int k = -7; k <= 6; ++k) {
      int sum = x[8 + k] + 8;
      for (int j = -7; j <= 7; ++j) sum += x[8 + iclamp(k + j, -8, 7)];
      out[8 + k] = sum >> 4;
    }
    for (int k = -7; k <= 6; ++k) q0[k * step] = static_cast<Pixel>(out[8 + k]);
    if constexpr (Count) ++c->f16;
    return;
  }
  if (Wd >= 8 && flat8) {
    int out[16];
    for (int k = -3; k <= 2; ++k) {
      int sum = x[8 + k] + 4;
      for (int j = -3; j <= 3; ++j) sum += x[8 + iclamp(k + j, -4, 3)];
      out[8 + k] = sum >> 3;
    }
    for (int k = -3; k <= 2; ++k) q0[k * step] = static_cast<Pixel>(out[8 + k]);
    if constexpr (Count) ++c->f8;
    return;
  }
  // filter4, clamp formulation (SPEC §4.1 / §5).
  const int smax = (1 << (bit_depth - 1)) - 1, smin = -(1 << (bit_depth - 1));
  const int a_raw = p(1) - q(1);
  const int a = hev ? iclamp(a_raw, smin, smax) : 0;
  const int f_raw = a + 3 * (q(0) - p(0));
  const int f = iclamp(f_raw, smin, smax);
  const int f1 = imin(f + 4, smax) >> 3;
  const int f2 = imin(f + 3, smax) >> 3;
  const int nq0 = q(0) - f1, np0 = p(0) + f2;
  q0[0] = static_cast<Pixel>(iclamp(nq0, 0, pmax));
  q0[-step] = static_cast<Pixel>(iclamp(np0, 0, pmax));
  int nq1 = q(1), np1 = p(1);
  if (!hev) {
    const int g = (f1 + 1) >> 1;
    nq1 = q(1) - g;
    np1 = p(1) + g;
    q0[step] = static_cast<Pixel>(iclamp(nq1, 0, pmax));
    q0[-2 * step] = static_cast<Pixel>(iclamp(np1, 0, pmax));
  }
  if constexpr (Count) {
    ++(hev ? c->f4_2px : c->f4_4px);
    c->clamp_a += hev && a != a_raw;
    c->clamp_f += f != f_raw;
    c->clamp_f4 += f + 4 > smax;
    c->clamp_px += nq0 < 0 || nq0 > pmax || np0 < 0 || np0 > pmax || nq1 < 0 || nq1 > pmax || np1 < 0 || np1 > pmax;
  }
}

// Filters the 8 lines of one edge in order.
template <direction Dir, int Wd, bool Count = false, class Pixel>
constexpr void filter_edge(const plane<Pixel>& p, const edge& e, counters* c = nullptr) {
  const auto stride = static_cast<std::ptrdiff_t>(p.stride);
  const std::ptrdiff_t line_step = Dir == direction::h ? stride : 1;
  const std::ptrdiff_t tap_step = Dir == direction::h ? 1 : stride;
  for (int l = 0; l < lines_per_edge; ++l)
    filter_line<Wd, Count>(p.data + e.offset + l * line_step, tap_step, p.bit_depth, e.E, e.I, e.H, c);
}

template <direction Dir, int Wd, class Pixel>
void filter_edges(const plane<Pixel>& p, std::span<const edge> edges, counters* c) {
  if (c) {
    for (const edge& e : edges) filter_edge<Dir, Wd, true>(p, e, c);
  } else {
    for (const edge& e : edges) filter_edge<Dir, Wd, false>(p, e);
  }
}

// Runtime kind -> template instance. No contract checks here: see contract.hpp / the backends.
template <class Pixel>
void filter(kind k, const plane<Pixel>& p, std::span<const edge> edges, counters* c = nullptr) {
  const bool h = k.dir == direction::h;
  switch (k.wd) {
    case 4: return h ? filter_edges<direction::h, 4>(p, edges, c) : filter_edges<direction::v, 4>(p, edges, c);
    case 8: return h ? filter_edges<direction::h, 8>(p, edges, c) : filter_edges<direction::v, 8>(p, edges, c);
    default: return h ? filter_edges<direction::h, 16>(p, edges, c) : filter_edges<direction::v, 16>(p, edges, c);
  }
}

}  // namespace vqm::lpf::reference
