// Cpu ADM kernel (cpu/adm.hpp), first stage: the kernel's types and scratch, and the DWT (SPEC-vmaf §4):
// separable passes the compiler vectorises; on the AVX2 path the scale-0 passes with pmaddwd (x86/adm.hpp),
// scales 1–3 with pmaddwd or exact doubles (x86/adm_dwt_avx2.hpp), included after the types they use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/detail/big_buffer.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/adm.hpp"

namespace vqm::cpu::adm_detail {

namespace T = vqm::tables::adm;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using vd4 = double __attribute__((vector_size(32)));
using vl4 = std::int64_t __attribute__((vector_size(32)));
using vu4 = std::uint64_t __attribute__((vector_size(32)));
using vi4 = std::int32_t __attribute__((vector_size(16)));
using vu4i = std::uint32_t __attribute__((vector_size(16)));
using vd8 = double __attribute__((vector_size(64)));  // the AVX-512 instance's lanes (lanes<8>)
using vl8 = std::int64_t __attribute__((vector_size(64)));
using vu8 = std::uint64_t __attribute__((vector_size(64)));
using vi8 = std::int32_t __attribute__((vector_size(32)));

// The vector types of an N-lane instance (N = 4: AVX2 and baseline; N = 8: AVX-512): doubles, int64, uint64,
// int32, float and int16 lanes.
template <int N>
struct lanes;
template <>
struct lanes<4> {
  using d = vd4;
  using l = vl4;
  using u = vu4;
  using i = vi4;
  using f = float __attribute__((vector_size(16)));
  using s = std::int16_t __attribute__((vector_size(8)));
};
template <>
struct lanes<8> {
  using d = vd8;
  using l = vl8;
  using u = vu8;
  using i = vi8;
  using f = float __attribute__((vector_size(32)));
  using s = std::int16_t __attribute__((vector_size(16)));
};

template <class T>
using buf = vqm::detail::big_vector<T>;  // whole-plane bands: huge pages (detail/big_buffer.hpp)

struct workspace {
  // scale 0: bands of ref (0..3 = a, h, v, d) and dis (4..7); scales >= 1: the same in int32.
  buf<i16> b16[8];
  buf<i32> b32[8];
  buf<i32> a32[2];                            // band a of the previous scale (scales 2, 3 input; swapped in)
  buf<i16> row16[2];                          // scale-0 vertical-pass rows (padded)
  buf<i32> row32[2];                          // scale >= 1 vertical-pass rows (padded)
  buf<i16> rst16[3], add16[3];                // scale 0 decoupled bands
  buf<i32> rst32[3], add32[3];                // scales 1..3
  buf<i16> rst16b[3], add16b[3];              // the same at a run's second gain limit (VMAF and NEG)
  buf<i32> rst32b[3], add32b[3];
  buf<i32> fsum[2], cen[2];                   // masker Σ_b F_b and Σ_b centre term: [0] DLM (from add), [1] AIM (from rst)
  buf<i32> vsum, thr;                         // threshold rows
  buf<i64> flags;                             // angle flags of one row (scales >= 1), all-ones / zero
};

template <class V>
VQM_CPU_INLINE void grow(V& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

// §4.2 source position of tap k for output i of an input of length n.
VQM_CPU_INLINE int src_pos(int i, int k, int n) noexcept {
  if (i == 0) {
    static constexpr int first[4] = {1, 0, 1, 2};
    return first[k];
  }
  const int p = 2 * i - 1 + k;
  return p >= n ? 2 * n - 1 - p : p;
}

// Pads a vertical-pass row stored at r[1..n] so that r[p + 1] is the value of source position p for
// p ∈ [−1, n + 1] (§4.2 remap): −1 → 1, n → n − 1, n + 1 → n − 2.
template <class X>
VQM_CPU_INLINE void pad_row(X* r, int n) noexcept {
  r[0] = r[2];
  r[n + 1] = r[n];
  r[n + 2] = r[n - 1];
}

}  // namespace vqm::cpu::adm_detail

#if VQM_CPU_X86
#include "vqm/cpu/x86/adm.hpp"
#include "vqm/cpu/x86/adm_avx512.hpp"
#include "vqm/cpu/x86/adm_dwt_avx2.hpp"
#endif

namespace vqm::cpu::adm_detail {

// ---- scale 0 DWT (§4.3) ----
template <bool Avx2, class Px>
VQM_CPU_INLINE void dwt0(const plane_view& p, unsigned bpc, bool lo_only, workspace& ws, i16* a, i16* h, i16* v,
                         i16* d) noexcept {
  const int W = static_cast<int>(p.width), H = static_cast<int>(p.height);
  const int m1 = (H + 1) / 2, w0 = (W + 1) / 2;
  const int S = static_cast<int>(bpc);
  const u32 R = u32{1} << (bpc - 1);
  const u32 off = R - static_cast<u32>(T::lo_sum) * R;  // − 46342·R + R, mod 2^32
  grow(ws.row16[0], static_cast<std::size_t>(W) + 3);
  grow(ws.row16[1], static_cast<std::size_t>(W) + 3);
  i16* tl = ws.row16[0].data();
  i16* th = ws.row16[1].data();
  for (int i = 0; i < m1; ++i) {
    const Px* r0 = p.row<Px>(static_cast<u32>(src_pos(i, 0, H)));
    const Px* r1 = p.row<Px>(static_cast<u32>(src_pos(i, 1, H)));
    const Px* r2 = p.row<Px>(static_cast<u32>(src_pos(i, 2, H)));
    const Px* r3 = p.row<Px>(static_cast<u32>(src_pos(i, 3, H)));
    int x0v = 0;
#if VQM_CPU_X86
    if constexpr (Avx2) {
      if constexpr (sizeof(Px) == 1) {  // 8-bit samples (> 8 bits may hold any 16-bit value: the u32 path)
        x0v = (W / 16) * 16;
        x86::vpass0_avx2(r0, r1, r2, r3, x0v, S, static_cast<i32>(off), static_cast<i32>(R), lo_only, tl + 1, th + 1);
      }
    }
#endif
    for (int x = x0v; x < W; ++x) {
      const u32 x0 = r0[x], x1 = r1[x], x2 = r2[x], x3 = r3[x];
      const u32 sl = 15826u * x0 + 27411u * x1 + 7345u * x2 - 4240u * x3 + off;
      tl[x + 1] = static_cast<i16>(static_cast<i32>(sl) >> S);
    }
    pad_row(tl, W);
    if (!lo_only) {
      for (int x = x0v; x < W; ++x) {
        const u32 x0 = r0[x], x1 = r1[x], x2 = r2[x], x3 = r3[x];
        const u32 sh = 27411u * x2 - 4240u * x0 - 7345u * x1 - 15826u * x3 + R;
        th[x + 1] = static_cast<i16>(static_cast<i32>(sh) >> S);
      }
      pad_row(th, W);
    }
    i16* ar = a + static_cast<std::ptrdiff_t>(i) * w0;
    i16* vr = v + static_cast<std::ptrdiff_t>(i) * w0;
    i16* hr = h + static_cast<std::ptrdiff_t>(i) * w0;
    i16* dr = d + static_cast<std::ptrdiff_t>(i) * w0;
    int j0 = 0;
#if VQM_CPU_X86
    if constexpr (Avx2) {
      // the row buffers hold W + 3 >= 2·w0 + 2 values: the vector part reads t[2j .. 2j + 33] for j + 16 <= w0
      j0 = (w0 / 16) * 16;
      if (lo_only) {
        thread_local std::vector<i16> scratch;
        grow(scratch, static_cast<std::size_t>(j0));
        x86::hpass0_avx2(tl, j0, ar, scratch.data());
      } else {
        x86::hpass0_avx2(tl, j0, ar, vr);
        x86::hpass0_avx2(th, j0, hr, dr);
      }
    }
#endif
    for (int j = j0; j < w0; ++j) {
      const i32 t0 = tl[2 * j], t1 = tl[2 * j + 1], t2 = tl[2 * j + 2], t3 = tl[2 * j + 3];
      ar[j] = static_cast<i16>((15826 * t0 + 27411 * t1 + 7345 * t2 - 4240 * t3 + 32768) >> 16);
    }
    if (lo_only) continue;
    for (int j = j0; j < w0; ++j) {
      const i32 t0 = tl[2 * j], t1 = tl[2 * j + 1], t2 = tl[2 * j + 2], t3 = tl[2 * j + 3];
      vr[j] = static_cast<i16>((-4240 * t0 - 7345 * t1 + 27411 * t2 - 15826 * t3 + 32768) >> 16);
    }
    for (int j = j0; j < w0; ++j) {
      const i32 t0 = th[2 * j], t1 = th[2 * j + 1], t2 = th[2 * j + 2], t3 = th[2 * j + 3];
      hr[j] = static_cast<i16>((15826 * t0 + 27411 * t1 + 7345 * t2 - 4240 * t3 + 32768) >> 16);
      dr[j] = static_cast<i16>((-4240 * t0 - 7345 * t1 + 27411 * t2 - 15826 * t3 + 32768) >> 16);
    }
  }
}

// ---- scales 1..3 DWT (§4.4) on a plane of W × H: int16 (scale 1, band a of scale 0) or int32 ----
template <bool Avx2, class X>
VQM_CPU_INLINE void dwt_s(const X* A, int W, int H, int s, workspace& ws, i32* a, i32* h, i32* v, i32* d) noexcept {
  const int mh = (H + 1) / 2, mw = (W + 1) / 2;
  const i64 vr = T::v_round[static_cast<std::size_t>(s - 1)], hr = T::h_round[static_cast<std::size_t>(s - 1)];
  const int vs = T::v_shift[static_cast<std::size_t>(s - 1)], hs = T::h_shift[static_cast<std::size_t>(s - 1)];
  static_assert(sizeof(X) == 4 || (T::v_round[0] == 0 && T::v_shift[0] == 0));  // int16 input: scale 1, no shift
  const auto lo = [](i64 x0, i64 x1, i64 x2, i64 x3, i64 r, int sh) {
    return static_cast<i32>(static_cast<u32>((15826 * x0 + 27411 * x1 + 7345 * x2 - 4240 * x3 + r) >> sh));
  };
  const auto hi = [](i64 x0, i64 x1, i64 x2, i64 x3, i64 r, int sh) {
    return static_cast<i32>(static_cast<u32>((-4240 * x0 - 7345 * x1 + 27411 * x2 - 15826 * x3 + r) >> sh));
  };
  grow(ws.row32[0], static_cast<std::size_t>(W) + 4);
  grow(ws.row32[1], static_cast<std::size_t>(W) + 4);
  i32* tl = ws.row32[0].data();
  i32* th = ws.row32[1].data();
  for (int i = 0; i < mh; ++i) {
    const X* r[4];
    for (int k = 0; k < 4; ++k) r[k] = A + static_cast<std::ptrdiff_t>(src_pos(i, k, H)) * W;
    int x = 0;
#if VQM_CPU_X86
    if constexpr (Avx2)
      x = x86::dwt_s_vertical_avx2(r, W, static_cast<double>(vr), 1.0 / static_cast<double>(i64{1} << vs), tl + 1, th + 1);
#endif
    for (; x < W; ++x) {
      const i64 x0 = r[0][x], x1 = r[1][x], x2 = r[2][x], x3 = r[3][x];
      tl[x + 1] = lo(x0, x1, x2, x3, vr, vs);
      th[x + 1] = hi(x0, x1, x2, x3, vr, vs);
    }
    pad_row(tl, W);
    pad_row(th, W);
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * mw;
    for (int pass = 0; pass < 2; ++pass) {
      const i32* t = pass == 0 ? tl : th;
      i32* out_lo = (pass == 0 ? a : h) + o;
      i32* out_hi = (pass == 0 ? v : d) + o;
      int j = 0;
#if VQM_CPU_X86
      if constexpr (Avx2)
        j = x86::dwt_s_horizontal_avx2(t, mw, static_cast<double>(hr), 1.0 / static_cast<double>(i64{1} << hs), out_lo,
                                       out_hi);
#endif
      for (; j < mw; ++j) {
        const i64 t0 = t[2 * j], t1 = t[2 * j + 1], t2 = t[2 * j + 2], t3 = t[2 * j + 3];
        out_lo[j] = lo(t0, t1, t2, t3, hr, hs);
        out_hi[j] = hi(t0, t1, t2, t3, hr, hs);
      }
    }
  }
}

}  // namespace vqm::cpu::adm_detail
