// The SSIM core shared by float_ssim and every MS-SSIM level (SPEC §4.5–§4.6): valid-mode 11-tap
// Gaussian statistics and the per-pixel l, c, s terms, summed in double.
//
// Exactness: every lane is one output sample doing libvmaf's operations in libvmaf's order (float
// product, f64 accumulation in tap order from 0.0, one rounding to float; the per-pixel terms with
// their float/double mix). Only the four Σ over the map are serial double chains, and they stay serial
// in raster order. Speed: the horizontal pass feeds an 11-row ring per statistic, so the vertical pass
// and the per-pixel terms run right behind it on cache-resident rows; no full-size temporaries.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/tables/ssim.hpp"

namespace vqm::cpu {

// Per-thread scratch, grown once and reused for every frame.
struct ssim_workspace {
  std::vector<float> ring;   // 5 statistics × 11 rows × (w − 10), rows of the horizontal pass
  std::vector<float> prod;   // xx, yy, xy of the current input row
  std::vector<float> phase;  // decimation: mirror-padded input rows split by column phase
  std::vector<int> rows;     // decimation: mirrored row indices of one output row
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace detail {

// One input row through the horizontal 11-tap filter: out[c] for c in [0, ow).
template <bool Avx2>
VQM_CPU_INLINE void ssim_hfilter(const float* in, int ow, float* out) noexcept {
  using namespace simd;
  constexpr auto& g = tables::ssim_window;
  int c = 0;
  for (; c + 8 <= ow; c += 8) {
    d4 a0{}, a1{};
    for (int k = 0; k < 11; ++k) {
      const f4 gk = splat4(g[k]);
      a0 += widen<Avx2>(load<f4>(in + c + k) * gk);
      a1 += widen<Avx2>(load<f4>(in + c + 4 + k) * gk);
    }
    store(out + c, narrow(a0));
    store(out + c + 4, narrow(a1));
  }
  for (; c < ow; ++c) {
    double a = 0.0;
    for (int k = 0; k < 11; ++k) a += static_cast<double>(in[c + k] * g[k]);
    out[c] = static_cast<float>(a);
  }
}

// Scalar per-pixel terms (SPEC §4.6), for the row tails.
VQM_CPU_INLINE void ssim_pixel(float mx, float my, float sxx, float syy, float sxy, ssim_partials& out) noexcept {
  constexpr float c1 = tables::ssim_c1, c2 = tables::ssim_c2, c3 = tables::ssim_c3;
  float vx = sxx - mx * mx;
  float vy = syy - my * my;
  vx = vx < 0.0f ? 0.0f : vx;
  vy = vy < 0.0f ? 0.0f : vy;
  float cov = sxy - mx * my;
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

// One output row: vertical 11-tap pass of the five statistics, per-pixel terms, serial sums.
// rows[s·11 + k] is row k of the window of statistic s (μx, μy, Sxx, Syy, Sxy).
template <bool Avx2>
VQM_CPU_INLINE void ssim_vrow(const float* const* rows, int ow, ssim_partials& out) noexcept {
  using namespace simd;
  constexpr auto& g = tables::ssim_window;
  const f4 zero{}, c1 = splat4(tables::ssim_c1), c2 = splat4(tables::ssim_c2), c3 = splat4(tables::ssim_c3);
  const d4 dc1 = splat4d(static_cast<double>(tables::ssim_c1)), dc2 = splat4d(static_cast<double>(tables::ssim_c2));
  const d4 two = splat4d(2.0);
  int c = 0;
  for (; c + 4 <= ow; c += 4) {
    d4 a[5] = {};
    for (int k = 0; k < 11; ++k) {
      const f4 gk = splat4(g[k]);
      for (int s = 0; s < 5; ++s) a[s] += widen<Avx2>(load<f4>(rows[s * 11 + k] + c) * gk);
    }
    const f4 mx = narrow(a[0]), my = narrow(a[1]), sxx = narrow(a[2]), syy = narrow(a[3]), sxy = narrow(a[4]);
    f4 vx = sxx - mx * mx;
    f4 vy = syy - my * my;
    vx = vx < zero ? zero : vx;
    vy = vy < zero ? zero : vy;
    f4 cov = sxy - mx * my;
    const f4 sd = simd::sqrt(vx * vy);
    const d4 l = ((two * widen<Avx2>(mx)) * widen<Avx2>(my) + dc1) / widen<Avx2>((mx * mx + my * my) + c1);
    const d4 cc = (two * widen<Avx2>(sd) + dc2) / widen<Avx2>((vx + vy) + c2);
    cov = ((cov < zero) & (sd <= zero)) ? zero : cov;
    const d4 s = widen<Avx2>((cov + c3) / (sd + c3));
    const d4 lcs = (l * cc) * s;
    for (int i = 0; i < 4; ++i) {  // libvmaf's serial raster-order sums
      out.ssim += lcs[i];
      out.l += l[i];
      out.c += cc[i];
      out.s += s[i];
    }
  }
  for (; c < ow; ++c) {
    double a[5] = {};
    for (int k = 0; k < 11; ++k)
      for (int s = 0; s < 5; ++s) a[s] += static_cast<double>(rows[s * 11 + k][c] * g[k]);
    ssim_pixel(static_cast<float>(a[0]), static_cast<float>(a[1]), static_cast<float>(a[2]), static_cast<float>(a[3]),
               static_cast<float>(a[4]), out);
  }
}

template <bool Avx2>
VQM_CPU_INLINE ssim_partials ssim_terms_impl(const float* x, const float* y, int w, int h, ssim_workspace& ws) {
  ssim_partials out{};
  if (w < 11 || h < 11) return out;
  const int ow = w - 10;
  const std::size_t row = static_cast<std::size_t>(ow);
  ws.ring.resize(5 * 11 * row);
  ws.prod.resize(3 * static_cast<std::size_t>(w));
  float* ring = ws.ring.data();
  float* xx = ws.prod.data();
  float* yy = xx + w;
  float* xy = yy + w;
  const float* rows[55];
  for (int r = 0; r < h; ++r) {
    const float* xr = x + static_cast<std::ptrdiff_t>(r) * w;
    const float* yr = y + static_cast<std::ptrdiff_t>(r) * w;
    for (int i = 0; i < w; ++i) {
      xx[i] = xr[i] * xr[i];
      yy[i] = yr[i] * yr[i];
      xy[i] = xr[i] * yr[i];
    }
    const int slot = r % 11;
    const float* src[5] = {xr, yr, xx, yy, xy};
    for (int s = 0; s < 5; ++s) ssim_hfilter<Avx2>(src[s], ow, ring + (s * 11 + slot) * row);
    if (r < 10) continue;
    for (int s = 0; s < 5; ++s)
      for (int k = 0; k < 11; ++k) rows[s * 11 + k] = ring + (s * 11 + (r - 10 + k) % 11) * row;
    ssim_vrow<Avx2>(rows, ow, out);
  }
  return out;
}

}  // namespace detail

#pragma GCC diagnostic pop

// SSIM term sums of two float images of w×h (tightly packed rows); zeros when the valid map is empty.
inline ssim_partials ssim_terms(const float* x, const float* y, int w, int h, ssim_workspace& ws) {
#if VQM_CPU_X86
  if (active_isa() >= isa::avx2) return simd::as_avx2([&] { return detail::ssim_terms_impl<true>(x, y, w, h, ws); });
#endif
  return detail::ssim_terms_impl<false>(x, y, w, h, ws);
}

}  // namespace vqm::cpu
