// Reference kernel (scalar, kept for tests): float_ms_ssim (SPEC §5): a 5-level pyramid of libvmaf's 2-D 9/7 low-pass, SSIM terms per level.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/cpu/reference/ssim_core.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/tables/ssim.hpp"

namespace vqm::cpu::reference {

namespace detail {
// Dec2 (SPEC §5.3): 9×9 2-D table, float products summed in double (rows outer, columns inner).
inline void ms_ssim_decimate(const float* in, int w, int h, float* out, int ow, int oh) noexcept {
  constexpr auto& t = tables::ms_ssim_lowpass;
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      double acc = 0.0;
      for (int v = -4; v <= 4; ++v) {
        const float* row = in + mirror(2 * y + v, h) * w;
        for (int u = -4; u <= 4; ++u) acc += static_cast<double>(row[mirror(2 * x + u, w)] * t[v + 4][u + 4]);
      }
      out[static_cast<std::ptrdiff_t>(y) * ow + x] = static_cast<float>(acc);
    }
}
}  // namespace detail

[[nodiscard]] inline ms_ssim_partials ms_ssim(const plane_view& a, const plane_view& b, std::uint32_t bit_depth) {
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
    detail::ms_ssim_decimate(x.data(), w, h, nx.data(), ow, oh);
    detail::ms_ssim_decimate(y.data(), w, h, ny.data(), ow, oh);
    w = ow;
    h = oh;
  }
  return out;
}

}  // namespace vqm::cpu::reference
