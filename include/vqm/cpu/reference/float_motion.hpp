// Reference kernel (scalar, the oracle of the tests): float_motion's SAD as libvmaf's C path
// (convolution_f32_c_s with FILTER_5_s, vmaf_image_sad_c): both lumas converted and blurred, then the
// serial float sums. The optimised kernel (cpu/float_motion.hpp) shares its filter, mirror and picture load.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/cpu/float_motion.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::reference {

namespace detail {

using cpu::detail::fmotion_filter, cpu::detail::fmotion_mirror, cpu::detail::fmotion_load;

struct fmotion_workspace {
  std::vector<float> pic, tmp, blur[2];
};

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

}  // namespace vqm::cpu::reference
