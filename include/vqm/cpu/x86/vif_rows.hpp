// x86 part of the Cpu VIF kernel's driver: i16_rows, the int16 (v − 32768) form of base_rows
// (cpu/vif_blocks.hpp) on one instruction set's building blocks, and those of AVX2 (x86/vif.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "vqm/cpu/vif_blocks.hpp"
#include "vqm/cpu/x86/vif.hpp"

namespace vqm::cpu::vif_detail::x86 {

// The AVX2 building blocks of one scale, for i16_rows.
struct avx2_kernels {
  static constexpr int lanes = 16;  // int16 columns per step
  static constexpr int batch = 4;  // output rows i, i + 2, i + 4, i + 6 in one vertical pass (2: slower)
  template <class T, bool Split>
  static void squares(const T* x, const T* y, int n, std::int16_t* out, std::size_t cs) noexcept {
    squares16_avx2<T, Split>(x, y, n, out, cs);
  }
  template <int S, bool Split>
  static void vertical(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                       std::int16_t* const* L) noexcept {
    std::int16_t* const* const Ls[1] = {L};
    vertical16_avx2<S, Split, 1>(rows, cs, p, w, Ls);
  }
  template <int S, bool Split>
  static void vertical_batch(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                             std::int16_t* const* L) noexcept {
    std::int16_t* const* Ls[batch];
    for (int t = 0; t < batch; ++t) Ls[t] = L + 8 * t;
    vertical16_avx2<S, Split, batch>(rows, cs, p, w, Ls);
  }
  template <int S, bool Two>
  static void horizontal(const std::int16_t* const* L, int w, limits lim, sums& out) noexcept {
    horizontal16_avx2<S, Two>(L, w, lim, out);
  }
};

// i16_rows: base_rows (cpu/vif_blocks.hpp) in int16 (v − 32768), K::lanes columns at a time, on the
// building blocks of one instruction set K (avx2_kernels, avx512_kernels). With K::batch = R > 1, R sets of
// lines: vertical_batch() fills set t for output row i + 2t from a window of n + 2(R − 1) rows.
template <class K, class T, bool Split>
struct i16_rows {
  using sample = T;
  static constexpr int nq = Split ? 8 : 5;
  static constexpr int batch = K::batch;
  workspace& ws;
  int s, w, n;  // n: the filter's taps
  vparams vp;
  std::size_t cs;
  std::array<std::int16_t*, 8 * batch> L{};  // line q of set t at L[8t + q]
  std::array<const std::int16_t*, 18 + 2 * (batch - 1)> rows{};

  i16_rows(workspace& ws_, int s_, int w_, const vparams& vp_, int ring)
      : ws(ws_), s(s_), w(w_), n(2 * vp_.H + 1), vp(vp_),
        cs(static_cast<std::size_t>(((w + K::lanes - 1) / K::lanes) * K::lanes + slack)) {
    const std::size_t ls = cs + static_cast<std::size_t>(2 * vp.H + slack);
    ws.lines16.assign(8 * batch * ls, 0);
    ws.cache16.assign(static_cast<std::size_t>(ring) * nq * cs, 0);
    for (std::size_t q = 0; q < L.size(); ++q) L[q] = ws.lines16.data() + q * ls;
  }
  [[nodiscard]] std::int16_t* line(int q, int set) const noexcept { return L[static_cast<std::size_t>(8 * set + q)]; }
  [[nodiscard]] std::int16_t* slot(std::size_t k) const noexcept { return ws.cache16.data() + k * nq * cs; }
  void fill(std::size_t k, const T* x, const T* y) noexcept { K::template squares<T, Split>(x, y, w, slot(k), cs); }
  void take(int k, std::size_t at, const T*, const T*) noexcept { rows[static_cast<std::size_t>(k)] = slot(at); }
  void vertical() noexcept {
    rows[static_cast<std::size_t>(n)] = rows[static_cast<std::size_t>(n - 1)];  // the zero-tap partner
    switch (s) {
      case 0: K::template vertical<0, Split>(rows.data(), cs, vp, w, L.data()); break;
      case 1: K::template vertical<1, Split>(rows.data(), cs, vp, w, L.data()); break;
      case 2: K::template vertical<2, Split>(rows.data(), cs, vp, w, L.data()); break;
      default: K::template vertical<3, Split>(rows.data(), cs, vp, w, L.data()); break;
    }
  }
  // rows i + 2t (set t) from rows[0 .. n + 2(batch − 1) − 1], the window of all; scales 0..2 only (their tap
  // pairs are two rows apart, so row i + 2's pair p is row i's pair p + 1).
  void vertical_batch() noexcept {
    const auto last = static_cast<std::size_t>(n + 2 * (batch - 1));
    rows[last] = rows[last - 1];  // the zero-tap partner
    switch (s) {
      case 0: K::template vertical_batch<0, Split>(rows.data(), cs, vp, w, L.data()); break;
      case 1: K::template vertical_batch<1, Split>(rows.data(), cs, vp, w, L.data()); break;
      default: K::template vertical_batch<2, Split>(rows.data(), cs, vp, w, L.data()); break;
    }
  }
  void horizontal(limits lim, bool two, sums& acc, int set) noexcept {
    if (two) horizontal_at<true>(lim, acc, L.data() + 8 * set);
    else horizontal_at<false>(lim, acc, L.data() + 8 * set);
  }
  template <bool Two>
  void horizontal_at(limits lim, sums& acc, std::int16_t* const* Ls) noexcept {
    switch (s) {
      case 0: K::template horizontal<0, Two>(Ls, w, lim, acc); break;
      case 1: K::template horizontal<1, Two>(Ls, w, lim, acc); break;
      case 2: K::template horizontal<2, Two>(Ls, w, lim, acc); break;
      default: K::template horizontal<3, Two>(Ls, w, lim, acc); break;
    }
  }
  static std::int16_t from_carry(std::uint32_t v) noexcept {
    return static_cast<std::int16_t>(static_cast<int>(v) - 32768);
  }
  static std::uint32_t to_carry(std::int16_t v) noexcept { return static_cast<std::uint32_t>(v + 32768); }
};
template <class T, bool Split>
using avx2_rows = i16_rows<avx2_kernels, T, Split>;

}  // namespace vqm::cpu::vif_detail::x86
