// Cpu kernel: libvmaf's integer VIF sums (SPEC-vmaf Part I), bit-identical to cpu/reference/vif.hpp on every
// input and every instruction-set path.
//
// Row streaming per scale: the vertical pass of output row i (x, y and the squares of each source row are
// cached once in a ring of 2H+1 rows; 2H+7 on AVX2 and AVX-512, where rows i, i + 2, i + 4, i + 6 take one
// vertical pass), the mirrored line, then the horizontal pass fused with the per-pixel stage. Exactness:
// every integer sum is computed modulo 2^32 where its true value is known to lie in [0, 2^32) (SPEC §13);
// sums that need more bits are split into the Q16 high and low halves of their inputs
// (Σc·v = 2^16·Σc·hi + Σc·lo) and the rounding shift is applied to the halves (vertical_combine).
// The AVX2 and AVX-512 paths (x86/vif.hpp, x86/vif_avx512.hpp) store every quantity as int16 v − 32768 and
// filter with pmaddwd or vpdpwssd (pairs of taps, each below 2^15; F3's centre tap is split in two), adding
// back 2^31 = 32768·Σc. The per-pixel doubles are the IEEE operations of §8 in that order, each rounded
// separately (no FMA); the truncations are double round-toward-zero, and LOG takes the bit length and the
// top 16 bits from the exactly converted value.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/vif_blocks.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/vif.hpp"

#if VQM_CPU_X86
#include "vqm/cpu/x86/vif.hpp"
#include "vqm/cpu/x86/vif_rows.hpp"
#include "vqm/cpu/x86/vif_avx512.hpp"
#include "vqm/cpu/x86/vif_down8_avx512.hpp"
#endif

namespace vqm::cpu {

namespace vif_detail {

// ----------------------------------------------------------------------------------------------------------
// Driver, shared by every path.

template <class T>
[[nodiscard]] inline const T* row_of(const source& s, int r) noexcept {
  return reinterpret_cast<const T*>(s.data + static_cast<std::ptrdiff_t>(r) * s.stride);
}

template <isa L, class T>
inline void downsample(const source& in, int s, unsigned bpc, vqm::detail::big_vector<std::uint16_t>& out, workspace& ws) {
  const auto f = tables::vif_filter_of(s + 1);
  const int H = f.half, w = in.w, h = in.h, ow = w / 2, oh = h / 2;
  const int shift = s == 0 ? static_cast<int>(bpc) : 16;
  out.assign(static_cast<std::size_t>(ow) * oh + slack, 0);
  if (ow == 0 || oh == 0) return;
  std::array<const T*, 17> rows{};
#if VQM_CPU_X86
  if constexpr (L >= isa::avx512 && sizeof(T) == 1) {  // scale 0 → 1 of 8-bit input: an int16 line (f1's taps)
    ws.dline16.assign(static_cast<std::size_t>(w + 2 * H + 2 * slack), 0);
    std::int16_t* line = ws.dline16.data();
    for (int oi = 0; oi < oh; ++oi) {
      for (int k = 0; k <= 2 * H; ++k) rows[static_cast<std::size_t>(k)] = row_of<T>(in, fold(2 * oi - H + k, h));
      x86::down8_vertical_avx512(rows.data(), w, line);
      for (int p = 1; p <= H; ++p) {
        line[H - p] = line[H + fold(-p, w)];
        line[H + w - 1 + p] = line[H + fold(w - 1 + p, w)];
      }
      x86::down8_horizontal_avx512(line, ow, out.data() + static_cast<std::size_t>(oi) * ow);
    }
    return;
  }
#endif
  ws.dline.assign(static_cast<std::size_t>(w + 2 * H + slack), 0);
  std::uint32_t* line = ws.dline.data();
  for (int oi = 0; oi < oh; ++oi) {
    const int i = 2 * oi;
    for (int k = 0; k <= 2 * H; ++k) rows[static_cast<std::size_t>(k)] = row_of<T>(in, fold(i - H + k, h));
#if VQM_CPU_X86
    if constexpr (L >= isa::avx512) x86::down_vertical_avx512<T>(rows.data(), f.taps, H, shift, w, line);
    else if constexpr (L == isa::avx2) x86::down_vertical_avx2<T>(rows.data(), f.taps, H, shift, w, line);
    else
#endif
      down_vertical_base<T>(rows.data(), f.taps, H, shift, 0, w, line);
    for (int p = 1; p <= H; ++p) {
      line[H - p] = line[H + fold(-p, w)];
      line[H + w - 1 + p] = line[H + fold(w - 1 + p, w)];
    }
    std::uint16_t* dst = out.data() + static_cast<std::size_t>(oi) * ow;
#if VQM_CPU_X86
    if constexpr (L >= isa::avx512) x86::down_horizontal_avx512(line, f.taps, H, ow, dst);
    else if constexpr (L == isa::avx2) x86::down_horizontal_avx2(line, f.taps, H, ow, dst);
    else
#endif
      down_horizontal_base(line, f.taps, H, 0, ow, dst);
  }
}

// The source rows of the vertical pass: x(r), y(r) are row r of X and Y folded at the borders (§4.1); in
// a one-row image every row but 0 is the previous scale's row 1 (§4.3), as samples of type T. key(r)
// names the row in the ring.
template <class T>
struct tap_rows {
  const source& X;
  const source& Y;
  const T* one_x = nullptr;
  const T* one_y = nullptr;

  tap_rows(const source& x, const source& y, const std::uint16_t* stale_r, const std::uint16_t* stale_d, workspace& ws)
      : X(x), Y(y) {
    if (X.h != 1) return;
    auto& r = ws.one_row<T>(0);
    auto& d = ws.one_row<T>(1);
    r.assign(static_cast<std::size_t>(X.w) + slack, 0);
    d.assign(static_cast<std::size_t>(X.w) + slack, 0);
    for (int j = 0; j < X.w && stale_r; ++j) {
      r[static_cast<std::size_t>(j)] = static_cast<T>(stale_r[j]);
      d[static_cast<std::size_t>(j)] = static_cast<T>(stale_d[j]);
    }
    one_x = r.data();
    one_y = d.data();
  }
  [[nodiscard]] const T* x(int r) const noexcept { return row(X, one_x, r); }
  [[nodiscard]] const T* y(int r) const noexcept { return row(Y, one_y, r); }
  [[nodiscard]] int key(int r) const noexcept { return X.h >= 2 ? fold(r, X.h) : (r == 0 ? 0 : 1); }
  [[nodiscard]] const T* row(const source& S, const T* one, int r) const noexcept {
    if (X.h >= 2) return row_of<T>(S, fold(r, X.h));
    return r == 0 ? row_of<T>(S, 0) : one;
  }
};

// One scale's sums (§7, §8) on the ring of source rows and the lines of `Rows` (base_rows, or an instruction
// set's form of it). `stale` is row 1 of the previous scale's image (one-row rule), or null.
template <class Rows>
inline sums statistics(const source& X, const source& Y, int s, unsigned bpc, limits lim, bool two,
                                 const std::uint16_t* stale_r, const std::uint16_t* stale_d, workspace& ws) {
  const auto f = tables::vif_filter_of(s);
  const int H = f.half, w = X.w, h = X.h, n = 2 * H + 1;
  const vparams vp{f.taps, H, s == 0 ? static_cast<int>(bpc) : 16, s == 0 ? 2 * (static_cast<int>(bpc) - 8) : 16};
  // Output rows i, i + 2, …, i + 2(R − 1) share all but a few of their tap pairs (pairs of rows two apart):
  // where the rows type takes R > 1 rows at once, their vertical passes run together from one window of
  // n + 2(R − 1) source rows, rows i, i + 2, … then i + 1, i + 3, …; the ring holds that many rows.
  constexpr int R = Rows::batch;
  const int ring = n + 2 * (R - 1);
  Rows rows(ws, s, w, vp, ring);
  ws.cache_row.assign(static_cast<std::size_t>(ring), -1);
  const tap_rows<typename Rows::sample> src(X, Y, stale_r, stale_d, ws);
  sums acc;
  const auto window = [&](int first, int taps) {  // source rows first − H .. first − H + taps − 1
    for (int k = 0; k < taps; ++k) {
      const int r = first - H + k, key = src.key(r);
      const auto slot = static_cast<std::size_t>(key % ring);
      if (ws.cache_row[slot] != key) {
        rows.fill(slot, src.x(r), src.y(r));
        ws.cache_row[slot] = key;
      }
      rows.take(k, slot, src.x(r), src.y(r));
    }
  };
  // mirror the line (§4.1), or the stale values of the previous scale's last line (§4.3)
  const auto mirror = [&](int set) {
    for (int q = 0; q < 8; ++q) {
      auto* l = rows.line(q, set);
      for (int p = 1; p <= H; ++p) {
        if (w >= 2) {
          l[H - p] = l[H + fold(-p, w)];
          l[H + w - 1 + p] = l[H + fold(w - 1 + p, w)];
        } else {
          const std::uint32_t v =
              ws.has_carry ? ws.carry[static_cast<std::size_t>(q) * ws.carry.size() / 8 + static_cast<std::size_t>(ws.carry_half + p)] : 0;
          l[H - p] = Rows::from_carry(v);
          l[H + p] = l[H - p];
        }
      }
    }
  };
  int i = 0;
  // Scales 0..2 (scale 3's pairs are one row apart); the last row runs alone, so that line set 0 holds it
  // for the carry below.
  if constexpr (R > 1)
    if (s < 3 && w >= 2)
      for (; i + 2 * R - 1 < h - 1; i += 2 * R)
        for (int first = i; first < i + 2; ++first) {
          window(first, ring);
          rows.vertical_batch();
          for (int t = 0; t < R; ++t) {
            mirror(t);
            rows.horizontal(lim, two, acc, t);
          }
        }
  for (; i < h; ++i) {
    window(i, n);
    rows.vertical();
    mirror(0);
    rows.horizontal(lim, two, acc, 0);
  }
  // what this scale leaves for the next one: the padded lines of its last row
  const std::size_t used = static_cast<std::size_t>(w + 2 * H);
  ws.carry.resize(8 * used);
  for (int q = 0; q < 8; ++q)
    for (std::size_t k = 0; k < used; ++k)
      ws.carry[static_cast<std::size_t>(q) * used + k] = Rows::to_carry(rows.line(q, 0)[k]);
  ws.carry_half = H;
  ws.has_carry = true;
  return acc;
}

#if VQM_CPU_X86
template <isa L, class T, bool Split>
using rows_for = std::conditional_t<L >= isa::avx512, x86::avx512_rows<T, Split, L == isa::avx512vnni>,
                                    std::conditional_t<L == isa::avx2, x86::avx2_rows<T, Split>, base_rows<T, Split>>>;
#else
template <isa, class T, bool Split>
using rows_for = base_rows<T, Split>;
#endif

// The sums at q.gain_limit into out, and with `two` at limit b into out2 (which shares all but NL).
template <isa L>
inline void run(const plane_view& ref, const plane_view& dis, unsigned bpc, const vif_request& q, bool two, double b,
                vif_partials& out, vif_partials& out2) {
  thread_local workspace ws;
  ws.has_carry = false;
  out = {};
  if (two) out2 = {};
  const limits lim{q.gain_limit, b};
  auto keep = [&](int s, const sums& a) {
    out.scale[static_cast<std::size_t>(s)] = {a.nl, a.dl, a.nn, a.dn};
    if (two) out2.scale[static_cast<std::size_t>(s)] = {a.nl2, a.dl, a.nn, a.dn};
  };
  source X{ref.data, ref.stride, static_cast<int>(ref.width), static_cast<int>(ref.height), bpc <= 8};
  source Y{dis.data, dis.stride, X.w, X.h, X.bytes};
  for (int s = 0; s < 4; ++s) {
    if (s > 0) {
      auto& nr = ws.img_r[static_cast<std::size_t>(s)];
      auto& nd = ws.img_d[static_cast<std::size_t>(s)];
      if (X.bytes) {
        downsample<L, std::uint8_t>(X, s - 1, bpc, nr, ws);
        downsample<L, std::uint8_t>(Y, s - 1, bpc, nd, ws);
      } else {
        downsample<L, std::uint16_t>(X, s - 1, bpc, nr, ws);
        downsample<L, std::uint16_t>(Y, s - 1, bpc, nd, ws);
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
      keep(s, statistics<rows_for<L, std::uint16_t, true>>(X, Y, s, bpc, lim, two, stale ? ws.stale_r.data() : nullptr,
                                                              stale ? ws.stale_d.data() : nullptr, ws));
      continue;
    }
    if (X.w == 0 || X.h == 0) break;
    if (q.skip_scale0) continue;
    if (X.bytes) keep(0, statistics<rows_for<L, std::uint8_t, false>>(X, Y, 0, bpc, lim, two, nullptr, nullptr, ws));
    else keep(0, statistics<rows_for<L, std::uint16_t, true>>(X, Y, 0, bpc, lim, two, nullptr, nullptr, ws));
  }
}

}  // namespace vif_detail

// The exact VIF sums of every scale (SPEC-vmaf Part I §5); bit-identical to reference::vif on every input
// and every instruction-set path. Thread-safe; per-thread scratch is reused between calls.
// `two` adds the sums at a second gain limit b in the same pass (a run of VMAF and NEG): out2 gets exactly
// what vif() with gain_limit = b returns; only NL depends on the limit, so the filtering, DL, NN and DN are
// computed once.
VQM_CPU_KERNEL void vif_limits(const plane_view& ref, const plane_view& dis, unsigned bpc, const vif_request& q,
                               bool two, double b, vif_partials& out, vif_partials& out2)
#if VQM_CPU_KERNEL_BODIES
{
#if VQM_CPU_X86
  if (active_isa() >= isa::avx512vnni) return vif_detail::run<isa::avx512vnni>(ref, dis, bpc, q, two, b, out, out2);
  if (active_isa() >= isa::avx512) return vif_detail::run<isa::avx512>(ref, dis, bpc, q, two, b, out, out2);
  if (active_isa() >= isa::avx2) return vif_detail::run<isa::avx2>(ref, dis, bpc, q, two, b, out, out2);
#endif
  vif_detail::run<isa::baseline>(ref, dis, bpc, q, two, b, out, out2);
}
#else
;
#endif

[[nodiscard]] inline vif_partials vif(const plane_view& ref, const plane_view& dis, unsigned bpc, const vif_request& q) {
  vif_partials out, unused;
  vif_limits(ref, dis, bpc, q, false, q.gain_limit, out, unused);
  return out;
}

}  // namespace vqm::cpu
