// Cpu kernel and schedule of float_moment: Σ v and Σ f32(v·v) of each luma.
#pragma once

#include <cstdint>

#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/normalize.hpp"
#include "vqm/metrics/float_moment.hpp"

namespace vqm::cpu {

// libvmaf adds f64(v) and f64(f32(v·v)) serially in double. Every v is a multiple of 2^−8 and, up to 12
// bits, every square is exact in binary32 and a multiple of 2^−8; no partial sum then leaves double's 53
// bits, so exact integer sums scaled by powers of two are the same doubles. 16-bit squares round in
// binary32 and their sums may not fit, so that depth keeps the serial sum.
template <class T>
inline void moment_sums(const plane_view& p, std::uint32_t bit_depth, double& sum, double& sum_sq) noexcept {
  std::uint64_t s = 0, q = 0;
  double serial_sq = 0.0;
  const float div = normalize_divisor(bit_depth);
  for (std::uint32_t y = 0; y < p.height; ++y) {
    const T* row = p.row<T>(y);
    if (bit_depth <= 12) {
      for (std::uint32_t x = 0; x < p.width; ++x) {
        s += row[x];
        q += std::uint64_t{row[x]} * row[x];
      }
    } else {
      for (std::uint32_t x = 0; x < p.width; ++x) {
        s += row[x];
        const float v = static_cast<float>(row[x]) / div;
        serial_sq += static_cast<double>(v * v);
      }
    }
  }
  const int shift = static_cast<int>(bit_depth) - 8;
  sum = static_cast<double>(s) / static_cast<double>(1ull << shift);
  sum_sq = bit_depth <= 12 ? static_cast<double>(q) / static_cast<double>(1ull << (2 * shift)) : serial_sq;
}

struct float_moment_engine {
  struct request {};
  static void run(const picture_view& r, const picture_view& d, const request&, moment_partials& out) {
    const picture_view* pic[2] = {&r, &d};
    for (int k = 0; k < 2; ++k) {
      const auto bpc = pic[k]->format.bit_depth;
      if (bpc > 8) moment_sums<std::uint16_t>(pic[k]->planes[0], bpc, out.sum[k], out.sum_sq[k]);
      else moment_sums<std::uint8_t>(pic[k]->planes[0], bpc, out.sum[k], out.sum_sq[k]);
    }
  }
  void moment(frame& f, moment_partials& out) const { f.record<&run>(request{}, out); }
};

}  // namespace vqm::cpu
