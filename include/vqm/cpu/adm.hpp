// Cpu kernel: libvmaf's integer ADM accumulators (SPEC-vmaf Part II), bit-identical to
// cpu/reference/adm.hpp. Narrow storage (int16 at scale 0, int32 above); separable DWT passes and the
// separable 3×3 threshold as branch-free loops the compiler vectorises; scale-0 decoupling in 4 double lanes
// (exact: every product there is below 2^47, see decouple0); on the AVX2 path the int64 stages (scales 1–3
// decoupling/CSF/masking, scale-0 masking and denominator) in 4 int64 lanes with vpmuludq/vpmuldq. The body
// is compiled twice (AVX2 and baseline) and picked at run time (cpu::active_isa()). Thread-safe; the
// scratch is thread_local and only grows (no per-frame allocation once warm).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/adm.hpp"

namespace vqm::cpu {

namespace adm_detail {

namespace T = vqm::tables::adm;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct workspace {
  // scale 0: bands of ref (0..3 = a, h, v, d) and dis (4..7); scales >= 1: the same in int32.
  std::vector<i16> b16[8];
  std::vector<i32> b32[8];
  std::vector<i32> a32[2];                    // band a of the previous scale, widened (scales 1..3 input)
  std::vector<i16> row16[2];                  // scale-0 vertical-pass rows (padded)
  std::vector<i32> row32[2];                  // scale >= 1 vertical-pass rows (padded)
  std::vector<i16> rst16[3], add16[3];        // scale 0 decoupled bands
  std::vector<i32> rst32[3], add32[3];        // scales 1..3
  std::vector<i32> fsum[2], cen[2];           // masker Σ_b F_b and Σ_b centre term: [0] DLM (from add), [1] AIM (from rst)
  std::vector<i32> vsum, thr;                 // threshold rows
  std::vector<i64> flags;                     // angle flags of one row (scales >= 1), all-ones / zero
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

#if VQM_CPU_X86
// §4.3 horizontal pass of one padded row t (t[p + 1] = position p) with pmaddwd: outputs j in [0, n16) of the
// LO and HI filters, n16 a multiple of 16. Exact: each pair sum |F0·t0 + F1·t1| < 2^31 and the final value
// after >> 16 is within int16 (|Σ| <= 54822·32768), so the saturating pack never saturates.
__attribute__((target("avx2"))) inline void hpass0_avx2(const i16* t, int n16, i16* lo, i16* hi) noexcept {
  const __m256i l01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(27411) << 16) | 15826u));
  const __m256i l23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-4240)) << 16) | 7345u));
  const __m256i h01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-7345)) << 16) | static_cast<std::uint16_t>(-4240)));
  const __m256i h23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-15826)) << 16) | 27411u));
  const __m256i rnd = _mm256_set1_epi32(32768);
  for (int j = 0; j < n16; j += 16) {
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j));       // pairs j..j+7
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 2));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 16));  // pairs j+8..j+15
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + 2 * j + 18));
    const __m256i lo0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a0, l01), _mm256_madd_epi16(b0, l23)), rnd), 16);
    const __m256i lo1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a1, l01), _mm256_madd_epi16(b1, l23)), rnd), 16);
    const __m256i hi0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a0, h01), _mm256_madd_epi16(b0, h23)), rnd), 16);
    const __m256i hi1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(a1, h01), _mm256_madd_epi16(b1, h23)), rnd), 16);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo + j), _mm256_permute4x64_epi64(_mm256_packs_epi32(lo0, lo1), 0xD8));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi + j), _mm256_permute4x64_epi64(_mm256_packs_epi32(hi0, hi1), 0xD8));
  }
}
#endif

#if VQM_CPU_X86
// §4.3 vertical pass with pmaddwd for samples below 2^15 (used for 8-bit input): columns [0, n16) of the rows
// r0..r3 into tl/th (already offset by one), n16 a multiple of 16. Exact: every pair sum and the 4-tap sum are
// below 2^31 in magnitude for such samples, and the results after the shift are within int16 (the pack never
// saturates).
template <class Px>
__attribute__((target("avx2"))) inline __m256i load16_avx2(const Px* p) noexcept {
  if constexpr (sizeof(Px) == 1) return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  else return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
template <class Px>
__attribute__((target("avx2"))) inline void vpass0_avx2(const Px* r0, const Px* r1, const Px* r2, const Px* r3, int n16,
                                                       int shift, i32 off_lo, i32 off_hi, bool lo_only, i16* tl,
                                                       i16* th) noexcept {
  const __m256i l01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(27411) << 16) | 15826u));
  const __m256i l23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-4240)) << 16) | 7345u));
  const __m256i h01 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-7345)) << 16) | static_cast<std::uint16_t>(-4240)));
  const __m256i h23 = _mm256_set1_epi32(static_cast<int>((static_cast<u32>(static_cast<std::uint16_t>(-15826)) << 16) | 27411u));
  const __m256i ol = _mm256_set1_epi32(off_lo), oh = _mm256_set1_epi32(off_hi);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  for (int x = 0; x < n16; x += 16) {
    const __m256i a = load16_avx2(r0 + x), b = load16_avx2(r1 + x), c = load16_avx2(r2 + x), d = load16_avx2(r3 + x);
    const __m256i ab0 = _mm256_unpacklo_epi16(a, b), ab1 = _mm256_unpackhi_epi16(a, b);
    const __m256i cd0 = _mm256_unpacklo_epi16(c, d), cd1 = _mm256_unpackhi_epi16(c, d);
    const __m256i lo0 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab0, l01), _mm256_madd_epi16(cd0, l23)), ol), sh);
    const __m256i lo1 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab1, l01), _mm256_madd_epi16(cd1, l23)), ol), sh);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(tl + x), _mm256_packs_epi32(lo0, lo1));
    if (lo_only) continue;
    const __m256i hi0 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab0, h01), _mm256_madd_epi16(cd0, h23)), oh), sh);
    const __m256i hi1 = _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(ab1, h01), _mm256_madd_epi16(cd1, h23)), oh), sh);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(th + x), _mm256_packs_epi32(hi0, hi1));
  }
}
#endif

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
        vpass0_avx2(r0, r1, r2, r3, x0v, S, static_cast<i32>(off), static_cast<i32>(R), lo_only, tl + 1, th + 1);
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
        hpass0_avx2(tl, j0, ar, scratch.data());
      } else {
        hpass0_avx2(tl, j0, ar, vr);
        hpass0_avx2(th, j0, hr, dr);
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

// ---- scales 1..3 DWT (§4.4) on an int32 plane of W × H ----
VQM_CPU_INLINE void dwt_s(const i32* A, int W, int H, int s, workspace& ws, i32* a, i32* h, i32* v, i32* d) noexcept {
  const int mh = (H + 1) / 2, mw = (W + 1) / 2;
  const i64 vr = T::v_round[static_cast<std::size_t>(s - 1)], hr = T::h_round[static_cast<std::size_t>(s - 1)];
  const int vs = T::v_shift[static_cast<std::size_t>(s - 1)], hs = T::h_shift[static_cast<std::size_t>(s - 1)];
  grow(ws.row32[0], static_cast<std::size_t>(W) + 3);
  grow(ws.row32[1], static_cast<std::size_t>(W) + 3);
  i32* tl = ws.row32[0].data();
  i32* th = ws.row32[1].data();
  for (int i = 0; i < mh; ++i) {
    const i32* r0 = A + static_cast<std::ptrdiff_t>(src_pos(i, 0, H)) * W;
    const i32* r1 = A + static_cast<std::ptrdiff_t>(src_pos(i, 1, H)) * W;
    const i32* r2 = A + static_cast<std::ptrdiff_t>(src_pos(i, 2, H)) * W;
    const i32* r3 = A + static_cast<std::ptrdiff_t>(src_pos(i, 3, H)) * W;
    for (int x = 0; x < W; ++x) {
      const i64 x0 = r0[x], x1 = r1[x], x2 = r2[x], x3 = r3[x];
      tl[x + 1] = static_cast<i32>(static_cast<u32>((15826 * x0 + 27411 * x1 + 7345 * x2 - 4240 * x3 + vr) >> vs));
      th[x + 1] = static_cast<i32>(static_cast<u32>((-4240 * x0 - 7345 * x1 + 27411 * x2 - 15826 * x3 + vr) >> vs));
    }
    pad_row(tl, W);
    pad_row(th, W);
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * mw;
    for (int j = 0; j < mw; ++j) {
      const i64 t0 = tl[2 * j], t1 = tl[2 * j + 1], t2 = tl[2 * j + 2], t3 = tl[2 * j + 3];
      a[o + j] = static_cast<i32>(static_cast<u32>((15826 * t0 + 27411 * t1 + 7345 * t2 - 4240 * t3 + hr) >> hs));
      v[o + j] = static_cast<i32>(static_cast<u32>((-4240 * t0 - 7345 * t1 + 27411 * t2 - 15826 * t3 + hr) >> hs));
    }
    for (int j = 0; j < mw; ++j) {
      const i64 t0 = th[2 * j], t1 = th[2 * j + 1], t2 = th[2 * j + 2], t3 = th[2 * j + 3];
      h[o + j] = static_cast<i32>(static_cast<u32>((15826 * t0 + 27411 * t1 + 7345 * t2 - 4240 * t3 + hr) >> hs));
      d[o + j] = static_cast<i32>(static_cast<u32>((-4240 * t0 - 7345 * t1 + 27411 * t2 - 15826 * t3 + hr) >> hs));
    }
  }
}

// ---- decoupling (§7) ----

// Scale 0, one band, in double lanes. Exact: |o|, |t| <= 32768, D <= 2^30, so D·t + 2^14 < 2^46 and
// k·o + 2^14 < 2^31 are exact doubles and the /2^15 scalings are exact; floors are taken as trunc of a
// shifted non-negative value. Returns rst (int16 range).
VQM_CPU_INLINE i32 decouple0(double o, double t, bool flag, double egl) noexcept {
  const double m = o < 0 ? -o : o;
  const double dm = static_cast<double>(static_cast<i32>(1073741824.0 / (m == 0 ? 1.0 : m)));  // D(|o|), exact trunc
  const double ts = o < 0 ? -t : t;
  double x = (dm * ts + 16384.0) * (1.0 / 32768.0);
  x = x < -1.0 ? -1.0 : x;
  x = x > 32769.0 ? 32769.0 : x;
  double k = static_cast<double>(static_cast<i32>(x + 2.0) - 2);  // floor
  k = k < 0.0 ? 0.0 : k;
  k = k > 32768.0 ? 32768.0 : k;
  k = m == 0 ? 32768.0 : k;
  const i32 r = static_cast<i32>((k * o + 16384.0) * (1.0 / 32768.0) + 65536.0) - 65536;  // floor
  const double xe = static_cast<double>(r) * egl;
  const double sel = o > 0 ? (xe < t ? xe : t) : (xe > t ? xe : t);
  const bool apply = flag && k > 0.0 && m != 0.0;
  return apply ? static_cast<i32>(sel) : r;
}

VQM_CPU_INLINE bool angle_flag_d(double oh, double ov, double th, double tv) noexcept {
  // the products are exact in double (< 2^31), so f32 of the double equals f32 of the int64
  const double p = static_cast<double>(static_cast<float>(oh * th + ov * tv)) / 4096.0;
  const double o = static_cast<double>(static_cast<float>(oh * oh + ov * ov)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(th * th + tv * tv)) / 4096.0;
  return p >= 0.0 && p * p >= (T::cos1_sq * o) * t;
}

VQM_CPU_INLINE bool angle_flag_i(i64 oh, i64 ov, i64 th, i64 tv) noexcept {
  const double p = static_cast<double>(static_cast<float>(oh * th + ov * tv)) / 4096.0;
  const double o = static_cast<double>(static_cast<float>(oh * oh + ov * ov)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(th * th + tv * tv)) / 4096.0;
  return p >= 0.0 && p * p >= (T::cos1_sq * o) * t;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
using vd4 = double __attribute__((vector_size(32)));
using vl4 = std::int64_t __attribute__((vector_size(32)));
using vi4 = std::int32_t __attribute__((vector_size(16)));
using vu4i = std::uint32_t __attribute__((vector_size(16)));

VQM_CPU_INLINE vd4 load4(const i16* p) noexcept {
  return __builtin_convertvector((vi4{p[0], p[1], p[2], p[3]}), vd4);
}
VQM_CPU_INLINE vd4 vtrunc(vd4 x) noexcept {  // |x| < 2^31
  return __builtin_convertvector(__builtin_convertvector(x, vi4), vd4);
}
VQM_CPU_INLINE vd4 vsel(vl4 m, vd4 a, vd4 b) noexcept { return m ? a : b; }  // m lanes all-ones / zero

// decouple0 on four positions at once (same operations, lane by lane).
VQM_CPU_INLINE vd4 decouple0_v(vd4 o, vd4 t, vl4 flag, double egl) noexcept {
  const vd4 zero = {0, 0, 0, 0};
  const vd4 m = vsel(o < zero, -o, o);
  const vl4 mz = m == zero;
  const vd4 one = {1, 1, 1, 1};
  const vd4 dm = vtrunc(1073741824.0 / vsel(mz, one, m));
  const vd4 ts = vsel(o < zero, -t, t);
  vd4 x = (dm * ts + 16384.0) * (1.0 / 32768.0);  // k' before the floor (exact)
  // clamp(floor(x), 0, 32768) = floor(clamp(x, 0, 32768)) = trunc of the clamped, non-negative value
  x = vsel(x < zero, zero, x);
  x = vsel(x > 32768.0, zero + 32768.0, x);
  vd4 k = vtrunc(x);
  k = vsel(mz, zero + 32768.0, k);
  const vd4 r = vtrunc((k * o + 16384.0) * (1.0 / 32768.0) + 65536.0) - 65536.0;
  const vd4 xe = r * egl;
  const vd4 sel = vsel(o > zero, vsel(xe < t, xe, t), vsel(xe > t, xe, t));
  const vl4 apply = flag & (k > zero) & ~mz;
  return vsel(apply, vtrunc(sel), r);
}

VQM_CPU_INLINE vl4 angle_flag_v(vd4 oh, vd4 ov, vd4 th, vd4 tv) noexcept {
  using vf4 = float __attribute__((vector_size(16)));
  const vd4 p = __builtin_convertvector(__builtin_convertvector(oh * th + ov * tv, vf4), vd4) / 4096.0;
  const vd4 o = __builtin_convertvector(__builtin_convertvector(oh * oh + ov * ov, vf4), vd4) / 4096.0;
  const vd4 t = __builtin_convertvector(__builtin_convertvector(th * th + tv * tv, vf4), vd4) / 4096.0;
  const vd4 zero = {0, 0, 0, 0};
  return (p >= zero) & (p * p >= (T::cos1_sq * o) * t);
}

// One row of scale-0 decoupling over columns [c0, c1).
VQM_CPU_INLINE void decouple0_row(const i16* const ob[3], const i16* const tb[3], i16* const rst[3], i16* const add[3],
                                  int c0, int c1, double egl) noexcept {
  int j = c0;
  for (; j + 4 <= c1; j += 4) {
    const vd4 oh = load4(ob[0] + j), ov = load4(ob[1] + j), th = load4(tb[0] + j), tv = load4(tb[1] + j);
    const vl4 flag = angle_flag_v(oh, ov, th, tv);
    const vd4 r[3] = {decouple0_v(oh, th, flag, egl), decouple0_v(ov, tv, flag, egl),
                      decouple0_v(load4(ob[2] + j), load4(tb[2] + j), flag, egl)};
    for (int b = 0; b < 3; ++b) {
      using vs4 = std::int16_t __attribute__((vector_size(8)));
      const vi4 ri = __builtin_convertvector(r[b], vi4);
      const vi4 ti = vi4{tb[b][j], tb[b][j + 1], tb[b][j + 2], tb[b][j + 3]};
      const vs4 rs = __builtin_convertvector(ri, vs4), as = __builtin_convertvector(ti - ri, vs4);
      std::memcpy(rst[b] + j, &rs, sizeof rs);
      std::memcpy(add[b] + j, &as, sizeof as);
    }
  }
  for (; j < c1; ++j) {
    const double doh = ob[0][j], dov = ob[1][j], dth = tb[0][j], dtv = tb[1][j];
    const bool flag = angle_flag_d(doh, dov, dth, dtv);
    for (int b = 0; b < 3; ++b) {
      const i32 r = decouple0(ob[b][j], tb[b][j], flag, egl);
      rst[b][j] = static_cast<i16>(r);
      add[b][j] = static_cast<i16>(tb[b][j] - r);
    }
  }
}
#pragma GCC diagnostic pop

// Scales 1..3, one band (int64, exact as the SPEC).
VQM_CPU_INLINE i32 decouple_s(i64 o, i64 t, bool flag, double egl) noexcept {
  i64 k = 32768;
  if (o != 0) {
    const i64 ab = o < 0 ? -o : o;
    int e = 0;
    i64 m = ab;
    if (ab >= 32768) {
      e = 64 - __builtin_clzll(static_cast<u64>(ab)) - 15;
      m = (ab + (i64{1} << (e - 1))) >> e;
    }
    k = ((i64{T::reciprocal(static_cast<i32>(m))} * t) * (o < 0 ? -1 : 1) + (i64{1} << (14 + e))) >> (15 + e);
    k = k < 0 ? 0 : k > 32768 ? 32768 : k;
  }
  i32 rst = static_cast<i32>(static_cast<u32>((k * o + 16384) >> 15));
  if (flag && k > 0 && o != 0) {
    const double x = static_cast<double>(rst) * egl, tf = static_cast<double>(t);
    rst = static_cast<i32>(static_cast<i64>(o > 0 ? (x < tf ? x : tf) : (x > tf ? x : tf)));
  }
  return rst;
}

// ---- 4-lane int64 helpers (GCC vector extensions; exact integer semantics) ----
// Used by the AVX2 path only (native 64-bit lanes, vpmuludq/vpmuldq, variable shifts); on plain SSE2 the
// compiler's emulation of this int64 code is slower than the scalar loops, which the baseline path runs.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
using vu4 = std::uint64_t __attribute__((vector_size(32)));

VQM_CPU_INLINE vl4 load4(const i32* p) noexcept { return vl4{p[0], p[1], p[2], p[3]}; }
VQM_CPU_INLINE vu4 splatu(u64 v) noexcept { return vu4{v, v, v, v}; }
VQM_CPU_INLINE vl4 splatl(i64 v) noexcept { return vl4{v, v, v, v}; }
VQM_CPU_INLINE vl4 lsel(vl4 m, vl4 a, vl4 b) noexcept { return m ? a : b; }  // m lanes all-ones / zero
#if VQM_CPU_X86 && !defined(__clang__)
#define VQM_ADM_MUL_AVX2 1
// GCC: the AVX2 widening multiplies as separate target("avx2") functions, inlined into the AVX2 kernel.
__attribute__((target("avx2"))) inline vu4 mul_u32_avx2(vu4 a, vu4 b) noexcept {
  return reinterpret_cast<vu4>(_mm256_mul_epu32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
}
__attribute__((target("avx2"))) inline vl4 mul_i32_avx2(vl4 a, vl4 b) noexcept {
  return reinterpret_cast<vl4>(_mm256_mul_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
}
#endif
// a·b for 0 <= a, b < 2^32 (full 64-bit product). Avx2: only inside a VQM_CPU_AVX2 kernel.
template <bool Avx2>
VQM_CPU_INLINE vu4 mul_u32(vu4 a, vu4 b) noexcept {
#ifdef VQM_ADM_MUL_AVX2
  if constexpr (Avx2) return mul_u32_avx2(a, b);
#endif
  return a * b;
}
// a·b for a, b in the int32 range (full 64-bit product).
template <bool Avx2>
VQM_CPU_INLINE vl4 mul_i32(vl4 a, vl4 b) noexcept {
#ifdef VQM_ADM_MUL_AVX2
  if constexpr (Avx2) return mul_i32_avx2(a, b);
#endif
  return a * b;
}
// floor(v / 2^n) per lane for |v| < 2^62 (n may differ per lane, 0..62).
VQM_CPU_INLINE vl4 asr(vl4 v, vu4 n) noexcept {
  const vu4 bias = splatu(u64{1} << 62);
  return reinterpret_cast<vl4>((reinterpret_cast<vu4>(v) + bias) >> n) - reinterpret_cast<vl4>(bias >> n);
}
// sign-extend the low 32 bits (wrap32)
VQM_CPU_INLINE vl4 wrap32v(vl4 v) noexcept {
  const vl4 b = splatl(i64{1} << 31);
  return ((v & splatl(0xffffffffll)) ^ b) - b;
}
// the low 32 bits of each lane (wrap32), as int32 lanes
VQM_CPU_INLINE vi4 narrow32(vl4 v) noexcept {
  using vi8 = std::int32_t __attribute__((vector_size(32)));
  const vi8 x = reinterpret_cast<vi8>(v);
  return __builtin_shufflevector(x, x, 0, 2, 4, 6);
}
VQM_CPU_INLINE vl4 absl(vl4 v) noexcept { return lsel(v < 0, -v, v); }
// exact double of 0 <= v < 2^52
VQM_CPU_INLINE vd4 u2d(vu4 v) noexcept {
  const vu4 magic = splatu(0x4330000000000000ull);
  return reinterpret_cast<vd4>(v | magic) - 4503599627370496.0;
}

// §8 / §9.3 c = wrap32((x·irf + 2^27) >> 28) for int32 x, irf < 2^32 (|x·irf| < 2^63: computed on |x|).
template <bool Avx2>
VQM_CPU_INLINE vl4 csf_c(vl4 x, u32 irf) noexcept {
  const vl4 neg = x < 0;
  const vu4 u = mul_u32<Avx2>(reinterpret_cast<vu4>(absl(x)), splatu(irf));
  const vl4 pos = reinterpret_cast<vl4>((u + (u64{1} << 27)) >> 28);
  const vl4 ngv = -reinterpret_cast<vl4>((u + ((u64{1} << 27) - 1)) >> 28);
  return wrap32v(lsel(neg, ngv, pos));
}
// wrap32((mul·|c| − 2^31) >> 32) for |c| <= 2^31, mul < 2^29 (§8 / §9.1 scales 1..3).
template <bool Avx2>
VQM_CPU_INLINE vl4 filt(vl4 ac, i64 mul) noexcept {
  const vl4 prod = reinterpret_cast<vl4>(mul_u32<Avx2>(reinterpret_cast<vu4>(ac), splatu(static_cast<u64>(mul))));
  return wrap32v(asr(prod - splatl(i64{1} << 31), splatu(32)));
}

// §7 scales 1..3 on four positions; flag lanes are all-ones or zero. Returns rst (int32).
template <bool Avx2>
VQM_CPU_INLINE vi4 decouple_s_v(vl4 o, vl4 t, vl4 flag, double egl) noexcept {
  const vl4 neg = o < 0, oz = o == 0;
  const vu4 ab = reinterpret_cast<vu4>(absl(o));  // <= 2^31
  const vl4 ex = reinterpret_cast<vl4>(reinterpret_cast<vu4>(u2d(ab)) >> 52) - 1023;  // floor(log2 ab), ab >= 1
  vl4 e = ex + 1 - 15;
  e = lsel(e < 0, splatl(0), e);
  const vu4 eu = reinterpret_cast<vu4>(e);
  const vu4 m = (ab + ((splatu(1) << eu) >> 1)) >> eu;  // in [0, 32768]
  vd4 md = u2d(m);
  md = vsel(reinterpret_cast<vl4>(m) == 0, vd4{1, 1, 1, 1}, md);
  const vd4 qd = 1073741824.0 / md;  // correctly rounded; trunc(qd) = D(m)
  vu4 dn = reinterpret_cast<vu4>(qd + 4503599627370496.0) - splatu(0x4330000000000000ull);  // round to nearest
  dn = dn + reinterpret_cast<vu4>(reinterpret_cast<vl4>(mul_u32<Avx2>(dn, m) > splatu(u64{1} << 30)));  // −1 where too big
  vl4 pr = mul_i32<Avx2>(reinterpret_cast<vl4>(dn), t);
  pr = lsel(neg, -pr, pr);
  vl4 k = asr(pr + reinterpret_cast<vl4>(splatu(1) << (eu + 14)), eu + 15);
  k = lsel(k < 0, splatl(0), k);
  k = lsel(k > 32768, splatl(32768), k);
  k = lsel(oz, splatl(32768), k);
  const vi4 r = narrow32(asr(mul_i32<Avx2>(k, o) + 16384, splatu(15)));  // wrap32
  const vd4 rd = __builtin_convertvector(r, vd4);
  const vd4 td = __builtin_convertvector(narrow32(t), vd4);
  const vd4 xe = rd * egl;
  const vl4 opos = o > 0;
  const vd4 sel = vsel(opos, vsel(xe < td, xe, td), vsel(xe > td, xe, td));
  const vl4 apply = flag & (k > 0) & ~oz;
  return __builtin_convertvector(vsel(apply, sel, rd), vi4);
}
#pragma GCC diagnostic pop

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
template <bool Avx2>
VQM_CPU_INLINE i64 masked_row0(const i16* y, const i32* thr, int L, int R, u32 irf, int sub, int sq, i64 rsq,
                               int cb) noexcept {
  const i64 rnd = i64{1} << (cb - 1);
  int j = L;
  vl4 acc = splatl(0);
  for (; Avx2 && j + 4 <= R; j += 4) {
    const vl4 yv = vl4{y[j], y[j + 1], y[j + 2], y[j + 3]};
    const vl4 xs = wrap32v(mul_i32<Avx2>(yv, splatl(irf)));  // |y·irf| < 2^31 + 2^16: exact, then wrap32
    const vl4 th = wrap32v(load4(thr + j) << sub);
    vl4 x = wrap32v(absl(xs) - th);
    x = lsel(x < 0, splatl(0), x);
    const vl4 x2 = wrap32v(reinterpret_cast<vl4>(
        (mul_u32<Avx2>(reinterpret_cast<vu4>(x), reinterpret_cast<vu4>(x)) + static_cast<u64>(rsq)) >> sq));
    acc += asr(mul_i32<Avx2>(x2, x) + rnd, splatu(static_cast<u64>(cb)));
  }
  i64 sum = acc[0] + acc[1] + acc[2] + acc[3];
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
  vl4 acc = splatl(0);
  for (; Avx2 && j + 4 <= R; j += 4) {
    const vl4 xs = csf_c<Avx2>(load4(y + j), irf);
    const vl4 ax = absl(xs);  // <= 2^31
    vl4 x = wrap32v(ax - load4(thr + j));
    x = lsel(x < 0, splatl(0), x);
    const vl4 x2 = wrap32v(reinterpret_cast<vl4>((mul_u32<Avx2>(reinterpret_cast<vu4>(x), reinterpret_cast<vu4>(x)) + (u64{1} << 29)) >> 30));
    acc += asr(mul_i32<Avx2>(x2, x) + rnd, splatu(static_cast<u64>(cs)));
  }
  sum = acc[0] + acc[1] + acc[2] + acc[3];
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

// ---- scale 0 scoring ----
template <bool Avx2>
VQM_CPU_INLINE void score0(workspace& ws, int w, int h, const adm_request& q, adm_partials& out) noexcept {
  const auto g = T::inner_region(w, h);
  const auto e = extended(g, w, h);
  const std::size_t n = static_cast<std::size_t>(w) * h;
  for (int b = 0; b < 3; ++b) grow(ws.rst16[b], n), grow(ws.add16[b], n);
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
    decouple0_row(orow, trow, rrow, arow, e.c0, e.c1, egl);
    // CSF (§8) and the masker sums for DLM (from add, m = 0) and AIM (from rst, m = 1)
    for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
      const i16* x0 = (m == 0 ? ws.add16 : ws.rst16)[0].data() + o;
      const i16* x1 = (m == 0 ? ws.add16 : ws.rst16)[1].data() + o;
      const i16* x2 = (m == 0 ? ws.add16 : ws.rst16)[2].data() + o;
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

  // denominator (§10, scale 0)
  {
    const int z = std::max(0, T::bit_length(static_cast<u64>(g.area() - 1)) - 20);
    const u64 rnd = z > 0 ? u64{1} << (z - 1) : 0;
    for (int b = 0; b < 3; ++b) {
      u64 total = 0;
      for (int i = g.top; i < g.bottom; ++i) {
        const i16* r = ob[b] + static_cast<std::ptrdiff_t>(i) * w;
        int j = g.left;
        vu4 rv = splatu(0);
        for (; Avx2 && j + 4 <= g.right; j += 4) {
          const vu4 a = reinterpret_cast<vu4>(absl(vl4{r[j], r[j + 1], r[j + 2], r[j + 3]}));  // <= 32768
          rv += mul_u32<Avx2>(mul_u32<Avx2>(a, a), a);
        }
        u64 row = rv[0] + rv[1] + rv[2] + rv[3];
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
    const auto& ys = m == 0 ? ws.rst16 : ws.add16;
    for (int i = g.top; i < g.bottom; ++i) {
      threshold_row(ws.fsum[m].data(), ws.cen[m].data(), w, h, i, g, ws.vsum.data(), ws.thr.data());
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * w;
      acc[0] += (masked_row0<Avx2>(ys[0].data() + o, ws.thr.data(), g.left, g.right, irf[0], 10, 29, i64{1} << 28, cbhv) + rr) >> r;
      acc[1] += (masked_row0<Avx2>(ys[1].data() + o, ws.thr.data(), g.left, g.right, irf[1], 10, 29, i64{1} << 28, cbhv) + rr) >> r;
      acc[2] += (masked_row0<Avx2>(ys[2].data() + o, ws.thr.data(), g.left, g.right, irf[2], 12, 30, i64{1} << 29, cbd) + rr) >> r;
    }
    auto& dst = m == 0 ? out.dlm[0] : out.aim[0];
    for (int b = 0; b < 3; ++b) dst[b] = acc[b];
  }
}

// ---- scales 1..3 scoring ----
template <bool Avx2>
VQM_CPU_INLINE void score_s(workspace& ws, int s, int w, int h, const adm_request& q, adm_partials& out) noexcept {
  const auto g = T::inner_region(w, h);
  const auto e = extended(g, w, h);
  const std::size_t n = static_cast<std::size_t>(w) * h;
  for (int b = 0; b < 3; ++b) grow(ws.rst32[b], n), grow(ws.add32[b], n);
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
    i32* const rrow[3] = {ws.rst32[0].data() + o, ws.rst32[1].data() + o, ws.rst32[2].data() + o};
    i32* const arow[3] = {ws.add32[0].data() + o, ws.add32[1].data() + o, ws.add32[2].data() + o};
    for (int j = e.c0; j < e.c1; ++j)
      flags[j] = angle_flag_i(orow[0][j], orow[1][j], trow[0][j], trow[1][j]) ? -1 : 0;
    int j = e.c0;
    for (; Avx2 && j + 4 <= e.c1; j += 4) {
      const vl4 fl = vl4{flags[j], flags[j + 1], flags[j + 2], flags[j + 3]};
      for (int b = 0; b < 3; ++b) {
        const vl4 t = load4(trow[b] + j);
        const vi4 r = decouple_s_v<Avx2>(load4(orow[b] + j), t, fl, egl);
        const vi4 a = reinterpret_cast<vi4>(reinterpret_cast<vu4i>(narrow32(t)) - reinterpret_cast<vu4i>(r));
        std::memcpy(rrow[b] + j, &r, sizeof r);
        std::memcpy(arow[b] + j, &a, sizeof a);
      }
    }
    for (; j < e.c1; ++j)
      for (int b = 0; b < 3; ++b) {
        const i32 t = trow[b][j];
        const i32 rst = decouple_s(orow[b][j], t, flags[j] != 0, egl);
        rrow[b][j] = rst;
        arow[b][j] = static_cast<i32>(static_cast<u32>(t) - static_cast<u32>(rst));
      }
    for (int m = 0; m < (q.skip_aim ? 1 : 2); ++m) {
      const auto& xs = m == 0 ? ws.add32 : ws.rst32;
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

  // denominator (§10, scales 1..3)
  {
    const int qs = s == 2 ? 30 : 31;
    const int c = T::ceil_log2(static_cast<u64>(g.right - g.left));
    const int z = T::ceil_log2(static_cast<u64>(g.bottom - g.top));
    for (int b = 0; b < 3; ++b) {
      u64 total = 0;
      for (int i = g.top; i < g.bottom; ++i) {
        const i32* r = ob[b] + static_cast<std::ptrdiff_t>(i) * w;
        u64 row = 0;
        for (int j = g.left; j < g.right; ++j) {
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
    const auto& ys = m == 0 ? ws.rst32 : ws.add32;
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

template <bool Avx2>
VQM_CPU_INLINE adm_partials run(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q,
                                workspace& ws) noexcept {
  adm_partials out;
  const int W = static_cast<int>(ref.width), H = static_cast<int>(ref.height);
  int w = (W + 1) / 2, h = (H + 1) / 2;
  const std::size_t n0 = static_cast<std::size_t>(w) * h;
  for (auto& b : ws.b16) grow(b, n0);
  for (int p = 0; p < 2; ++p) {
    const plane_view& pv = p == 0 ? ref : dis;
    i16* const* bb = nullptr;
    (void)bb;
    i16* a = ws.b16[4 * p].data();
    i16* hh = ws.b16[4 * p + 1].data();
    i16* vv = ws.b16[4 * p + 2].data();
    i16* dd = ws.b16[4 * p + 3].data();
    if (bpc == 8) dwt0<Avx2, std::uint8_t>(pv, bpc, q.skip_scale0, ws, a, hh, vv, dd);
    else dwt0<Avx2, std::uint16_t>(pv, bpc, q.skip_scale0, ws, a, hh, vv, dd);
  }
  if (!q.skip_scale0) score0<Avx2>(ws, w, h, q, out);
  for (int p = 0; p < 2; ++p) {
    grow(ws.a32[p], n0);
    for (std::size_t k = 0; k < n0; ++k) ws.a32[p][k] = ws.b16[4 * p][k];
  }
  for (int s = 1; s < 4; ++s) {
    const int nw = (w + 1) / 2, nh = (h + 1) / 2;
    const std::size_t n = static_cast<std::size_t>(nw) * nh;
    for (auto& b : ws.b32) grow(b, n);
    for (int p = 0; p < 2; ++p)
      dwt_s(ws.a32[p].data(), w, h, s, ws, ws.b32[4 * p].data(), ws.b32[4 * p + 1].data(), ws.b32[4 * p + 2].data(),
            ws.b32[4 * p + 3].data());
    w = nw;
    h = nh;
    score_s<Avx2>(ws, s, w, h, q, out);
    if (s < 3)
      for (int p = 0; p < 2; ++p) std::copy_n(ws.b32[4 * p].data(), n, ws.a32[p].data());
  }
  return out;
}

#if VQM_CPU_X86
VQM_CPU_AVX2 inline adm_partials run_avx2(const plane_view& ref, const plane_view& dis, unsigned bpc,
                                          const adm_request& q, workspace& ws) noexcept {
  return run<true>(ref, dis, bpc, q, ws);
}
#endif
[[gnu::flatten]] inline adm_partials run_base(const plane_view& ref, const plane_view& dis, unsigned bpc,
                                              const adm_request& q, workspace& ws) noexcept {
  return run<false>(ref, dis, bpc, q, ws);
}

}  // namespace adm_detail

// The exact integer accumulators of one frame (luma planes of equal size, W, H >= 33, bpc 8..16);
// bit-identical to reference::adm.
[[nodiscard]] VQM_CPU_KERNEL adm_partials adm(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q)
#if VQM_CPU_KERNEL_BODIES
{
  thread_local adm_detail::workspace ws;
#if VQM_CPU_X86
  if (active_isa() == isa::avx2) return adm_detail::run_avx2(ref, dis, bpc, q, ws);
#endif
  return adm_detail::run_base(ref, dis, bpc, q, ws);
}
#else
;
#endif

}  // namespace vqm::cpu
