// The SSIM core shared by float_ssim and every MS-SSIM level (SPEC §4.5–§4.6): valid-mode 11-tap
// Gaussian statistics and the per-pixel l, c, s terms, summed in double.
//
// Exactness: every product is a float op, every tap sum a double accumulation in tap order rounded once
// to float, exactly as libvmaf; loops run across output samples so the compiler may vectorise without
// changing any single output's operation order.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/tables/ssim.hpp"

namespace vqm::cpu::reference {

struct ssim_workspace {
  std::vector<float> xx, yy, xy, tmp, mu_x, mu_y, s_xx, s_yy, s_xy;
  std::vector<double> acc;
};

namespace detail {

// F(img): horizontal then vertical valid-mode pass; out has (w−10)·(h−10) samples.
inline void ssim_filter(const float* img, int w, int h, float* tmp, double* acc, float* out) noexcept {
  constexpr auto& g = tables::ssim_window;
  const int ow = w - 10, oh = h - 10;
  for (int r = 0; r < h; ++r) {
    const float* in = img + static_cast<std::ptrdiff_t>(r) * w;
    for (int c = 0; c < ow; ++c) acc[c] = 0.0;
    for (int k = 0; k < 11; ++k)
      for (int c = 0; c < ow; ++c) acc[c] += static_cast<double>(in[c + k] * g[k]);
    float* t = tmp + static_cast<std::ptrdiff_t>(r) * ow;
    for (int c = 0; c < ow; ++c) t[c] = static_cast<float>(acc[c]);
  }
  for (int r = 0; r < oh; ++r) {
    for (int c = 0; c < ow; ++c) acc[c] = 0.0;
    for (int k = 0; k < 11; ++k) {
      const float* t = tmp + static_cast<std::ptrdiff_t>(r + k) * ow;
      for (int c = 0; c < ow; ++c) acc[c] += static_cast<double>(t[c] * g[k]);
    }
    float* o = out + static_cast<std::ptrdiff_t>(r) * ow;
    for (int c = 0; c < ow; ++c) o[c] = static_cast<float>(acc[c]);
  }
}

}  // namespace detail

// SSIM term sums of two float images of w×h; zeros when the valid map is empty.
inline ssim_partials ssim_terms(const float* x, const float* y, int w, int h, ssim_workspace& ws) {
  ssim_partials out{};
  if (w < 11 || h < 11) return out;
  const std::size_t n = static_cast<std::size_t>(w) * h;
  const std::size_t m = static_cast<std::size_t>(w - 10) * (h - 10);
  for (auto* v : {&ws.xx, &ws.yy, &ws.xy}) v->resize(n);
  ws.tmp.resize(static_cast<std::size_t>(w - 10) * h);
  for (auto* v : {&ws.mu_x, &ws.mu_y, &ws.s_xx, &ws.s_yy, &ws.s_xy}) v->resize(m);
  ws.acc.resize(static_cast<std::size_t>(w));
  for (std::size_t i = 0; i < n; ++i) {
    ws.xx[i] = x[i] * x[i];
    ws.yy[i] = y[i] * y[i];
    ws.xy[i] = x[i] * y[i];
  }
  detail::ssim_filter(x, w, h, ws.tmp.data(), ws.acc.data(), ws.mu_x.data());
  detail::ssim_filter(y, w, h, ws.tmp.data(), ws.acc.data(), ws.mu_y.data());
  detail::ssim_filter(ws.xx.data(), w, h, ws.tmp.data(), ws.acc.data(), ws.s_xx.data());
  detail::ssim_filter(ws.yy.data(), w, h, ws.tmp.data(), ws.acc.data(), ws.s_yy.data());
  detail::ssim_filter(ws.xy.data(), w, h, ws.tmp.data(), ws.acc.data(), ws.s_xy.data());

  constexpr float c1 = tables::ssim_c1, c2 = tables::ssim_c2, c3 = tables::ssim_c3;
  for (std::size_t i = 0; i < m; ++i) {
    const float mx = ws.mu_x[i], my = ws.mu_y[i];
    float vx = ws.s_xx[i] - mx * mx;
    float vy = ws.s_yy[i] - my * my;
    vx = vx < 0.0f ? 0.0f : vx;
    vy = vy < 0.0f ? 0.0f : vy;
    float cov = ws.s_xy[i] - mx * my;
    const float sd = std::sqrt(vx * vy);
    const double l = ((2.0 * static_cast<double>(mx)) * static_cast<double>(my) + static_cast<double>(c1)) /
                     static_cast<double>((mx * mx + my * my) + c1);
    const double c = (2.0 * static_cast<double>(sd) + static_cast<double>(c2)) / static_cast<double>((vx + vy) + c2);
    if (cov < 0.0f && sd <= 0.0f) cov = 0.0f;
    const double s = static_cast<double>((cov + c3) / (sd + c3));
    out.ssim += (l * c) * s;
    out.l += l;
    out.c += c;
    out.s += s;
  }
  return out;
}

}  // namespace vqm::cpu::reference
