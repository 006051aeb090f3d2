// SpEED's prescale tables (libvmaf's vif_scale_frame_s as speed.c calls it; SPEC-vmaf-v1 §B.4), host math
// shared by every backend: per destination row and column, the source indices and binary32 weights of
// nearest, bilinear, bicubic (Keys, a = −0.75) or lanczos4 (double sin), with libvmaf's source positions
// (binary32 ratio, one rounding of a double position) and its single-reflection mirror (edge sample not
// repeated; the bilinear fraction measured from the mirrored index). The kernels (cpu/speed_prescale.hpp,
// shaders/speed.comp) apply them with libvmaf's 2-D, non-separable binary32 sums. Indices stay inside the
// plane for every size SpEED accepts (source ≥ 20).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/metrics/speed.hpp"

namespace vqm::speed {

// libvmaf's float mirror of an integer-valued position k into [0, n−1].
[[nodiscard]] inline float mirror_f(float k, int n) noexcept {
  const auto right = static_cast<float>(n - 1);
  return k < 0 ? -k : (k > right ? 2 * right - k : k);
}

// The source position of destination index i: (f32)((i + 0.5)·(double)ratio − 0.5), ratio = (f32)s/(f32)d.
[[nodiscard]] inline float source_position(int i, int s, int d) noexcept {
  const float ratio = static_cast<float>(s) / static_cast<float>(d);
  return static_cast<float>((i + 0.5) * static_cast<double>(ratio) - 0.5);
}

[[nodiscard]] inline float keys_cubic(float t) noexcept {
  t = std::fabs(t);
  if (t < 1) return ((1.25f * t - 2.25f) * t) * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * -0.75f;
  return 0.0f;
}

[[nodiscard]] inline float lanczos4(float x) noexcept {
  const double v = x;
  if (v == 0.0) return 1.0f;
  if (!(v > -4.0 && v < 4.0)) return 0.0f;
  const double pi = 3.14159265358979323846;
  return static_cast<float>(((4.0 * std::sin(pi * v)) * std::sin((pi * v) / 4.0)) / (((pi * pi) * v) * v));
}

// One axis of a kernel resampler: per destination index, `taps` source indices and weights.
struct axis_taps {
  int taps = 0;
  std::vector<int> index;
  std::vector<float> weight;
};

inline void make_taps(axis_taps& a, int s, int d, scale_method m) {
  const int lo = m == scale_method::bicubic ? -1 : -4, hi = m == scale_method::bicubic ? 2 : 4;
  a.taps = hi - lo + 1;
  a.index.resize(static_cast<std::size_t>(d) * a.taps);
  a.weight.resize(a.index.size());
  for (int i = 0; i < d; ++i) {
    const float p = source_position(i, s, d);
    const auto b = static_cast<int>(std::floor(p));
    const float f = p - static_cast<float>(b);
    for (int k = lo; k <= hi; ++k) {
      const std::size_t at = static_cast<std::size_t>(i) * a.taps + static_cast<std::size_t>(k - lo);
      a.index[at] = static_cast<int>(mirror_f(static_cast<float>(b + k), s));
      const float t = static_cast<float>(k) - f;
      a.weight[at] = m == scale_method::bicubic ? keys_cubic(t) : lanczos4(t);
    }
  }
}

struct bilinear_axis {
  std::vector<int> lo, hi;
  std::vector<float> frac;
};

inline void make_bilinear(bilinear_axis& a, int s, int d) {
  a.lo.resize(static_cast<std::size_t>(d));
  a.hi.resize(a.lo.size());
  a.frac.resize(a.lo.size());
  for (int i = 0; i < d; ++i) {
    const float p = source_position(i, s, d);
    const float l = mirror_f(std::floor(p), s), h = mirror_f(std::ceil(p), s);
    a.lo[static_cast<std::size_t>(i)] = static_cast<int>(l);
    a.hi[static_cast<std::size_t>(i)] = static_cast<int>(h);
    a.frac[static_cast<std::size_t>(i)] = p - l;
  }
}

// Tables of one (source, destination) geometry, kept between frames.
struct prescale_tables {
  int sw = 0, sh = 0, dw = 0, dh = 0;
  scale_method method = scale_method::nearest;
  axis_taps tx, ty;
  bilinear_axis bx, by;
  std::vector<int> nx, ny;

  void prepare(int src_w, int src_h, int dst_w, int dst_h, scale_method m) {
    if (src_w == sw && src_h == sh && dst_w == dw && dst_h == dh && m == method && (dw | dh) != 0) return;
    sw = src_w, sh = src_h, dw = dst_w, dh = dst_h, method = m;
    if (m == scale_method::bilinear) {
      make_bilinear(bx, sw, dw);
      make_bilinear(by, sh, dh);
    } else if (m == scale_method::nearest) {
      const auto nearest = [](std::vector<int>& v, int s, int d) {
        v.resize(static_cast<std::size_t>(d));
        const float r = static_cast<float>(s) / static_cast<float>(d);
        for (int i = 0; i < d; ++i) v[static_cast<std::size_t>(i)] = static_cast<int>(static_cast<float>(i) * r);
      };
      nearest(nx, sw, dw);
      nearest(ny, sh, dh);
    } else {
      make_taps(tx, sw, dw, m);
      make_taps(ty, sh, dh, m);
    }
  }
};

}  // namespace vqm::speed
