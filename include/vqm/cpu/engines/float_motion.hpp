// Cpu kernel and schedule of float_motion. Temporal: the raw reference luma is captured into the metric's
// ring (cpu::motion_state, as integer motion's) when the frame is recorded, in presentation order; the
// kernel converts and blurs the two lumas it compares and sums |difference| in libvmaf's float order.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/motion.hpp"
#include "vqm/metrics/float_motion.hpp"

namespace vqm::cpu {

namespace detail {

// libvmaf's FILTER_5_s: double constants rounded to float.
inline constexpr float fmotion_filter[5] = {static_cast<float>(0.054488685), static_cast<float>(0.244201342),
                                            static_cast<float>(0.402619947), static_cast<float>(0.244201342),
                                            static_cast<float>(0.054488685)};

// libvmaf 3.2's convolution edge: −t before the start, 2n−2−t past the end (the edge sample not repeated);
// n >= 3.
[[nodiscard]] constexpr std::int64_t fmotion_mirror(std::int64_t t, std::int64_t n) noexcept {
  return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t);
}

struct fmotion_workspace {
  std::vector<float> pic, tmp, blur[2];
};

// libvmaf's picture_copy: f32(sample) / 2^(bpc−8) − 128 (exact), row-major w×h.
template <class T>
inline void fmotion_load(const plane_view& p, unsigned bpc, float* dst) noexcept {
  const float scaler = static_cast<float>(1u << (bpc - 8));
  const float offset = -128.0f;
  for (std::uint32_t y = 0; y < p.height; ++y) {
    const T* row = p.row<T>(y);
    float* d = dst + std::size_t{y} * p.width;
    for (std::uint32_t x = 0; x < p.width; ++x) d[x] = static_cast<float>(row[x]) / scaler + offset;
  }
}

// convolution_f32_c_s with FILTER_5_s: the vertical pass into tmp, then the horizontal one into dst; each
// output is 0 + f0·s0 + f1·s1 + ... + f4·s4 in float, left to right (no contraction).
inline void fmotion_blur(const float* src, float* tmp, float* dst, std::int64_t w, std::int64_t h) noexcept {
  const float* f = fmotion_filter;
  for (std::int64_t i = 0; i < h; ++i) {
    const float* r0 = src + fmotion_mirror(i - 2, h) * w;
    const float* r1 = src + fmotion_mirror(i - 1, h) * w;
    const float* r2 = src + i * w;
    const float* r3 = src + fmotion_mirror(i + 1, h) * w;
    const float* r4 = src + fmotion_mirror(i + 2, h) * w;
    float* t = tmp + i * w;
    for (std::int64_t j = 0; j < w; ++j) {
      float a = 0.0f;
      a += f[0] * r0[j];
      a += f[1] * r1[j];
      a += f[2] * r2[j];
      a += f[3] * r3[j];
      a += f[4] * r4[j];
      t[j] = a;
    }
  }
  for (std::int64_t i = 0; i < h; ++i) {
    const float* t = tmp + i * w;
    float* d = dst + i * w;
    const auto edge = [&](std::int64_t j) {
      float a = 0.0f;
      for (std::int64_t k = 0; k < 5; ++k) a += f[k] * t[fmotion_mirror(j - 2 + k, w)];
      d[j] = a;
    };
    const std::int64_t lo = w < 2 ? w : 2, hi = w - 2 > lo ? w - 2 : lo;
    for (std::int64_t j = 0; j < lo; ++j) edge(j);
    for (std::int64_t j = lo; j < hi; ++j) {
      float a = 0.0f;
      a += f[0] * t[j - 2];
      a += f[1] * t[j - 1];
      a += f[2] * t[j];
      a += f[3] * t[j + 1];
      a += f[4] * t[j + 2];
      d[j] = a;
    }
    for (std::int64_t j = hi; j < w; ++j) edge(j);
  }
}

// vmaf_image_sad_c without its division: each row's |a − b| summed in float, the rows' sums added in float.
[[nodiscard]] inline float fmotion_sad(const float* a, const float* b, std::int64_t w, std::int64_t h) noexcept {
  float accum = 0.0f;
  for (std::int64_t i = 0; i < h; ++i) {
    float line = 0.0f;
    for (std::int64_t j = 0; j < w; ++j) line += std::fabs(a[i * w + j] - b[i * w + j]);
    accum += line;
  }
  return accum;
}

}  // namespace detail

// float_motion's SAD sum between the blurred previous and current reference lumas (equal sizes, >= 3x3,
// bpc 8, 10, 12 or 16).
[[nodiscard]] inline float float_motion_sad(const plane_view& prev, const plane_view& cur, unsigned bpc) {
  thread_local detail::fmotion_workspace ws;
  const std::int64_t w = cur.width, h = cur.height;
  const auto n = static_cast<std::size_t>(w * h);
  for (auto* v : {&ws.pic, &ws.tmp, &ws.blur[0], &ws.blur[1]})
    if (v->size() < n) v->resize(n);
  const plane_view* p[2] = {&prev, &cur};
  for (int k = 0; k < 2; ++k) {
    if (bpc > 8) detail::fmotion_load<std::uint16_t>(*p[k], bpc, ws.pic.data());
    else detail::fmotion_load<std::uint8_t>(*p[k], bpc, ws.pic.data());
    detail::fmotion_blur(ws.pic.data(), ws.tmp.data(), ws.blur[k].data(), w, h);
  }
  return detail::fmotion_sad(ws.blur[0].data(), ws.blur[1].data(), w, h);
}

struct float_motion_engine {
  using float_motion_state = cpu::motion_state;

  [[nodiscard]] float_motion_state make_float_motion_state(const picture_format& f, std::size_t ring) const {
    return float_motion_state(f, ring);
  }

  struct fmotion_pair {
    plane_view prev, cur;
  };
  static void run_float_motion(const picture_view& r, const picture_view&, const fmotion_pair& q,
                               float_motion_partials& out) {
    out.sad = float_motion_sad(q.prev, q.cur, r.format.bit_depth);
    out.computed = true;
  }

  void float_motion(frame& f, float_motion_state& s, float_motion_partials& out) const {
    const std::size_t n = s.capture(f.ref().planes[0]);
    out = {};
    if (n >= 1) f.record<&run_float_motion>(fmotion_pair{s.at(n - 1), s.at(n)}, out);
  }
};

}  // namespace vqm::cpu
