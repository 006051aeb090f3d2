// SpEED's prescale on the Cpu (libvmaf's vif_scale_frame_s as speed.c calls it; SPEC-vmaf-v1 §B.4): a
// binary32 plane of sw×sh resampled to dw×dh with the shared tables (metrics/speed_prescale.hpp) and
// libvmaf's 2-D, non-separable binary32 sums.
#pragma once

#include <cstddef>

#include "vqm/metrics/speed_prescale.hpp"

namespace vqm::cpu::speed_detail {

struct resampler : speed::prescale_tables {
  // dst (dw×dh, rows packed) from src (sw×sh, rows packed).
  void run(const float* src, float* dst) const noexcept {
    const auto at = [&](int y, int x) { return src[static_cast<std::size_t>(y) * sw + x]; };
    for (int y = 0; y < dh; ++y) {
      float* out = dst + static_cast<std::size_t>(y) * dw;
      const auto yi = static_cast<std::size_t>(y);
      switch (method) {
        case scale_method::nearest:
          for (int x = 0; x < dw; ++x) out[x] = at(ny[yi], nx[static_cast<std::size_t>(x)]);
          break;
        case scale_method::bilinear: {
          const float fy = by.frac[yi], gy = 1 - fy;
          for (int x = 0; x < dw; ++x) {
            const auto xi = static_cast<std::size_t>(x);
            const float fx = bx.frac[xi], gx = 1 - fx;
            float v = (gy * gx) * at(by.lo[yi], bx.lo[xi]);
            v = v + (gy * fx) * at(by.lo[yi], bx.hi[xi]);
            v = v + (fy * gx) * at(by.hi[yi], bx.lo[xi]);
            v = v + (fy * fx) * at(by.hi[yi], bx.hi[xi]);
            out[x] = v;
          }
          break;
        }
        default: {
          const std::size_t n = static_cast<std::size_t>(tx.taps);
          const int* iy = ty.index.data() + yi * n;
          const float* wy = ty.weight.data() + yi * n;
          for (int x = 0; x < dw; ++x) {
            const int* ix = tx.index.data() + static_cast<std::size_t>(x) * n;
            const float* wx = tx.weight.data() + static_cast<std::size_t>(x) * n;
            float acc = 0.0f, wsum = 0.0f;
            for (std::size_t j = 0; j < n; ++j)
              for (std::size_t i = 0; i < n; ++i) {
                const float w = wy[j] * wx[i];
                wsum = wsum + w;
                acc = acc + at(iy[j], ix[i]) * w;
              }
            out[x] = method == scale_method::lanczos4 ? acc / wsum : acc;
          }
        }
      }
    }
  }
};

}  // namespace vqm::cpu::speed_detail
