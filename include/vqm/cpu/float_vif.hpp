// Cpu kernel of float_vif: libvmaf's scalar C path (vif.c, vif_tools.c) in its binary32 order, one row at a
// time, bit-identical to cpu/reference/float_vif.hpp. Each vector lane is one output sample doing exactly
// the scalar operations of that sample (sums from 0 in tap order, products rounded before the add, no FMA),
// so every level gives the same bits: the five vertical sums of a row go into mirror-padded rows, the
// horizontal sums feed the statistic at once, and only the row and scale sums stay serial, as libvmaf's.
// Written once on the lane count (cpu/float_lanes.hpp): 4 lanes at baseline, 8 under AVX2, 16 under AVX-512.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "vqm/cpu/float_lanes.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/metrics/float_vif.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace fvif_detail {

using simd::load, simd::store, flanes::splat, flanes::lanes, flanes::max_lanes;

// Mirror without repeating the edge sample: −t before 0, 2n − 2 − t from n on (n ≥ half the filter + 1).
[[nodiscard]] inline int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

// libvmaf's log2f replacement (VIF_OPT_FAST_LOG2) per lane: exponent plus a degree-8 polynomial of the
// mantissa in [1, 2), Horner in binary32; 0 gives −∞, a negative value NaN.
// (In place: GCC warns about wide vectors passed or returned by value even where it inlines them.)
template <int N>
VQM_CPU_INLINE void log2_approx(typename lanes<N>::f& x) noexcept {
  using F = typename lanes<N>::f;
  using I = typename lanes<N>::i;
  static constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
                                    0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                                    -0.721314327952201f, 1.442694803896991f,  0.0f};
  I u;
  std::memcpy(&u, &x, sizeof u);
  const I m = (u & 0x007FFFFF) | 0x3F800000;
  F r;
  std::memcpy(&r, &m, sizeof r);
  const F base = __builtin_convertvector(((u & 0x7F800000) >> 23) - 127, F);
  const F t = r - 1.0f;
  F v{};
  for (float c : poly) v = v * t + c;
  F out = base + v;
  out = x == 0.0f ? splat<F>(-__builtin_inff()) : out;
  x = x < 0.0f ? splat<F>(__builtin_nanf("")) : out;
}

// vif_statistic_s ('matching_matlab') per lane, the scalar reference's steps as selects in its order;
// the quotients by σ_nsq in double, rounded to binary32 once as log2's argument.
struct statistic {
  float egl, sigma_max_inv;
  double nsq;
  template <int N>
  VQM_CPU_INLINE void apply(const typename lanes<N>::f (&m)[5], typename lanes<N>::f& num,
                            typename lanes<N>::f& den) const noexcept {
    using F = typename lanes<N>::f;
    using D = typename lanes<N>::d;
    using I = typename lanes<N>::i;
    constexpr float eps = 1.0e-10f;
    const F zero{};
    const F &mu1 = m[0], &mu2 = m[1];  // then the filtered ref², dis², ref·dis
    F s1 = m[2] - mu1 * mu1, s2 = m[3] - mu2 * mu2;
    const F s12 = m[4] - mu1 * mu2;
    s1 = s1 > 0.0f ? s1 : zero;
    s2 = s2 > 0.0f ? s2 : zero;
    F g = s12 / (s1 + eps);
    F sv = s2 - g * s12;
    const I low1 = s1 < eps;
    g = low1 ? zero : g;
    sv = low1 ? s2 : sv;
    s1 = low1 ? zero : s1;
    const I low2 = s2 < eps;
    g = low2 ? zero : g;
    sv = low2 ? zero : sv;
    const I neg = g < 0.0f;
    sv = neg ? s2 : sv;
    g = neg ? zero : g;
    sv = sv > eps ? sv : splat<F>(eps);
    g = g < egl ? g : splat<F>(egl);
    const D s1d = __builtin_convertvector(s1, D);
    num = __builtin_convertvector(1.0 + __builtin_convertvector(g * g * s1, D) / (__builtin_convertvector(sv, D) + nsq), F);
    den = __builtin_convertvector(1.0 + s1d / nsq, F);
    log2_approx<N>(num);
    log2_approx<N>(den);
    num = s12 < 0.0f ? zero : num;
    const I below = __builtin_convertvector(s1d < nsq, I);
    num = below ? 1.0f - s2 * sigma_max_inv : num;
    den = below ? splat<F>(1.0f) : den;
  }
};

// A w×h binary32 image, rows packed, with max_lanes floats of slack after the last row.
struct image {
  std::vector<float> v;
  int w = 0, h = 0;
  [[nodiscard]] const float* row(int y) const noexcept { return v.data() + static_cast<std::ptrdiff_t>(y) * w; }
  void resize(int nw, int nh) {
    w = nw;
    h = nh;
    v.resize(static_cast<std::size_t>(w) * h + max_lanes);
  }
};

// Per-thread scratch, grown once and reused for every frame.
struct workspace {
  image a[2], b[2];                 // the current scale's pictures (ping-pong a/b)
  std::vector<float> pad[5];        // a row's vertical sums of the five moments, mirror-padded by fw/2
  std::vector<float> num, den;      // a row's per-pixel terms (decimation: the filtered row)
  std::vector<const float*> rows;   // the fw mirrored source rows of ref, then of dis
  std::vector<float> taps[4];       // the scales' filters for kernel scale `taps_ks`
  float taps_ks = 0.0f;
};

// Vertical pass of the rows `rows` (fw of ref, then fw of dis) into pad[0..1] (and with Moments the filtered
// squares and product into pad[2..4]) at offset fw/2, then the mirrored ends of each padded row.
template <int N, bool Moments>
VQM_CPU_INLINE void vertical(const float* f, int fw, int w, workspace& ws) noexcept {
  using F = typename lanes<N>::f;
  const float* const* rr = ws.rows.data();
  const float* const* rd = rr + fw;
  const int off = fw / 2;
  float* out[5];
  for (int i = 0; i < 5; ++i) out[i] = ws.pad[i].data() + off;
  for (int x = 0; x < w; x += N) {
    F a0{}, a1{}, a2{}, a3{}, a4{};
    for (int k = 0; k < fw; ++k) {
      const F c = splat<F>(f[k]);
      const F p = load<F>(rr[k] + x), q = load<F>(rd[k] + x);
      a0 += c * p;
      a1 += c * q;
      if constexpr (Moments) {
        a2 += c * (p * p);
        a3 += c * (q * q);
        a4 += c * (p * q);
      }
    }
    store(out[0] + x, a0);
    store(out[1] + x, a1);
    if constexpr (Moments) {
      store(out[2] + x, a2);
      store(out[3] + x, a3);
      store(out[4] + x, a4);
    }
  }
  for (int i = 0; i < (Moments ? 5 : 2); ++i)
    for (int j = 1; j <= off; ++j) {
      out[i][-j] = out[i][j];
      out[i][w - 1 + j] = out[i][w - 1 - j];
    }
}

// Points ws.rows at the fw mirrored rows around y of r, then of d.
inline void source_rows(int fw, const image& r, const image& d, int y, workspace& ws) noexcept {
  for (int k = 0; k < fw; ++k) {
    const int yy = mirror(y - fw / 2 + k, r.h);
    ws.rows[static_cast<std::size_t>(k)] = r.row(yy);
    ws.rows[static_cast<std::size_t>(fw + k)] = d.row(yy);
  }
}

// Filter both pictures with f and keep the even rows and columns (vif_filter1d_s, then vif_dec2_s).
template <int N>
VQM_CPU_INLINE void decimate(const float* f, int fw, const image& r, const image& d, image& ro, image& dout,
                             workspace& ws) {
  using F = typename lanes<N>::f;
  ro.resize(r.w / 2, r.h / 2);
  dout.resize(r.w / 2, r.h / 2);
  for (int y = 0; y < ro.h; ++y) {
    source_rows(fw, r, d, 2 * y, ws);
    vertical<N, false>(f, fw, r.w, ws);
    const float* pr = ws.pad[0].data();
    const float* pd = ws.pad[1].data();
    for (int x = 0; x < r.w; x += N) {
      F a{}, b{};
      for (int k = 0; k < fw; ++k) {
        const F c = splat<F>(f[k]);
        a += c * load<F>(pr + x + k);
        b += c * load<F>(pd + x + k);
      }
      store(ws.num.data() + x, a);
      store(ws.den.data() + x, b);
    }
    float* oa = ro.v.data() + static_cast<std::ptrdiff_t>(y) * ro.w;
    float* ob = dout.v.data() + static_cast<std::ptrdiff_t>(y) * ro.w;
    for (int x = 0; x < ro.w; ++x) {
      oa[x] = ws.num[static_cast<std::size_t>(2 * x)];
      ob[x] = ws.den[static_cast<std::size_t>(2 * x)];
    }
  }
}

// One scale's num and den: per row the binary32 sum of its terms, the rows added in order.
template <int N>
VQM_CPU_INLINE void scale_sums(const float* f, int fw, const image& r, const image& d, const statistic& st, float& num,
                               float& den, workspace& ws) noexcept {
  using F = typename lanes<N>::f;
  float acc_num = 0.0f, acc_den = 0.0f;
  const float* p[5];
  for (int i = 0; i < 5; ++i) p[i] = ws.pad[i].data();
  for (int y = 0; y < r.h; ++y) {
    source_rows(fw, r, d, y, ws);
    vertical<N, true>(f, fw, r.w, ws);
    for (int x = 0; x < r.w; x += N) {
      F m[5] = {};
      for (int k = 0; k < fw; ++k) {
        const F c = splat<F>(f[k]);
        for (int i = 0; i < 5; ++i) m[i] += c * load<F>(p[i] + x + k);
      }
      F n, dd;
      st.apply<N>(m, n, dd);
      store(ws.num.data() + x, n);
      store(ws.den.data() + x, dd);
    }
    float row_num = 0, row_den = 0;
    for (int x = 0; x < r.w; ++x) {
      row_num += ws.num[static_cast<std::size_t>(x)];
      row_den += ws.den[static_cast<std::size_t>(x)];
    }
    acc_num += row_num;
    acc_den += row_den;
  }
  num = acc_num;
  den = acc_den;
}

// The float picture of float_vif: f32(sample) / 2^(bpc−8) − 128, exact.
inline void load(const plane_view& p, std::uint32_t bit_depth, image& out) {
  out.resize(static_cast<int>(p.width), static_cast<int>(p.height));
  normalize_plane(p, bit_depth, out.v.data());
  const std::size_t n = static_cast<std::size_t>(out.w) * out.h;
  for (std::size_t i = 0; i < n; ++i) out.v[i] += -128.0f;
}

// Sizes the row buffers for a w-wide scale 0 and the taps for q's kernel scale (once per size/scale).
inline void prepare(int w, const float_vif_request& q, workspace& ws) {
  if (ws.taps_ks != q.kernelscale || ws.taps[0].empty()) {
    for (int s = 0; s < 4; ++s) ws.taps[s] = fvif::filter_taps(s, q.kernelscale);
    ws.taps_ks = q.kernelscale;
  }
  const auto fw = ws.taps[0].size();  // the widest filter
  const auto n = static_cast<std::size_t>(w) + fw + max_lanes;
  for (auto& b : ws.pad) b.resize(n);
  ws.num.resize(n);
  ws.den.resize(n);
  ws.rows.resize(2 * fw);
}

template <int N>
VQM_CPU_INLINE void run(const statistic& st, const float_vif_request& q, workspace& ws, float_vif_partials& out) {
  image* cur = ws.a;
  image* nxt = ws.b;
  for (int s = 0; s < 4; ++s) {
    const float* f = ws.taps[s].data();
    const int fw = static_cast<int>(ws.taps[s].size());
    if (s > 0) {
      decimate<N>(f, fw, cur[0], cur[1], nxt[0], nxt[1], ws);
      std::swap(cur, nxt);
    }
    if (s > 0 || !q.skip_scale0) scale_sums<N>(f, fw, cur[0], cur[1], st, out.num[s], out.den[s], ws);
  }
}

}  // namespace fvif_detail

// The four scales' binary32 num/den sums of libvmaf's compute_vif (no prescale).
[[nodiscard]] inline float_vif_partials float_vif(const plane_view& ref, const plane_view& dis,
                                                  std::uint32_t bit_depth, const float_vif_request& q) {
  using namespace fvif_detail;
  thread_local workspace ws;
  const statistic st{static_cast<float>(q.gain_limit), fvif::sigma_max_inv(q.sigma_nsq), q.sigma_nsq};
  load(ref, bit_depth, ws.a[0]);
  load(dis, bit_depth, ws.a[1]);
  prepare(ws.a[0].w, q, ws);
  // The decimated scales are smaller: their images grow once, at the first frame.
  ws.b[0].v.reserve(ws.a[0].v.size() / 4 + max_lanes);
  ws.b[1].v.reserve(ws.a[0].v.size() / 4 + max_lanes);
  float_vif_partials out;
  flanes::with_lanes([&]<int N>() { run<N>(st, q, ws, out); });
  return out;
}

#pragma GCC diagnostic pop

}  // namespace vqm::cpu
