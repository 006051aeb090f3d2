// Reference kernel (scalar, the oracle of the tests): float_vif as libvmaf's scalar C path (vif.c,
// vif_tools.c) in its binary32 order, one row at a time: the five filtered moments of a row (vertical pass,
// then horizontal) feed the statistic at once, and the decimation filters only the even rows and columns
// it keeps. The optimised kernel (cpu/float_vif.hpp) shares its statistic, log2 and taps.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "vqm/cpu/normalize.hpp"
#include "vqm/metrics/float_vif.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

namespace fvif_detail {

// Mirror without repeating the edge sample: −t before 0, 2n − 2 − t from n on (n ≥ half the filter + 1).
[[nodiscard]] inline int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

// libvmaf's log2f replacement (VIF_OPT_FAST_LOG2): exponent plus a degree-8 polynomial of the mantissa
// in [1, 2), Horner in binary32.
[[nodiscard]] inline float log2_approx(float x) noexcept {
  static constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
                                    0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                                    -0.721314327952201f, 1.442694803896991f,  0.0f};
  if (x == 0) return -__builtin_inff();
  if (x < 0) return __builtin_nanf("");
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  const std::uint32_t m = (u & 0x007FFFFFu) | 0x3F800000u;
  float r;
  std::memcpy(&r, &m, sizeof r);
  const auto base = static_cast<float>(static_cast<std::int32_t>((u & 0x7F800000u) >> 23) - 127);
  const float t = r - 1.0f;
  float v = 0;
  for (float c : poly) v = v * t + c;
  return base + v;
}

// One pixel of vif_statistic_s ('matching_matlab'); quotients by σ_nsq in double, rounded to binary32
// once as log2's argument.
struct statistic {
  float egl, sigma_max_inv;
  double nsq;
  void operator()(float mu1, float mu2, float xx, float yy, float xy, float& num, float& den) const noexcept {
    constexpr float eps = 1.0e-10f;
    float s1 = xx - mu1 * mu1, s2 = yy - mu2 * mu2;
    const float s12 = xy - mu1 * mu2;
    s1 = s1 > 0.0f ? s1 : 0.0f;
    s2 = s2 > 0.0f ? s2 : 0.0f;
    float g = s12 / (s1 + eps);
    float sv = s2 - g * s12;
    if (s1 < eps) {
      g = 0.0f;
      sv = s2;
      s1 = 0.0f;
    }
    if (s2 < eps) {
      g = 0.0f;
      sv = 0.0f;
    }
    if (g < 0.0f) {
      sv = s2;
      g = 0.0f;
    }
    sv = sv > eps ? sv : eps;
    g = g < egl ? g : egl;
    num = log2_approx(static_cast<float>(1.0f + static_cast<double>(g * g * s1) / (static_cast<double>(sv) + nsq)));
    den = log2_approx(static_cast<float>(1.0f + static_cast<double>(s1) / nsq));
    if (s12 < 0.0f) num = 0.0f;
    if (s1 < nsq) {
      num = 1.0f - s2 * sigma_max_inv;
      den = 1.0f;
    }
  }
};

// A w×h binary32 image, rows packed.
struct image {
  std::vector<float> v;
  int w = 0, h = 0;
  [[nodiscard]] const float* row(int y) const noexcept { return v.data() + static_cast<std::ptrdiff_t>(y) * w; }
};

struct workspace {
  image a[2], b[2];                  // the current scale's pictures (ping-pong a/b)
  std::vector<float> col[5];         // a row's vertical pass of the five moments
};

// Vertical pass of row y: col = Σ f·ref (and dis); with moments, also Σ f·(ref·ref), Σ f·(dis·dis),
// Σ f·(ref·dis). Each sum from 0, taps in order, products rounded before adding (no contraction).
inline void vertical(const float* f, int fw, const image& r, const image& d, int y, bool moments, workspace& ws) {
  const int w = r.w;
  for (auto& c : ws.col) c.assign(static_cast<std::size_t>(w), 0.0f);
  for (int k = 0; k < fw; ++k) {
    const int yy = mirror(y - fw / 2 + k, r.h);
    const float c = f[k];
    const float* pr = r.row(yy);
    const float* pd = d.row(yy);
    float* c0 = ws.col[0].data();
    float* c1 = ws.col[1].data();
    for (int x = 0; x < w; ++x) {
      c0[x] += c * pr[x];
      c1[x] += c * pd[x];
    }
    if (!moments) continue;
    float* c2 = ws.col[2].data();
    float* c3 = ws.col[3].data();
    float* c4 = ws.col[4].data();
    for (int x = 0; x < w; ++x) {
      c2[x] += c * (pr[x] * pr[x]);
      c3[x] += c * (pd[x] * pd[x]);
      c4[x] += c * (pr[x] * pd[x]);
    }
  }
}

// Horizontal pass of one column buffer at x.
[[nodiscard]] inline float horizontal(const float* f, int fw, const float* c, int x, int w) noexcept {
  float acc = 0;
  for (int k = 0; k < fw; ++k) acc += f[k] * c[mirror(x - fw / 2 + k, w)];
  return acc;
}

// Filter both pictures with f and keep the even rows and columns (vif_filter1d_s, then vif_dec2_s).
inline void decimate(const float* f, int fw, const image& r, const image& d, image& ro, image& dout, workspace& ws) {
  ro.w = dout.w = r.w / 2;
  ro.h = dout.h = r.h / 2;
  ro.v.resize(static_cast<std::size_t>(ro.w) * ro.h);
  dout.v.resize(ro.v.size());
  for (int y = 0; y < ro.h; ++y) {
    vertical(f, fw, r, d, 2 * y, false, ws);
    float* a = ro.v.data() + static_cast<std::ptrdiff_t>(y) * ro.w;
    float* b = dout.v.data() + static_cast<std::ptrdiff_t>(y) * ro.w;
    for (int x = 0; x < ro.w; ++x) {
      a[x] = horizontal(f, fw, ws.col[0].data(), 2 * x, r.w);
      b[x] = horizontal(f, fw, ws.col[1].data(), 2 * x, r.w);
    }
  }
}

// One scale's num and den: per row the binary32 sum of its terms, the rows added in order.
inline void scale_sums(const float* f, int fw, const image& r, const image& d, const statistic& st, float& num,
                       float& den, workspace& ws) {
  float acc_num = 0.0f, acc_den = 0.0f;
  for (int y = 0; y < r.h; ++y) {
    vertical(f, fw, r, d, y, true, ws);
    float row_num = 0, row_den = 0;
    for (int x = 0; x < r.w; ++x) {
      float n, dd;
      st(horizontal(f, fw, ws.col[0].data(), x, r.w), horizontal(f, fw, ws.col[1].data(), x, r.w),
         horizontal(f, fw, ws.col[2].data(), x, r.w), horizontal(f, fw, ws.col[3].data(), x, r.w),
         horizontal(f, fw, ws.col[4].data(), x, r.w), n, dd);
      row_num += n;
      row_den += dd;
    }
    acc_num += row_num;
    acc_den += row_den;
  }
  num = acc_num;
  den = acc_den;
}

// The float picture of float_vif: f32(sample) / 2^(bpc−8) − 128, exact.
inline void load(const plane_view& p, std::uint32_t bit_depth, image& out) {
  out.w = static_cast<int>(p.width);
  out.h = static_cast<int>(p.height);
  out.v.resize(static_cast<std::size_t>(out.w) * out.h);
  normalize_plane(p, bit_depth, out.v.data());
  for (auto& v : out.v) v += -128.0f;
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
  image* cur = ws.a;
  image* nxt = ws.b;
  float_vif_partials out;
  for (int s = 0; s < 4; ++s) {
    const auto taps = fvif::filter_taps(s, q.kernelscale);
    const int fw = static_cast<int>(taps.size());
    if (s > 0) {
      decimate(taps.data(), fw, cur[0], cur[1], nxt[0], nxt[1], ws);
      std::swap(cur, nxt);
    }
    if (s > 0 || !q.skip_scale0) scale_sums(taps.data(), fw, cur[0], cur[1], st, out.num[s], out.den[s], ws);
  }
  return out;
}

}  // namespace vqm::cpu::reference
