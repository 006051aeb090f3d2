// Integer VIF constants (SPEC-vmaf Part I §3, §9), shared by every backend: the four Q16 filters and
// the fixed-point log2 table.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace vqm::tables {

// Symmetric 1-D kernels of scales 0..3, each summing to 65536 (Q16); tap k multiplies offset k − half.
inline constexpr std::array<std::uint32_t, 17> vif_f0{489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                                      7455, 6547, 5274, 3896, 2640, 1640, 935,  489};
inline constexpr std::array<std::uint32_t, 9> vif_f1{1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244};
inline constexpr std::array<std::uint32_t, 5> vif_f2{3571, 16004, 26386, 16004, 3571};
inline constexpr std::array<std::uint32_t, 3> vif_f3{10904, 43728, 10904};

struct vif_filter {
  const std::uint32_t* taps;
  int half;  // the kernel has 2·half + 1 taps
};

// The kernel of scale s (0..3).
[[nodiscard]] constexpr vif_filter vif_filter_of(int s) noexcept {
  switch (s) {
    case 0: return {vif_f0.data(), 8};
    case 1: return {vif_f1.data(), 4};
    case 2: return {vif_f2.data(), 2};
    default: return {vif_f3.data(), 1};
  }
}

inline constexpr std::int64_t vif_sigma_nsq = 131072;  // σ_n² = 2.0 in Q16
inline constexpr double vif_eps = 65536 * 1.0e-10;     // division guard, evaluated in double
inline constexpr double vif_default_gain_limit = 100.0;

// T[i] = round-half-away(2048 · f32(log2(i))) for i in 32767..65535 (entries below 32767 are 0 and never
// read). Built once; binary32 log2 first, then the exact scaling by 2048 and the rounding (SPEC §9).
[[nodiscard]] inline const std::array<std::uint16_t, 65536>& vif_log2_table() {
  static const std::array<std::uint16_t, 65536> table = [] {
    std::array<std::uint16_t, 65536> t{};
    for (std::uint32_t i = 32767; i < 65536; ++i) {
      const float l = std::log2(static_cast<float>(i));
      const double x = static_cast<double>(l) * 2048.0;  // exact
      t[i] = static_cast<std::uint16_t>(std::floor(x + 0.5));  // x > 0: half away from zero
    }
    return t;
  }();
  return table;
}

}  // namespace vqm::tables
