// Cpu ADM kernel (cpu/adm.hpp), second stage: decoupling (SPEC-vmaf §7), and the 4-lane int64 helpers it
// shares with the masking.
#pragma once

#include <cstdint>
#include <cstring>

#include "vqm/cpu/adm_dwt.hpp"
#include "vqm/cpu/simd.hpp"

namespace vqm::cpu::adm_detail {

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

// N int16 values as N doubles / as N int32.
template <int N>
VQM_CPU_INLINE typename lanes<N>::d loadd(const i16* p) noexcept {
  typename lanes<N>::s v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, typename lanes<N>::d);
}
template <int N>
VQM_CPU_INLINE typename lanes<N>::i loadi(const i16* p) noexcept {
  typename lanes<N>::s v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, typename lanes<N>::i);
}
template <int N>
VQM_CPU_INLINE typename lanes<N>::d vtrunc(typename lanes<N>::d x) noexcept {  // |x| < 2^31
  return __builtin_convertvector(__builtin_convertvector(x, typename lanes<N>::i), typename lanes<N>::d);
}
template <class M, class V>
VQM_CPU_INLINE V vsel(M m, V a, V b) noexcept { return m ? a : b; }  // m lanes all-ones / zero

// decouple0 on N positions at once (same operations, lane by lane); with Two, also the result at gain limit
// egl2 into r2 (everything before the limit's select shared).
template <int N, bool Two>
VQM_CPU_INLINE typename lanes<N>::d decouple0_v(typename lanes<N>::d o, typename lanes<N>::d t, typename lanes<N>::l flag,
                                                 double egl, double egl2, typename lanes<N>::d& r2) noexcept {
  using D = typename lanes<N>::d;
  const D zero{};
  const D m = vsel(o < zero, -o, o);
  const auto mz = m == zero;
  const D dm = vtrunc<N>(1073741824.0 / vsel(mz, zero + 1.0, m));
  const D ts = vsel(o < zero, -t, t);
  D x = (dm * ts + 16384.0) * (1.0 / 32768.0);  // k' before the floor (exact)
  // clamp(floor(x), 0, 32768) = floor(clamp(x, 0, 32768)) = trunc of the clamped, non-negative value
  x = vsel(x < zero, zero, x);
  x = vsel(x > 32768.0, zero + 32768.0, x);
  D k = vtrunc<N>(x);
  k = vsel(mz, zero + 32768.0, k);
  const D r = vtrunc<N>((k * o + 16384.0) * (1.0 / 32768.0) + 65536.0) - 65536.0;
  const auto apply = flag & (k > zero) & ~mz;
  const auto opos = o > zero;
  const auto limit = [&](double e) {
    const D xe = r * e;
    return vsel(apply, vtrunc<N>(vsel(opos, vsel(xe < t, xe, t), vsel(xe > t, xe, t))), r);
  };
  if constexpr (Two) r2 = limit(egl2);
  return limit(egl);
}

template <int N>
VQM_CPU_INLINE typename lanes<N>::l angle_flag_v(typename lanes<N>::d oh, typename lanes<N>::d ov,
                                                 typename lanes<N>::d th, typename lanes<N>::d tv) noexcept {
  using D = typename lanes<N>::d;
  using F = typename lanes<N>::f;
  const D p = __builtin_convertvector(__builtin_convertvector(oh * th + ov * tv, F), D) / 4096.0;
  const D o = __builtin_convertvector(__builtin_convertvector(oh * oh + ov * ov, F), D) / 4096.0;
  const D t = __builtin_convertvector(__builtin_convertvector(th * th + tv * tv, F), D) / 4096.0;
  const D zero{};
  return (p >= zero) & (p * p >= (T::cos1_sq * o) * t);
}

// One row of scale-0 decoupling over columns [c0, c1): 8 lanes on the AVX-512 instance (N = 8), then 4. With
// Two, also at gain limit egl2 into rst2/add2 (a run of VMAF and NEG: the limit-free work once).
template <bool Avx2, int N, bool Two>
VQM_CPU_INLINE void decouple0_row(const i16* const ob[3], const i16* const tb[3], i16* const rst[3], i16* const add[3],
                                  i16* const rst2[3], i16* const add2[3], int c0, int c1, double egl,
                                  double egl2) noexcept {
  using D = typename lanes<4>::d;
  using I = typename lanes<4>::i;
  using S = typename lanes<4>::s;
  int j = c0;
#if VQM_CPU_X86
  if constexpr (N == 8) j = x86::decouple0_row_avx512<Two>(ob, tb, rst, add, rst2, add2, c0, c1, egl, egl2);
  else if constexpr (Avx2) j = x86::decouple0_row_avx2<Two>(ob, tb, rst, add, rst2, add2, c0, c1, egl, egl2);
#endif
  for (; j + 4 <= c1; j += 4) {
    const D oh = loadd<4>(ob[0] + j), ov = loadd<4>(ob[1] + j), th = loadd<4>(tb[0] + j), tv = loadd<4>(tb[1] + j);
    const auto flag = angle_flag_v<4>(oh, ov, th, tv);
    D r2[3] = {};
    const D r[3] = {decouple0_v<4, Two>(oh, th, flag, egl, egl2, r2[0]), decouple0_v<4, Two>(ov, tv, flag, egl, egl2, r2[1]),
                    decouple0_v<4, Two>(loadd<4>(ob[2] + j), loadd<4>(tb[2] + j), flag, egl, egl2, r2[2])};
    for (int b = 0; b < 3; ++b) {
      const auto store = [&](D rv, i16* rs_out, i16* as_out) {
        const I ri = __builtin_convertvector(rv, I);
        const S rs = __builtin_convertvector(ri, S), as = __builtin_convertvector(loadi<4>(tb[b] + j) - ri, S);
        std::memcpy(rs_out + j, &rs, sizeof rs);
        std::memcpy(as_out + j, &as, sizeof as);
      };
      store(r[b], rst[b], add[b]);
      if constexpr (Two) store(r2[b], rst2[b], add2[b]);
    }
  }
  for (; j < c1; ++j) {
    const double doh = ob[0][j], dov = ob[1][j], dth = tb[0][j], dtv = tb[1][j];
    const bool flag = angle_flag_d(doh, dov, dth, dtv);
    for (int b = 0; b < 3; ++b) {
      const i32 r = decouple0(ob[b][j], tb[b][j], flag, egl);
      rst[b][j] = static_cast<i16>(r);
      add[b][j] = static_cast<i16>(tb[b][j] - r);
      if constexpr (Two) {
        const i32 r2 = decouple0(ob[b][j], tb[b][j], flag, egl2);
        rst2[b][j] = static_cast<i16>(r2);
        add2[b][j] = static_cast<i16>(tb[b][j] - r2);
      }
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

VQM_CPU_INLINE vl4 load4(const i32* p) noexcept { return vl4{p[0], p[1], p[2], p[3]}; }
VQM_CPU_INLINE vu4 splatu(u64 v) noexcept { return vu4{v, v, v, v}; }
VQM_CPU_INLINE vl4 splatl(i64 v) noexcept { return vl4{v, v, v, v}; }
// a·b, the full 64-bit product, of lanes holding 32-bit values: 0 <= a, b < 2^32 in unsigned lanes, the int32
// range in signed ones. Avx2: only inside an AVX2 (or, for 8 lanes, AVX-512) kernel.
template <bool Avx2, class V>
VQM_CPU_INLINE V mul32(V a, V b) noexcept {
#ifdef VQM_ADM_MUL_AVX2
  if constexpr (Avx2 && sizeof(V) == 64) return x86::mul32_avx512(a, b);
  else if constexpr (Avx2) return x86::mul32_avx2(a, b);
#endif
  return a * b;
}
// floor(v / 2^n) per lane for |v| < 2^62 (n may differ per lane, 0..62).
template <class L, class U>
VQM_CPU_INLINE L asr(L v, U n) noexcept {
  const U bias = U{} + (u64{1} << 62);
  return reinterpret_cast<L>((reinterpret_cast<U>(v) + bias) >> n) - reinterpret_cast<L>(bias >> n);
}
// sign-extend the low 32 bits (wrap32)
template <class L>
VQM_CPU_INLINE L wrap32v(L v) noexcept {
  const L b = L{} + (i64{1} << 31);
  return ((v & 0xffffffffll) ^ b) - b;
}
// the low 32 bits of each lane (wrap32), as int32 lanes
VQM_CPU_INLINE vi4 narrow32(vl4 v) noexcept {
  const vi8 x = reinterpret_cast<vi8>(v);
  return __builtin_shufflevector(x, x, 0, 2, 4, 6);
}
template <class L>
VQM_CPU_INLINE L absl(L v) noexcept { return vsel(v < 0, -v, v); }
// the sum of the lanes
template <class V>
VQM_CPU_INLINE auto hsum(V v) noexcept {
  auto s = v[0];
  for (std::size_t k = 1; k < sizeof v / sizeof s; ++k) s += v[k];
  return s;
}
// exact double of 0 <= v < 2^52
VQM_CPU_INLINE vd4 u2d(vu4 v) noexcept {
  const vu4 magic = splatu(0x4330000000000000ull);
  return reinterpret_cast<vd4>(v | magic) - 4503599627370496.0;
}

// §8 / §9.3 c = wrap32((x·irf + 2^27) >> 28) for int32 x, irf < 2^32 (|x·irf| < 2^63: computed on |x|).
template <bool Avx2>
VQM_CPU_INLINE vl4 csf_c(vl4 x, u32 irf) noexcept {
  const vl4 neg = x < 0;
  const vu4 u = mul32<Avx2>(reinterpret_cast<vu4>(absl(x)), splatu(irf));
  const vl4 pos = reinterpret_cast<vl4>((u + (u64{1} << 27)) >> 28);
  const vl4 ngv = -reinterpret_cast<vl4>((u + ((u64{1} << 27) - 1)) >> 28);
  return wrap32v(vsel(neg, ngv, pos));
}
// wrap32((mul·|c| − 2^31) >> 32) for |c| <= 2^31, mul < 2^29 (§8 / §9.1 scales 1..3).
template <bool Avx2>
VQM_CPU_INLINE vl4 filt(vl4 ac, i64 mul) noexcept {
  const vl4 prod = reinterpret_cast<vl4>(mul32<Avx2>(reinterpret_cast<vu4>(ac), splatu(static_cast<u64>(mul))));
  return wrap32v(asr(prod - splatl(i64{1} << 31), splatu(32)));
}

// §7 scales 1..3 on four positions; flag lanes are all-ones or zero. Returns rst (int32).
template <bool Avx2>
VQM_CPU_INLINE vi4 decouple_s_v(vl4 o, vl4 t, vl4 flag, double egl) noexcept {
  const vl4 neg = o < 0, oz = o == 0;
  const vu4 ab = reinterpret_cast<vu4>(absl(o));  // <= 2^31
  const vl4 ex = reinterpret_cast<vl4>(reinterpret_cast<vu4>(u2d(ab)) >> 52) - 1023;  // floor(log2 ab), ab >= 1
  vl4 e = ex + 1 - 15;
  e = vsel(e < 0, splatl(0), e);
  const vu4 eu = reinterpret_cast<vu4>(e);
  const vu4 m = (ab + ((splatu(1) << eu) >> 1)) >> eu;  // in [0, 32768]
  vd4 md = u2d(m);
  md = vsel(reinterpret_cast<vl4>(m) == 0, vd4{1, 1, 1, 1}, md);
  const vd4 qd = 1073741824.0 / md;  // correctly rounded; trunc(qd) = D(m)
  vu4 dn = reinterpret_cast<vu4>(qd + 4503599627370496.0) - splatu(0x4330000000000000ull);  // round to nearest
  dn = dn + reinterpret_cast<vu4>(reinterpret_cast<vl4>(mul32<Avx2>(dn, m) > splatu(u64{1} << 30)));  // −1 where too big
  vl4 pr = mul32<Avx2>(reinterpret_cast<vl4>(dn), t);
  pr = vsel(neg, -pr, pr);
  vl4 k = asr(pr + reinterpret_cast<vl4>(splatu(1) << (eu + 14)), eu + 15);
  k = vsel(k < 0, splatl(0), k);
  k = vsel(k > 32768, splatl(32768), k);
  k = vsel(oz, splatl(32768), k);
  const vi4 r = narrow32(asr(mul32<Avx2>(k, o) + 16384, splatu(15)));  // wrap32
  const vd4 rd = __builtin_convertvector(r, vd4);
  const vd4 td = __builtin_convertvector(narrow32(t), vd4);
  const vd4 xe = rd * egl;
  const vl4 opos = o > 0;
  const vd4 sel = vsel(opos, vsel(xe < td, xe, td), vsel(xe > td, xe, td));
  const vl4 apply = flag & (k > 0) & ~oz;
  return __builtin_convertvector(vsel(apply, sel, rd), vi4);
}
#pragma GCC diagnostic pop

}  // namespace vqm::cpu::adm_detail
