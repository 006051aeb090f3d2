// Mirror-bordered decimation shared by float_ssim's box filter (SPEC §4.4) and MS-SSIM's 9×9 2-D
// low-pass (SPEC §5.3):
//   out[y][x] = f32( Σ_{v<n} Σ_{t<n} f64( f32( in[mirror(s·y+lo+v)][mirror(s·x+lo+t)] · wt[v][t] ) ) )
// rows outer, columns inner, one double chain per output started at 0.0 — libvmaf's order.
//
// Speed without changing any output's operations: each input row is mirror-padded once and split by
// column phase (s·x + t → phase t mod s, index x + t / s), so a tap reads four consecutive outputs'
// samples with one contiguous load; 16 outputs advance together to hide the add latency.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/cpu/simd.hpp"
#include "vqm/metrics/ssim_geometry.hpp"

namespace vqm::cpu::detail {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

template <int S>
VQM_CPU_INLINE void split_phases(const float* pad, int len, float* dst, std::size_t stride) noexcept {
  for (int p = 0; p < S; ++p)
    for (int i = 0; i < len; ++i) dst[p * stride + i] = pad[S * i + p];
}

// `in` is w×h (tightly packed), `out` ow×oh; `wt` holds n×n weights; phase/rows are scratch.
template <bool Avx2>
VQM_CPU_INLINE void decimate_impl(const float* in, int w, int h, int s, int lo, int n, const float* wt, float* out,
                                  int ow, int oh, std::vector<float>& phase, std::vector<int>& rows) {
  using namespace simd;
  // Padded row j = column lo + j; output x tap t reads padded s·x + t = phase (t mod s), index x + t / s.
  const int len = ow + (n - 1) / s + 1;  // samples per phase
  const int padded = len * s;
  const std::size_t stride = static_cast<std::size_t>(len);
  phase.resize(static_cast<std::size_t>(h) * s * stride + static_cast<std::size_t>(padded));
  float* pad = phase.data() + static_cast<std::size_t>(h) * s * stride;  // one padded row of scratch
  // Columns lo + j inside [0, w) are a plain copy; only the borders need the mirror.
  const int in_from = lo < 0 ? -lo : 0;
  const int in_to = std::min(padded, w - lo);
  for (int r = 0; r < h; ++r) {
    const float* src = in + static_cast<std::ptrdiff_t>(r) * w;
    for (int j = 0; j < in_from; ++j) pad[j] = src[mirror(lo + j, w)];
    if (in_to > in_from) std::memcpy(pad + in_from, src + lo + in_from, sizeof(float) * static_cast<std::size_t>(in_to - in_from));
    for (int j = std::max(in_to, in_from); j < padded; ++j) pad[j] = src[mirror(lo + j, w)];
    float* dst = phase.data() + static_cast<std::size_t>(r) * s * stride;
    if (s == 2) {  // constant strides let the compiler vectorise the split
      split_phases<2>(pad, len, dst, stride);
    } else if (s == 4) {
      split_phases<4>(pad, len, dst, stride);
    } else {
      for (int p = 0; p < s; ++p)
        for (int i = 0; i < len; ++i) dst[p * stride + i] = pad[s * i + p];
    }
  }
  rows.resize(static_cast<std::size_t>(n));
  for (int y = 0; y < oh; ++y) {
    for (int v = 0; v < n; ++v) rows[v] = static_cast<int>(mirror(static_cast<std::int64_t>(s) * y + lo + v, h));
    float* o = out + static_cast<std::ptrdiff_t>(y) * ow;
    int x = 0;
    for (; x + 16 <= ow; x += 16) {
      d4 a0{}, a1{}, a2{}, a3{};
      for (int v = 0; v < n; ++v) {
        const float* base = phase.data() + static_cast<std::size_t>(rows[v]) * s * stride + x;
        for (int t = 0; t < n; ++t) {
          const float* p = base + (t % s) * stride + t / s;
          const f4 k = splat4(wt[v * n + t]);
          a0 += widen<Avx2>(load<f4>(p) * k);
          a1 += widen<Avx2>(load<f4>(p + 4) * k);
          a2 += widen<Avx2>(load<f4>(p + 8) * k);
          a3 += widen<Avx2>(load<f4>(p + 12) * k);
        }
      }
      store(o + x, narrow(a0));
      store(o + x + 4, narrow(a1));
      store(o + x + 8, narrow(a2));
      store(o + x + 12, narrow(a3));
    }
    for (; x + 4 <= ow; x += 4) {
      d4 a0{};
      for (int v = 0; v < n; ++v) {
        const float* base = phase.data() + static_cast<std::size_t>(rows[v]) * s * stride + x;
        for (int t = 0; t < n; ++t) a0 += widen<Avx2>(load<f4>(base + (t % s) * stride + t / s) * splat4(wt[v * n + t]));
      }
      store(o + x, narrow(a0));
    }
    for (; x < ow; ++x) {
      double a = 0.0;
      for (int v = 0; v < n; ++v) {
        const float* base = phase.data() + static_cast<std::size_t>(rows[v]) * s * stride + x;
        for (int t = 0; t < n; ++t) a += static_cast<double>(base[(t % s) * stride + t / s] * wt[v * n + t]);
      }
      o[x] = static_cast<float>(a);
    }
  }
}

#pragma GCC diagnostic pop

}  // namespace vqm::cpu::detail
