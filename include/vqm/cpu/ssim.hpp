// Cpu kernel: float_ssim (SPEC §4): normalise, box-decimate by s, then the SSIM core.
#pragma once

#include <cstdint>
#include <vector>

#include "vqm/cpu/decimate.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/cpu/ssim_core.hpp"
#include "vqm/metrics/ssim_geometry.hpp"

namespace vqm::cpu {

namespace detail {
// Box decimation (SPEC §4.4): s×s taps of weight f32(1/(s·s)) at offsets −⌊s/2⌋…, float products
// summed in double, rows outer, columns inner; half-sample mirror at the borders.
inline void box_decimate(const float* in, int w, int h, std::uint32_t s, float* out, int ow, int oh, ssim_workspace& ws,
                         std::vector<float>& weights) {
  const float k = 1.0f / static_cast<float>(s * s);
  const int n = static_cast<int>(s);
  weights.assign(static_cast<std::size_t>(n) * n, k);
#if VQM_CPU_X86
  if (active_isa() >= isa::avx2)
    return simd::as_avx2(
        [&] { decimate_impl<true>(in, w, h, n, -(n / 2), n, weights.data(), out, ow, oh, ws.phase, ws.rows); });
#endif
  decimate_impl<false>(in, w, h, n, -(n / 2), n, weights.data(), out, ow, oh, ws.phase, ws.rows);
}
}  // namespace detail

[[nodiscard]] VQM_CPU_KERNEL ssim_partials ssim(const plane_view& a, const plane_view& b, std::uint32_t bit_depth,
                                                std::uint32_t scale)
#if VQM_CPU_KERNEL_BODIES
{
  thread_local ssim_workspace ws;
  thread_local std::vector<float> fa, fb, da, db, weights;
  const int w = static_cast<int>(a.width), h = static_cast<int>(a.height);
  fa.resize(static_cast<std::size_t>(w) * h);
  fb.resize(fa.size());
  normalize_plane(a, bit_depth, fa.data());
  normalize_plane(b, bit_depth, fb.data());
  if (scale <= 1) return ssim_terms(fa.data(), fb.data(), w, h, ws);
  const int ow = static_cast<int>(ssim_decimated(a.width, scale)), oh = static_cast<int>(ssim_decimated(a.height, scale));
  da.resize(static_cast<std::size_t>(ow) * oh);
  db.resize(da.size());
  detail::box_decimate(fa.data(), w, h, scale, da.data(), ow, oh, ws, weights);
  detail::box_decimate(fb.data(), w, h, scale, db.data(), ow, oh, ws, weights);
  return ssim_terms(da.data(), db.data(), ow, oh, ws);
}
#else
;
#endif

}  // namespace vqm::cpu
