// Reference kernel (scalar, the oracle for tests): libvmaf's integer ADM accumulators (SPEC-vmaf Part II),
// written straight from the SPEC with int64 planes and explicit int16/int32 wraps. Clear rather than fast.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/adm.hpp"

namespace vqm::cpu::reference {

namespace adm_detail {

using i64 = std::int64_t;
namespace T = vqm::tables::adm;

inline i64 wrap16(i64 x) noexcept { return static_cast<std::int16_t>(static_cast<std::uint16_t>(x)); }
inline i64 wrap32(i64 x) noexcept { return static_cast<std::int32_t>(static_cast<std::uint32_t>(x)); }

struct plane {
  int w = 0, h = 0;
  std::vector<i64> v;
  plane() = default;
  plane(int w_, int h_) : w(w_), h(h_), v(static_cast<std::size_t>(w_) * h_, 0) {}
  i64& operator()(int i, int j) { return v[static_cast<std::size_t>(i) * w + j]; }
  i64 operator()(int i, int j) const { return v[static_cast<std::size_t>(i) * w + j]; }
};

// §4.2: the four source positions of every output sample, for an input of length n >= 5.
inline std::vector<std::array<int, 4>> dwt_index(int n) {
  const int half = (n + 1) / 2;
  std::vector<std::array<int, 4>> idx(static_cast<std::size_t>(half));
  idx[0] = {1, 0, 1, 2};
  for (int i = 1; i < half; ++i)
    for (int k = 0; k < 4; ++k) {
      const int p = 2 * i - 1 + k;
      idx[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] = p >= n ? 2 * n - 1 - p : p;
    }
  return idx;
}

struct bands {
  plane a, v, h, d;
  [[nodiscard]] const plane& hvd(int b) const { return b == 0 ? h : b == 1 ? v : d; }
};

// §4.3 scale 0 from the luma samples.
inline bands dwt0(const plane_view& p, unsigned bpc, bool lo_only) {
  const int W = static_cast<int>(p.width), H = static_cast<int>(p.height);
  const auto iy = dwt_index(H), ix = dwt_index(W);
  const int m1 = (H + 1) / 2, w0 = (W + 1) / 2;
  const int S = static_cast<int>(bpc);
  const i64 R = i64{1} << (bpc - 1);
  auto X = [&](int y, int x) -> i64 {
    return bpc == 8 ? i64{p.row<std::uint8_t>(static_cast<std::uint32_t>(y))[x]}
                    : i64{p.row<std::uint16_t>(static_cast<std::uint32_t>(y))[x]};
  };
  plane vlo(W, m1), vhi(W, m1);
  for (int i = 0; i < m1; ++i)
    for (int x = 0; x < W; ++x) {
      i64 sl = 0, sh = 0;
      for (int k = 0; k < 4; ++k) {
        sl += i64{T::lo[k]} * X(iy[i][k], x);
        sh += i64{T::hi[k]} * X(iy[i][k], x);
      }
      vlo(i, x) = wrap16(wrap32(wrap32(sl - i64{T::lo_sum} * R) + R) >> S);
      vhi(i, x) = wrap16(wrap32(wrap32(sh) + R) >> S);
    }
  bands out;
  out.a = plane(w0, m1);
  if (!lo_only) out.v = plane(w0, m1), out.h = plane(w0, m1), out.d = plane(w0, m1);
  auto hpass = [&](const plane& t, const std::array<std::int32_t, 4>& f, int i, int j) {
    i64 s = 0;
    for (int k = 0; k < 4; ++k) s += i64{f[k]} * t(i, ix[j][k]);
    return wrap16(wrap32(s + 32768) >> 16);
  };
  for (int i = 0; i < m1; ++i)
    for (int j = 0; j < w0; ++j) {
      out.a(i, j) = hpass(vlo, T::lo, i, j);
      if (lo_only) continue;
      out.v(i, j) = hpass(vlo, T::hi, i, j);
      out.h(i, j) = hpass(vhi, T::lo, i, j);
      out.d(i, j) = hpass(vhi, T::hi, i, j);
    }
  return out;
}

// §4.4 scales 1..3 from band a of the previous scale.
inline bands dwt_s(const plane& A, int s) {
  const int W = A.w, H = A.h;
  const auto iy = dwt_index(H), ix = dwt_index(W);
  const int mh = (H + 1) / 2, mw = (W + 1) / 2;
  const i64 vr = T::v_round[s - 1], hr = T::h_round[s - 1];
  const int vs = T::v_shift[s - 1], hs = T::h_shift[s - 1];
  plane tlo(W, mh), thi(W, mh);
  for (int i = 0; i < mh; ++i)
    for (int x = 0; x < W; ++x) {
      i64 sl = 0, sh = 0;
      for (int k = 0; k < 4; ++k) {
        sl += i64{T::lo[k]} * A(iy[i][k], x);
        sh += i64{T::hi[k]} * A(iy[i][k], x);
      }
      tlo(i, x) = wrap32((sl + vr) >> vs);
      thi(i, x) = wrap32((sh + vr) >> vs);
    }
  bands out;
  out.a = plane(mw, mh), out.v = plane(mw, mh), out.h = plane(mw, mh), out.d = plane(mw, mh);
  auto hpass = [&](const plane& t, const std::array<std::int32_t, 4>& f, int i, int j) {
    i64 acc = 0;
    for (int k = 0; k < 4; ++k) acc += i64{f[k]} * t(i, ix[j][k]);
    return wrap32((acc + hr) >> hs);
  };
  for (int i = 0; i < mh; ++i)
    for (int j = 0; j < mw; ++j) {
      out.a(i, j) = hpass(tlo, T::lo, i, j);
      out.v(i, j) = hpass(tlo, T::hi, i, j);
      out.h(i, j) = hpass(thi, T::lo, i, j);
      out.d(i, j) = hpass(thi, T::hi, i, j);
    }
  return out;
}

// §7.1 angle flag from the h and v bands.
inline bool angle_flag(i64 oh, i64 ov, i64 th, i64 tv) {
  const double p = static_cast<double>(static_cast<float>(oh * th + ov * tv)) / 4096.0;
  const double o = static_cast<double>(static_cast<float>(oh * oh + ov * ov)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(th * th + tv * tv)) / 4096.0;
  return p >= 0.0 && p * p >= (T::cos1_sq * o) * t;
}

inline i64 recip(i64 m) { return m < 0 ? -i64{T::reciprocal(static_cast<std::int32_t>(-m))} : T::reciprocal(static_cast<std::int32_t>(m)); }

// §7: (rst, add) of one band value; s = scale.
inline void decouple(int s, i64 o, i64 t, bool flag, double egl, i64& rst, i64& add) {
  i64 k;
  if (o == 0) {
    k = 32768;
  } else if (s == 0) {
    k = (recip(o) * t + 16384) >> 15;
  } else {
    const i64 ab = o < 0 ? -o : o;
    int e = 0;
    i64 m = ab;
    if (ab >= 32768) {
      e = T::bit_length(static_cast<std::uint64_t>(ab)) - 15;
      m = (ab + (i64{1} << (e - 1))) >> e;
    }
    k = ((recip(m) * t) * (o < 0 ? -1 : 1) + (i64{1} << (14 + e))) >> (15 + e);
  }
  k = k < 0 ? 0 : k > 32768 ? 32768 : k;
  const auto wrap = s == 0 ? wrap16 : wrap32;
  rst = wrap((k * o + 16384) >> 15);
  if (flag && k > 0) {
    const double x = static_cast<double>(rst) * egl, tf = static_cast<double>(t);
    if (o > 0) rst = wrap(static_cast<i64>(std::trunc(x < tf ? x : tf)));
    else if (o < 0) rst = wrap(static_cast<i64>(std::trunc(x > tf ? x : tf)));
  }
  add = wrap(t - rst);
}

// §8: CSF value c and 1/30-filtered value f of band b.
inline void csf(int s, int b, i64 x, const adm_request& q, i64& c, i64& f) {
  if (s == 0) {
    c = wrap16(wrap32(i64{q.irf0[b]} * x + T::csf0_round[static_cast<std::size_t>(b)]) >> T::csf0_shift[static_cast<std::size_t>(b)]);
    f = wrap16((i64{T::f30_s0} * (c < 0 ? -c : c) + 2048) >> 12);
  } else {
    c = wrap32((i64{q.irf[s - 1][b]} * x + (i64{1} << 27)) >> 28);
    f = wrap32((T::f30_s * (c < 0 ? -c : c) + T::quirk_round) >> 32);
  }
}

// §9: contrast masking of `y` (3 bands) with masker (C, F) (3 bands each); per-band accumulators.
inline void masking(int s, const std::array<plane, 3>& y, const std::array<plane, 3>& C, const std::array<plane, 3>& F,
                    const adm_request& q, std::int64_t acc[3]) {
  const int w = y[0].w, h = y[0].h;
  const auto reg = T::inner_region(w, h);
  auto rho = [](int i, int n) { return i < 0 ? 1 : i >= n ? n - 1 : i; };
  const int r = T::ceil_log2(static_cast<std::uint64_t>(h));
  for (int b = 0; b < 3; ++b) {
    i64 total = 0;
    for (int i = reg.top; i < reg.bottom; ++i) {
      i64 row = 0;
      for (int j = reg.left; j < reg.right; ++j) {
        i64 thr = 0;
        for (int bb = 0; bb < 3; ++bb) {
          const i64 c = C[bb](i, j), ac = c < 0 ? -c : c;
          thr += s == 0 ? wrap16((i64{T::f15_s0} * ac + 2048) >> 12) : wrap32((T::f15_s * ac + T::quirk_round) >> 32);
          for (int di = -1; di <= 1; ++di)
            for (int dj = -1; dj <= 1; ++dj)
              if (di != 0 || dj != 0) thr += F[bb](rho(i + di, h), rho(j + dj, w));
        }
        thr = wrap32(thr);
        i64 val;
        if (s == 0) {
          const bool d = b == 2;
          const int sub = d ? 12 : 10, sq = d ? 30 : 29;
          const i64 rsq = i64{1} << (d ? 29 : 28);
          const int cb = T::bit_length(static_cast<std::uint64_t>(w - 1)) - (d ? 3 : 4);
          i64 x = wrap32(y[b](i, j) * i64{q.irf0[b]});
          x = wrap32((x < 0 ? -x : x) - wrap32(thr << sub));
          x = x < 0 ? 0 : x;
          const i64 x2 = wrap32((x * x + rsq) >> sq);
          val = (x2 * x + (i64{1} << (cb - 1))) >> cb;
        } else {
          const int cs = T::ceil_log2(static_cast<std::uint64_t>(w));
          i64 x = wrap32((y[b](i, j) * i64{q.irf[s - 1][b]} + (i64{1} << 27)) >> 28);
          x = wrap32((x < 0 ? -x : x) - thr);
          x = x < 0 ? 0 : x;
          const i64 x2 = wrap32((x * x + (i64{1} << 29)) >> 30);
          val = (x2 * x + (i64{1} << (cs - 1))) >> cs;
        }
        row += val;
      }
      total += (row + (i64{1} << (r - 1))) >> r;
    }
    acc[b] = total;
  }
}

// §10: denominator accumulators of the reference bands.
inline void denominator(int s, const bands& ref, std::uint64_t acc[3]) {
  const int w = ref.h.w, h = ref.h.h;
  const auto reg = T::inner_region(w, h);
  for (int b = 0; b < 3; ++b) {
    const plane& o = ref.hvd(b);
    std::uint64_t total = 0;
    if (s == 0) {
      const int z0 = T::bit_length(static_cast<std::uint64_t>(reg.area() - 1)) - 20;
      const int z = z0 > 0 ? z0 : 0;
      const std::uint64_t rnd = z > 0 ? std::uint64_t{1} << (z - 1) : 0;
      for (int i = reg.top; i < reg.bottom; ++i) {
        std::uint64_t row = 0;
        for (int j = reg.left; j < reg.right; ++j) {
          const std::uint64_t m = static_cast<std::uint16_t>(o(i, j) < 0 ? -o(i, j) : o(i, j));
          row += m * m * m;
        }
        total += (row + rnd) >> z;
      }
    } else {
      const int qs = s == 2 ? 30 : 31;
      const int c = T::ceil_log2(static_cast<std::uint64_t>(reg.right - reg.left));
      const int z = T::ceil_log2(static_cast<std::uint64_t>(reg.bottom - reg.top));
      for (int i = reg.top; i < reg.bottom; ++i) {
        std::uint64_t row = 0;
        for (int j = reg.left; j < reg.right; ++j) {
          const std::uint64_t m = static_cast<std::uint64_t>(o(i, j) < 0 ? -o(i, j) : o(i, j));
          row += ((((m * m) + (std::uint64_t{1} << qs)) >> qs) * m + (std::uint64_t{1} << (c - 1))) >> c;
        }
        total += (row + (std::uint64_t{1} << (z - 1))) >> z;
      }
    }
    acc[b] = total;
  }
}

inline void score_scale(int s, const bands& ref, const bands& dis, const adm_request& q, adm_partials& out) {
  const int w = ref.h.w, h = ref.h.h;
  std::array<plane, 3> rst, add, cr, fr, ca, fa;
  for (int b = 0; b < 3; ++b)
    rst[b] = add[b] = cr[b] = fr[b] = ca[b] = fa[b] = plane(w, h);
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      const bool flag = angle_flag(ref.h(i, j), ref.v(i, j), dis.h(i, j), dis.v(i, j));
      for (int b = 0; b < 3; ++b) {
        decouple(s, ref.hvd(b)(i, j), dis.hvd(b)(i, j), flag, q.enhn_gain_limit, rst[b](i, j), add[b](i, j));
        csf(s, b, add[b](i, j), q, ca[b](i, j), fa[b](i, j));
        csf(s, b, rst[b](i, j), q, cr[b](i, j), fr[b](i, j));
      }
    }
  denominator(s, ref, out.den[s]);
  masking(s, rst, ca, fa, q, out.dlm[s]);
  if (!q.skip_aim) masking(s, add, cr, fr, q, out.aim[s]);
}

}  // namespace adm_detail

// The exact integer accumulators of one frame (luma planes of equal size, W, H >= 33, bpc 8..16).
[[nodiscard]] inline adm_partials adm(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q) {
  using namespace adm_detail;
  adm_partials out;
  bands r = dwt0(ref, bpc, q.skip_scale0), d = dwt0(dis, bpc, q.skip_scale0);
  if (!q.skip_scale0) score_scale(0, r, d, q, out);
  for (int s = 1; s < 4; ++s) {
    r = dwt_s(r.a, s);
    d = dwt_s(d.a, s);
    score_scale(s, r, d, q, out);
  }
  return out;
}

}  // namespace vqm::cpu::reference
