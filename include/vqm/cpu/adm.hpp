// Cpu kernel: libvmaf's integer ADM accumulators (SPEC-vmaf Part II), bit-identical to
// cpu/reference/adm.hpp. Narrow storage (int16 at scale 0, int32 above); separable DWT passes and the
// separable 3×3 threshold as branch-free loops the compiler vectorises; scale-0 decoupling in 4 double lanes
// (exact: every product there is below 2^47, see decouple0). On the AVX2 path (x86/adm.hpp): the scale-0
// decoupling with intrinsics, the maskings in 8 int32 lanes and their even/odd int64 halves, the scales 1–3
// decoupling/CSF and denominators in 4 int64 lanes (vpmuludq/vpmuldq), the DWTs with pmaddwd or exact doubles
// (x86/adm_dwt_avx2.hpp); the AVX-512 path (N = 8 lanes) adds the scale-0 decoupling and the angle tests in 8
// lanes (x86/adm_avx512.hpp). The body is compiled
// three times (AVX-512, AVX2, baseline) and picked at run time (cpu::active_isa()). With two gain limits the
// limit-free work (DWT, angle flags, decoupling up to the clamp, denominator) runs once. Thread-safe; the
// scratch is thread_local and only grows (no per-frame allocation once warm).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/cpu/adm_decouple.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/adm.hpp"

namespace vqm::cpu {

namespace adm_detail {

// ---- region bookkeeping ----
struct span {
  int r0, r1, c0, c1;  // extended rows [r0, r1), columns [c0, c1): the inner region grown by one, clipped
};
VQM_CPU_INLINE span extended(const T::region& g, int w, int h) noexcept {
  return {std::max(g.top - 1, 0), std::min(g.bottom + 1, h), std::max(g.left - 1, 0), std::min(g.right + 1, w)};
}

// ---- threshold rows (§9.1) ----
// thr(i, j) for j in [L, R) of row i: Σ_b cen_b(i,j) + Σ_{3×3 ≠ centre} Σ_b F_b, mod 2^32.
VQM_CPU_INLINE void threshold_row(const i32* fs, const i32* cen, int w, int h, int i, const T::region& g, i32* vsum,
                                  i32* thr) noexcept {
  const int up = i == 0 ? 1 : i - 1, dn = i == h - 1 ? h - 1 : i + 1;
  const i32* a = fs + static_cast<std::ptrdiff_t>(up) * w;
  const i32* b = fs + static_cast<std::ptrdiff_t>(i) * w;
  const i32* c = fs + static_cast<std::ptrdiff_t>(dn) * w;
  const int c0 = std::max(g.left - 1, 0), c1 = std::min(g.right + 1, w);
  // vsum[j + 1] = column sum at j, for j in [c0, c1)
  for (int j = c0; j < c1; ++j)
    vsum[j + 1] = static_cast<i32>(static_cast<u32>(a[j]) + static_cast<u32>(b[j]) + static_cast<u32>(c[j]));
  if (g.left == 0) vsum[0] = vsum[2];             // column −1 → 1
  if (g.right == w) vsum[w + 1] = vsum[w];        // column w → w − 1
  const i32* ce = cen + static_cast<std::ptrdiff_t>(i) * w;
  for (int j = g.left; j < g.right; ++j)
    thr[j] = static_cast<i32>(static_cast<u32>(ce[j]) + static_cast<u32>(vsum[j]) + static_cast<u32>(vsum[j + 1]) +
                              static_cast<u32>(vsum[j + 2]) - static_cast<u32>(b[j]));
}

// Σ over [L, R) of the scale-0 masked value (§9.2) of band values y (int16) with threshold thr.
template <bool Avx2, int N>
VQM_CPU_INLINE i64 masked_row0(const i16* y, const i32* thr, int L, int R, u32 irf, int sub, int sq, i64 rsq,
                               int cb) noexcept {
  using V = typename lanes<N>::l;
  using U = typename lanes<N>::u;
  const i64 rnd = i64{1} << (cb - 1);
  int j = L;
  i64 sum = 0;
#if VQM_CPU_X86
  if constexpr (Avx2) j = x86::masked_row0_avx2(y, thr, L, R, irf, sub, sq, rsq, cb, sum);
#endif
  V acc{};
  for (; Avx2 && j + N <= R; j += N) {
    typename lanes<N>::s ys;
    typename lanes<N>::i ts;
    std::memcpy(&ys, y + j, sizeof ys);
    std::memcpy(&ts, thr + j, sizeof ts);
    const V xs = wrap32v(mul32<Avx2>(__builtin_convertvector(ys, V), V{} + irf));  // |y·irf| < 2^31 + 2^16: exact
    const V th = wrap32v(__builtin_convertvector(ts, V) << sub);
    V x = wrap32v(absl(xs) - th);
    x = vsel(x < 0, V{}, x);
    const V x2 = wrap32v(reinterpret_cast<V>(
        (mul32<Avx2>(reinterpret_cast<U>(x), reinterpret_cast<U>(x)) + static_cast<u64>(rsq)) >> sq));
    acc += asr(mul32<Avx2>(x2, x) + rnd, U{} + static_cast<u64>(cb));
  }
  sum += hsum(acc);
  for (; j < R; ++j) {
    const u32 xu = static_cast<u32>(static_cast<i32>(y[j])) * irf;
    const i32 xs = static_cast<i32>(xu);
    const u32 ax = xs < 0 ? 0u - xu : xu;
    i32 x = static_cast<i32>(ax - (static_cast<u32>(thr[j]) << sub));
    x = x < 0 ? 0 : x;
    const i64 x2 = static_cast<i32>(static_cast<u32>((static_cast<u64>(static_cast<u32>(x)) * static_cast<u32>(x) + static_cast<u64>(rsq)) >> sq));
    sum += (x2 * x + rnd) >> cb;
  }
  return sum;
}

// Same for scales 1..3 (§9.3) with int32 band values.
template <bool Avx2>
VQM_CPU_INLINE i64 masked_row_s(const i32* y, const i32* thr, int L, int R, u32 irf, int cs) noexcept {
  i64 sum = 0;
  const i64 rnd = i64{1} << (cs - 1);
  int j = L;
#if VQM_CPU_X86
  if constexpr (Avx2) j = x86::masked_row_s_avx2(y, thr, L, R, irf, cs, sum);
#endif
  vl4 acc = splatl(0);
  for (; Avx2 && j + 4 <= R; j += 4) {
    const vl4 xs = csf_c<Avx2>(load4(y + j), irf);
    const vl4 ax = absl(xs);  // <= 2^31
    vl4 x = wrap32v(ax - load4(thr + j));
    x = vsel(x < 0, splatl(0), x);
    const vl4 x2 = wrap32v(reinterpret_cast<vl4>((mul32<Avx2>(reinterpret_cast<vu4>(x), reinterpret_cast<vu4>(x)) + (u64{1} << 29)) >> 30));
    acc += asr(mul32<Avx2>(x2, x) + rnd, splatu(static_cast<u64>(cs)));
  }
  sum += acc[0] + acc[1] + acc[2] + acc[3];
  for (; j < R; ++j) {
    const i32 xs = static_cast<i32>(static_cast<u32>((static_cast<i64>(y[j]) * static_cast<i64>(irf) + (i64{1} << 27)) >> 28));
    const u32 ax = xs < 0 ? 0u - static_cast<u32>(xs) : static_cast<u32>(xs);
    i32 x = static_cast<i32>(ax - static_cast<u32>(thr[j]));
    x = x < 0 ? 0 : x;
    const i64 x2 = static_cast<i32>(static_cast<u32>((static_cast<u64>(static_cast<u32>(x)) * static_cast<u32>(x) + (u64{1} << 29)) >> 30));
    sum += (x2 * x + rnd) >> cs;
  }
  return sum;
}

// A scoring pass's part in a run (adm_limits): one gain limit (single); the first of two, which also decouples
// at the second limit (into the *b buffers) and computes the denominator they share; the second of two.
enum class role { single, first, second };

// ---- scale 0 scoring ----
template <bool Avx2, int N>
VQM_CPU_INLINE void score0(workspace& ws, int w, int h, const adm_request& q, role ro, double egl2,
                           adm_partials& out) noexcept {
  const auto g = T::inner_region(w, h);
  const auto e = extended(g, w, h);
  const std::size_t n = static_cast<std::size_t>(w) * h;
  for (int b = 0; b < 3; ++b) grow(ws.rst16[b], n), grow(ws.add16[b], n);
  if (ro != role::single)
    for (int b = 0; b < 3; ++b) grow(ws.rst16b[b], n), grow(ws.add16b[b], n);
  const auto& rst = ro == role::second ? ws.rst16b : ws.rst16;
  const auto& add = ro == role::second ? ws.add16b : ws.add16;
  for (int m = 0; m < 2; ++m) grow(ws.fsum[m], n), grow(ws.cen[m], n);
  const i16* ob[3] = {ws.b16[1].data(), ws.b16[2].data(), ws.b16[3].data()};
  const i16* tb[3] = {ws.b16[5].data(), ws.b16[6].data(), ws.b16[7].data()};
  const double egl = q.enhn_gain_limit;
  const u32 irf[3] = {q.irf0[0], q.irf0[1], q.irf0[2]};

  // decouple + CSF over the extended region
  for (int i = e.r0; i < e.r1; ++i) {
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * w;
    const i16* const orow[3] = {ob[0] + o, ob[1] + o, ob[2] + o};
    const i16* const trow[3] = {tb[0] + o, tb[1] + o, tb[2] + o};
    i16* const rrow[3] = {ws.rst16[0].data() + o, ws.rst16[1].data() + o, ws.rst16[2].data() + o};
    i16* const arow[3] = {ws.add16[0].data() + o, ws.add16[1].data() + o, ws.add16[2].data() + o};
    if (ro == role::single) {
      decouple0_row<Avx2, N, false>(orow, trow, rrow, arow, nullptr, nullptr, e.c0, e.c1, egl, egl);
    } else if (ro == role::first) {
      i16* const rrow2[3] = {ws.rst16b[0].data() + o, ws.rst16b[1].data() + o, ws.rst16b[2].data() + o};
      i16* const arow2[3] = {ws.add16b[0].data() + o, ws.add16b[1].data() + o, ws.add16b[2].data() + o};
      decouple0_row<Avx2, N, true>(orow, trow, rrow, arow, rrow2, arow2, e.c0, e.c1, egl, egl2);
    }
    // CSF (§8) and the masker sums for DLM (from add, m = 0) and AIM (from rst, m = 1)
    for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
      const i16* x0 = (m == 0 ? add : rst)[0].data() + o;
      const i16* x1 = (m == 0 ? add : rst)[1].data() + o;
      const i16* x2 = (m == 0 ? add : rst)[2].data() + o;
      i32* fs = ws.fsum[m].data() + o;
      i32* ce = ws.cen[m].data() + o;
      for (int j = e.c0; j < e.c1; ++j) {
        const i32 c0 = static_cast<i16>(static_cast<i32>(static_cast<u32>(x0[j]) * irf[0] + 16384u) >> 15);
        const i32 c1 = static_cast<i16>(static_cast<i32>(static_cast<u32>(x1[j]) * irf[1] + 16384u) >> 15);
        const i32 c2 = static_cast<i16>(static_cast<i32>(static_cast<u32>(x2[j]) * irf[2] + 65535u) >> 17);
        const i32 a0 = c0 < 0 ? -c0 : c0, a1 = c1 < 0 ? -c1 : c1, a2 = c2 < 0 ? -c2 : c2;
        fs[j] = static_cast<i16>((4369 * a0 + 2048) >> 12) + static_cast<i16>((4369 * a1 + 2048) >> 12) +
                static_cast<i16>((4369 * a2 + 2048) >> 12);
        ce[j] = static_cast<i16>((8738 * a0 + 2048) >> 12) + static_cast<i16>((8738 * a1 + 2048) >> 12) +
                static_cast<i16>((8738 * a2 + 2048) >> 12);
      }
    }
  }

  // denominator (§10, scale 0; reference bands only: the second pass of two copies the first's)
  if (ro != role::second) {
    const int z = std::max(0, T::bit_length(static_cast<u64>(g.area() - 1)) - 20);
    const u64 rnd = z > 0 ? u64{1} << (z - 1) : 0;
    for (int b = 0; b < 3; ++b) {
      u64 total = 0;
      for (int i = g.top; i < g.bottom; ++i) {
        const i16* r = ob[b] + static_cast<std::ptrdiff_t>(i) * w;
        int j = g.left;
        typename lanes<N>::u rv{};
        for (; Avx2 && j + N <= g.right; j += N) {
          const auto a = reinterpret_cast<typename lanes<N>::u>(absl(__builtin_convertvector(loadi<N>(r + j), typename lanes<N>::l)));  // <= 32768
          rv += mul32<Avx2>(mul32<Avx2>(a, a), a);
        }
        u64 row = hsum(rv);
        for (; j < g.right; ++j) {
          const u32 a = static_cast<std::uint16_t>(r[j] < 0 ? -r[j] : r[j]);
          row += static_cast<u64>(a * a) * a;
        }
        total += (row + rnd) >> z;
      }
      out.den[0][b] = total;
    }
  }

  // masking (§9.1, §9.2, §9.4)
  grow(ws.vsum, static_cast<std::size_t>(w) + 2);
  grow(ws.thr, static_cast<std::size_t>(w));
  const int r = T::ceil_log2(static_cast<u64>(h));
  const i64 rr = i64{1} << (r - 1);
  const int cbhv = T::bit_length(static_cast<u64>(w - 1)) - 4, cbd = T::bit_length(static_cast<u64>(w - 1)) - 3;
  for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
    i64 acc[3] = {0, 0, 0};
    const auto& ys = m == 0 ? rst : add;
    for (int i = g.top; i < g.bottom; ++i) {
      threshold_row(ws.fsum[m].data(), ws.cen[m].data(), w, h, i, g, ws.vsum.data(), ws.thr.data());
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * w;
      acc[0] += (masked_row0<Avx2, N>(ys[0].data() + o, ws.thr.data(), g.left, g.right, irf[0], 10, 29, i64{1} << 28, cbhv) + rr) >> r;
      acc[1] += (masked_row0<Avx2, N>(ys[1].data() + o, ws.thr.data(), g.left, g.right, irf[1], 10, 29, i64{1} << 28, cbhv) + rr) >> r;
      acc[2] += (masked_row0<Avx2, N>(ys[2].data() + o, ws.thr.data(), g.left, g.right, irf[2], 12, 30, i64{1} << 29, cbd) + rr) >> r;
    }
    auto& dst = m == 0 ? out.dlm[0] : out.aim[0];
    for (int b = 0; b < 3; ++b) dst[b] = acc[b];
  }
}

// ---- scales 1..3 scoring ----
template <bool Avx2, int N>
VQM_CPU_INLINE void score_s(workspace& ws, int s, int w, int h, const adm_request& q, role ro, double egl2,
                            adm_partials& out) noexcept {
  const auto g = T::inner_region(w, h);
  const auto e = extended(g, w, h);
  const std::size_t n = static_cast<std::size_t>(w) * h;
  for (int b = 0; b < 3; ++b) grow(ws.rst32[b], n), grow(ws.add32[b], n);
  if (ro != role::single)
    for (int b = 0; b < 3; ++b) grow(ws.rst32b[b], n), grow(ws.add32b[b], n);
  const auto& rst = ro == role::second ? ws.rst32b : ws.rst32;
  const auto& add = ro == role::second ? ws.add32b : ws.add32;
  for (int m = 0; m < 2; ++m) grow(ws.fsum[m], n), grow(ws.cen[m], n);
  const i32* ob[3] = {ws.b32[1].data(), ws.b32[2].data(), ws.b32[3].data()};
  const i32* tb[3] = {ws.b32[5].data(), ws.b32[6].data(), ws.b32[7].data()};
  const double egl = q.enhn_gain_limit;
  const u32* irf = q.irf[s - 1];

  grow(ws.flags, static_cast<std::size_t>(w));
  i64* flags = ws.flags.data();
  for (int i = e.r0; i < e.r1; ++i) {
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * w;
    const i32* const orow[3] = {ob[0] + o, ob[1] + o, ob[2] + o};
    const i32* const trow[3] = {tb[0] + o, tb[1] + o, tb[2] + o};
    // decoupling at gain limit el into rr/ar with this row's angle flags
    const auto decouple_to = [&](buf<i32>* rr, buf<i32>* ar, double el) {
      int j = e.c0;
      for (; Avx2 && j + 4 <= e.c1; j += 4) {
        const vl4 fl = vl4{flags[j], flags[j + 1], flags[j + 2], flags[j + 3]};
        for (int b = 0; b < 3; ++b) {
          const vl4 t = load4(trow[b] + j);
          const vi4 r = decouple_s_v<Avx2>(load4(orow[b] + j), t, fl, el);
          const vi4 a = reinterpret_cast<vi4>(reinterpret_cast<vu4i>(narrow32(t)) - reinterpret_cast<vu4i>(r));
          std::memcpy(rr[b].data() + o + j, &r, sizeof r);
          std::memcpy(ar[b].data() + o + j, &a, sizeof a);
        }
      }
      for (; j < e.c1; ++j)
        for (int b = 0; b < 3; ++b) {
          const i32 t = trow[b][j];
          const i32 r = decouple_s(orow[b][j], t, flags[j] != 0, el);
          rr[b].data()[o + j] = r;
          ar[b].data()[o + j] = static_cast<i32>(static_cast<u32>(t) - static_cast<u32>(r));
        }
    };
    if (ro != role::second) {
      int jf = e.c0;
#if VQM_CPU_X86
      if constexpr (N == 8) jf = x86::angle_flags_avx512(orow[0], orow[1], trow[0], trow[1], e.c0, e.c1, flags);
#endif
      for (int j = jf; j < e.c1; ++j)
        flags[j] = angle_flag_i(orow[0][j], orow[1][j], trow[0][j], trow[1][j]) ? -1 : 0;
      decouple_to(ws.rst32, ws.add32, egl);
      if (ro == role::first) decouple_to(ws.rst32b, ws.add32b, egl2);
    }
    for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
      const auto& xs = m == 0 ? add : rst;
      i32* fs = ws.fsum[m].data() + o;
      i32* ce = ws.cen[m].data() + o;
      int jj = e.c0;
      for (; Avx2 && jj + 4 <= e.c1; jj += 4) {
        vl4 f = splatl(0), c = splatl(0);
        for (int b = 0; b < 3; ++b) {
          const vl4 ac = absl(csf_c<Avx2>(load4(xs[b].data() + o + jj), irf[b]));
          f += filt<Avx2>(ac, T::f30_s);
          c += filt<Avx2>(ac, T::f15_s);
        }
        const vi4 fi = narrow32(f), ci = narrow32(c);
        std::memcpy(fs + jj, &fi, sizeof fi);
        std::memcpy(ce + jj, &ci, sizeof ci);
      }
      for (; jj < e.c1; ++jj) {
        u32 f = 0, c = 0;
        for (int b = 0; b < 3; ++b) {
          const i64 cv = static_cast<i32>(static_cast<u32>((static_cast<i64>(xs[b][static_cast<std::size_t>(o + jj)]) * static_cast<i64>(irf[b]) + (i64{1} << 27)) >> 28));
          const i64 ac = cv < 0 ? -cv : cv;
          f += static_cast<u32>((T::f30_s * ac + T::quirk_round) >> 32);
          c += static_cast<u32>((T::f15_s * ac + T::quirk_round) >> 32);
        }
        fs[jj] = static_cast<i32>(f);
        ce[jj] = static_cast<i32>(c);
      }
    }
  }

  // denominator (§10, scales 1..3; as at scale 0)
  if (ro != role::second) {
    const int qs = s == 2 ? 30 : 31;
    const int c = T::ceil_log2(static_cast<u64>(g.right - g.left));
    const int z = T::ceil_log2(static_cast<u64>(g.bottom - g.top));
    for (int b = 0; b < 3; ++b) {
      u64 total = 0;
      for (int i = g.top; i < g.bottom; ++i) {
        const i32* r = ob[b] + static_cast<std::ptrdiff_t>(i) * w;
        int j = g.left;
        typename lanes<N>::u rv{};
        for (; Avx2 && j + N <= g.right; j += N) {
          typename lanes<N>::i v;
          std::memcpy(&v, r + j, sizeof v);
          const auto a = reinterpret_cast<typename lanes<N>::u>(absl(__builtin_convertvector(v, typename lanes<N>::l)));
          // a <= 2^31: a·a < 2^63 by mul32; the second product in full 64 bits as the scalar code
          rv += ((((mul32<Avx2>(a, a)) + (u64{1} << qs)) >> qs) * a + (u64{1} << (c - 1))) >> c;
        }
        u64 row = hsum(rv);
        for (; j < g.right; ++j) {
          const u64 a = r[j] < 0 ? u64{0} - static_cast<u64>(static_cast<i64>(r[j])) : static_cast<u64>(r[j]);
          row += ((((a * a) + (u64{1} << qs)) >> qs) * a + (u64{1} << (c - 1))) >> c;
        }
        total += (row + (u64{1} << (z - 1))) >> z;
      }
      out.den[s][b] = total;
    }
  }

  grow(ws.vsum, static_cast<std::size_t>(w) + 2);
  grow(ws.thr, static_cast<std::size_t>(w));
  const int r = T::ceil_log2(static_cast<u64>(h));
  const i64 rr = i64{1} << (r - 1);
  const int cs = T::ceil_log2(static_cast<u64>(w));
  for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
    i64 acc[3] = {0, 0, 0};
    const auto& ys = m == 0 ? rst : add;
    for (int i = g.top; i < g.bottom; ++i) {
      threshold_row(ws.fsum[m].data(), ws.cen[m].data(), w, h, i, g, ws.vsum.data(), ws.thr.data());
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * w;
      for (int b = 0; b < 3; ++b)
        acc[b] += (masked_row_s<Avx2>(ys[b].data() + o, ws.thr.data(), g.left, g.right, irf[b], cs) + rr) >> r;
    }
    auto& dst = m == 0 ? out.dlm[s] : out.aim[s];
    for (int b = 0; b < 3; ++b) dst[b] = acc[b];
  }
}

// The accumulators of q into out, and with `two` those of q at gain limit b into out2: the DWT is shared, the
// scoring (decoupling onwards depends on the limit) runs once per limit.
template <bool Avx2, int N>
VQM_CPU_INLINE void run(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q, bool two,
                        double b, adm_partials& out, adm_partials& out2, workspace& ws) noexcept {
  out = {};
  adm_request q2 = q;
  q2.enhn_gain_limit = b;
  if (two) out2 = {};
  const int W = static_cast<int>(ref.width), H = static_cast<int>(ref.height);
  int w = (W + 1) / 2, h = (H + 1) / 2;
  const std::size_t n0 = static_cast<std::size_t>(w) * h;
  for (auto& buf : ws.b16) grow(buf, n0);
  for (int p = 0; p < 2; ++p) {
    const plane_view& pv = p == 0 ? ref : dis;
    i16* a = ws.b16[4 * p].data();
    i16* hh = ws.b16[4 * p + 1].data();
    i16* vv = ws.b16[4 * p + 2].data();
    i16* dd = ws.b16[4 * p + 3].data();
    if (bpc == 8) dwt0<Avx2, std::uint8_t>(pv, bpc, q.skip_scale0, ws, a, hh, vv, dd);
    else dwt0<Avx2, std::uint16_t>(pv, bpc, q.skip_scale0, ws, a, hh, vv, dd);
  }
  if (!q.skip_scale0) {
    score0<Avx2, N>(ws, w, h, q, two ? role::first : role::single, b, out);
    if (two) {
      score0<Avx2, N>(ws, w, h, q2, role::second, b, out2);
      std::copy_n(out.den[0], 3, out2.den[0]);
    }
  }
  for (int s = 1; s < 4; ++s) {
    const int nw = (w + 1) / 2, nh = (h + 1) / 2;
    const std::size_t n = static_cast<std::size_t>(nw) * nh;
    for (auto& buf : ws.b32) grow(buf, n);
    for (int p = 0; p < 2; ++p) {
      i32* const out4[4] = {ws.b32[4 * p].data(), ws.b32[4 * p + 1].data(), ws.b32[4 * p + 2].data(), ws.b32[4 * p + 3].data()};
      if (s == 1) dwt_s<Avx2>(ws.b16[4 * p].data(), w, h, s, ws, out4[0], out4[1], out4[2], out4[3]);
      else dwt_s<Avx2>(ws.a32[p].data(), w, h, s, ws, out4[0], out4[1], out4[2], out4[3]);
    }
    w = nw;
    h = nh;
    score_s<Avx2, N>(ws, s, w, h, q, two ? role::first : role::single, b, out);
    if (two) {
      score_s<Avx2, N>(ws, s, w, h, q2, role::second, b, out2);
      std::copy_n(out.den[s], 3, out2.den[s]);
    }
    if (s < 3)
      for (int p = 0; p < 2; ++p) std::swap(ws.a32[p], ws.b32[4 * p]);  // band a: the next scale's input
  }
}

[[gnu::flatten]] inline void run_base(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q,
                                      bool two, double b, adm_partials& out, adm_partials& out2, workspace& ws) noexcept {
  run<false, 4>(ref, dis, bpc, q, two, b, out, out2, ws);
}

}  // namespace adm_detail

// The exact integer accumulators of one frame (luma planes of equal size, W, H >= 33, bpc 8..16);
// bit-identical to reference::adm. `two` adds, in the same pass, the accumulators at a second gain limit b
// (a run of VMAF and NEG): out2 gets exactly what adm() with enhn_gain_limit = b returns.
VQM_CPU_KERNEL void adm_limits(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q,
                               bool two, double b, adm_partials& out, adm_partials& out2)
#if VQM_CPU_KERNEL_BODIES
{
  thread_local adm_detail::workspace ws;
  // The AVX2/AVX-512 instances pass 32-byte int64 vectors between functions of different targets, which is
  // only sound once they are inlined: an unoptimised build (GCC -O0) would call them across the ABI change
  // and compute garbage, so it runs the portable instance.
#if VQM_CPU_X86 && defined(__OPTIMIZE__)
  if (active_isa() >= isa::avx512)
    return simd::as_avx512([&] { adm_detail::run<true, 8>(ref, dis, bpc, q, two, b, out, out2, ws); });
  if (active_isa() >= isa::avx2)
    return simd::as_avx2([&] { adm_detail::run<true, 4>(ref, dis, bpc, q, two, b, out, out2, ws); });
#endif
  adm_detail::run_base(ref, dis, bpc, q, two, b, out, out2, ws);
}
#else
;
#endif

[[nodiscard]] inline adm_partials adm(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q) {
  adm_partials out, unused;
  adm_limits(ref, dis, bpc, q, false, q.enhn_gain_limit, out, unused);
  return out;
}

}  // namespace vqm::cpu
