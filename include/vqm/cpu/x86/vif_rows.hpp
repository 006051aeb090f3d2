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
  template <class T, bool Split>
  static void squares(const T* x, const T* y, int n, std::int16_t* out, std::size_t cs) noexcept {
    squares16_avx2<T, Split>(x, y, n, out, cs);
  }
  template <int S, bool Split>
  static void vertical(const std::int16_t* const* rows, std::size_t cs, const vparams& p, int w,
                       std::int16_t* const* L) noexcept {
    vertical16_avx2<S, Split>(rows, cs, p, w, L);
  }
  template <int S, bool Two>
  static void horizontal(const std::int16_t* const* L, int w, limits lim, sums& out) noexcept {
    horizontal16_avx2<S, Two>(L, w, lim, out);
  }
};

// i16_rows: base_rows (cpu/vif_blocks.hpp) in int16 (v − 32768), K::lanes columns at a time, on the
// building blocks of one instruction set K (avx2_kernels, avx512_kernels).
template <class K, class T, bool Split>
struct i16_rows {
  using sample = T;
  static constexpr int nq = Split ? 8 : 5;
  workspace& ws;
  int s, w, n;
  vparams vp;
  std::size_t cs;
  std::array<std::int16_t*, 8> L{};
  std::array<const std::int16_t*, 18> rows{};

  i16_rows(workspace& ws_, int s_, int w_, const vparams& vp_, int n_)
      : ws(ws_), s(s_), w(w_), n(n_), vp(vp_),
        cs(static_cast<std::size_t>(((w + K::lanes - 1) / K::lanes) * K::lanes + slack)) {
    const std::size_t ls = cs + static_cast<std::size_t>(2 * vp.H + slack);
    ws.lines16.assign(8 * ls, 0);
    ws.cache16.assign(static_cast<std::size_t>(n) * nq * cs, 0);
    for (std::size_t q = 0; q < 8; ++q) L[q] = ws.lines16.data() + q * ls;
  }
  [[nodiscard]] std::int16_t* line(int q) const noexcept { return L[static_cast<std::size_t>(q)]; }
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
  void horizontal(limits lim, bool two, sums& acc) noexcept {
    if (two) horizontal_at<true>(lim, acc);
    else horizontal_at<false>(lim, acc);
  }
  template <bool Two>
  void horizontal_at(limits lim, sums& acc) noexcept {
    switch (s) {
      case 0: K::template horizontal<0, Two>(L.data(), w, lim, acc); break;
      case 1: K::template horizontal<1, Two>(L.data(), w, lim, acc); break;
      case 2: K::template horizontal<2, Two>(L.data(), w, lim, acc); break;
      default: K::template horizontal<3, Two>(L.data(), w, lim, acc); break;
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
