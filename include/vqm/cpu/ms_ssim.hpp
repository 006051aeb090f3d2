// Cpu kernel: float_ms_ssim (SPEC §5): a 5-level pyramid of libvmaf's 2-D 9/7 low-pass, SSIM terms per level.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/cpu/decimate.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/cpu/ssim_core.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/tables/ssim.hpp"

namespace vqm::cpu {

namespace detail {
// Dec2 (SPEC §5.3): the 9×9 2-D table (not the separable form), float products summed in double, rows
// outer, columns inner. The constant 9 and 2 let the tap loops unroll.
inline void ms_ssim_decimate(const float* in, int w, int h, float* out, int ow, int oh, ssim_workspace& ws) {
  const float* t = &tables::ms_ssim_lowpass[0][0];
#if VQM_CPU_X86
  if (active_isa() >= isa::avx2)
    return simd::as_avx2([&] { decimate_impl<true>(in, w, h, 2, -4, 9, t, out, ow, oh, ws.phase, ws.rows); });
#endif
  decimate_impl<false>(in, w, h, 2, -4, 9, t, out, ow, oh, ws.phase, ws.rows);
}
}  // namespace detail

[[nodiscard]] VQM_CPU_KERNEL ms_ssim_partials ms_ssim(const plane_view& a, const plane_view& b, std::uint32_t bit_depth)
#if VQM_CPU_KERNEL_BODIES
{
  thread_local ssim_workspace ws;
  thread_local std::array<std::vector<float>, 2 * ms_ssim_scales> level;
  ms_ssim_partials out{};
  int w = static_cast<int>(a.width), h = static_cast<int>(a.height);
  level[0].resize(static_cast<std::size_t>(w) * h);
  level[1].resize(level[0].size());
  normalize_plane(a, bit_depth, level[0].data());
  normalize_plane(b, bit_depth, level[1].data());
  for (int k = 0; k < ms_ssim_scales; ++k) {
    auto& x = level[2 * k];
    auto& y = level[2 * k + 1];
    out.level[k] = ssim_terms(x.data(), y.data(), w, h, ws);
    if (k + 1 == ms_ssim_scales) break;
    const int ow = w / 2 + w % 2, oh = h / 2 + h % 2;
    auto& nx = level[2 * k + 2];
    auto& ny = level[2 * k + 3];
    nx.resize(static_cast<std::size_t>(ow) * oh);
    ny.resize(nx.size());
    detail::ms_ssim_decimate(x.data(), w, h, nx.data(), ow, oh, ws);
    detail::ms_ssim_decimate(y.data(), w, h, ny.data(), ow, oh, ws);
    w = ow;
    h = oh;
  }
  return out;
}
#else
;
#endif

}  // namespace vqm::cpu
