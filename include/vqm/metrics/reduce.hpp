// The host-side reduction shared by every backend: partial sums in, libvmaf's doubles out.
// Each function spells out libvmaf's exact operation order and precision (SPEC §2–§6).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vqm::reduce {

// libvmaf's MIN: x < y ? x : y, so a NaN x yields y (SPEC §0, APSNR).
[[nodiscard]] constexpr double vmaf_min(double x, double y) noexcept { return x < y ? x : y; }

// 10·log10(peak² / max(mse, floor)) capped at `cap` (integer PSNR: floor 1e-16, float PSNR: 1e-10).
[[nodiscard]] inline double psnr_db(double peak_sq, double mse, double floor, double cap) noexcept {
  return std::min(10.0 * std::log10(peak_sq / std::max(mse, floor)), cap);
}

// A mean of SSIM terms: binary32 precision, stored as double (SPEC §4.7). `n` may be <= 0 for
// degenerate maps in libvmaf compat mode, giving libvmaf's 0, -0 or NaN.
[[nodiscard]] inline double ssim_mean(double sum, std::int64_t n) noexcept {
  // volatile: GCC 12.2 at -O3 SLP-vectorises MS-SSIM's 15 per-scale means and drops this binary32
  // rounding in some lanes (a miscompile, reproduced without vqm code); the volatile keeps it.
  volatile float mean = static_cast<float>(sum / static_cast<double>(n));
  return static_cast<double>(mean);
}

// −10·log10(1 − v) capped at max_db (SPEC §4.8).
[[nodiscard]] inline double ssim_db(double v, double max_db) noexcept {
  return vmaf_min(-10.0 * std::log10(1.0 - v), max_db);  // v > 1 gives NaN -> max_db, as libvmaf
}

// clip_db's cap from the full-resolution luma size: ceil(10·log10(P² / (0.5 / (W·H)))).
[[nodiscard]] inline double ssim_max_db(std::uint32_t width, std::uint32_t height, std::uint32_t bit_depth) noexcept {
  const double peak = static_cast<double>((1u << bit_depth) - 1u);
  const double mse = 0.5 / (static_cast<double>(width) * static_cast<double>(height));
  return std::ceil(10.0 * std::log10(peak * peak / mse));
}

}  // namespace vqm::reduce
