// Reference kernel (scalar, kept for tests): float_ssim (SPEC §4): normalise, box-decimate by s, then the SSIM core.
#pragma once

#include <cstdint>
#include <vector>

#include "vqm/cpu/normalize.hpp"
#include "vqm/cpu/reference/ssim_core.hpp"
#include "vqm/metrics/ssim_geometry.hpp"

namespace vqm::cpu::reference {

namespace detail {
// Box decimation (SPEC §4.4): s×s taps of weight f32(1/(s·s)), float products summed in double,
// rows outer, columns inner; half-sample mirror at the borders.
inline void box_decimate(const float* in, int w, int h, std::uint32_t s, float* out, int ow, int oh) noexcept {
  const float k = 1.0f / static_cast<float>(s * s);
  const int lo = -static_cast<int>(s / 2);
  const int hi = static_cast<int>(s / 2) - (s % 2 == 0 ? 1 : 0);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      double acc = 0.0;
      for (int v = lo; v <= hi; ++v) {
        const float* row = in + mirror(static_cast<std::int64_t>(s) * y + v, h) * w;
        for (int u = lo; u <= hi; ++u) acc += static_cast<double>(row[mirror(static_cast<std::int64_t>(s) * x + u, w)] * k);
      }
      out[static_cast<std::ptrdiff_t>(y) * ow + x] = static_cast<float>(acc);
    }
}
}  // namespace detail

[[nodiscard]] inline ssim_partials ssim(const plane_view& a, const plane_view& b, std::uint32_t bit_depth,
                                        std::uint32_t scale) {
  thread_local ssim_workspace ws;
  thread_local std::vector<float> fa, fb, da, db;
  const int w = static_cast<int>(a.width), h = static_cast<int>(a.height);
  fa.resize(static_cast<std::size_t>(w) * h);
  fb.resize(fa.size());
  normalize_plane(a, bit_depth, fa.data());
  normalize_plane(b, bit_depth, fb.data());
  if (scale <= 1) return ssim_terms(fa.data(), fb.data(), w, h, ws);
  const int ow = static_cast<int>(ssim_decimated(a.width, scale)), oh = static_cast<int>(ssim_decimated(a.height, scale));
  da.resize(static_cast<std::size_t>(ow) * oh);
  db.resize(da.size());
  detail::box_decimate(fa.data(), w, h, scale, da.data(), ow, oh);
  detail::box_decimate(fb.data(), w, h, scale, db.data(), ow, oh);
  return ssim_terms(da.data(), db.data(), ow, oh, ws);
}

}  // namespace vqm::cpu::reference
