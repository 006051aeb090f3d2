// The MS-SSIM Wang-product combine (SPEC §5.5): constexpr, shared by every backend.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "vqm/tables/ssim.hpp"

namespace vqm {

namespace detail {

// exp and log for constant evaluation (std::pow is not constexpr in C++20). Accurate to a few ulp,
// which static_asserts need; at run time std::pow is used so values match libvmaf's libm.
constexpr double cx_exp(double x) noexcept {
  // exp(x) = 2^k · exp(r), |r| <= ln2/2, Taylor series for exp(r).
  constexpr double ln2 = 0.69314718055994530942;
  const double kf = x / ln2;
  const long long k = static_cast<long long>(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double r = x - static_cast<double>(k) * ln2;
  double term = 1.0, sum = 1.0;
  for (int i = 1; i < 30; ++i) {
    term *= r / i;
    sum += term;
  }
  double scale = 1.0;
  for (long long i = 0; i < (k < 0 ? -k : k); ++i) scale *= 2.0;
  return k < 0 ? sum / scale : sum * scale;
}

constexpr double cx_log(double x) noexcept {
  // x = m · 2^e with m in [0.75, 1.5); log(m) by the atanh series.
  constexpr double ln2 = 0.69314718055994530942;
  int e = 0;
  while (x >= 1.5) { x /= 2.0; ++e; }
  while (x < 0.75) { x *= 2.0; --e; }
  const double z = (x - 1.0) / (x + 1.0), z2 = z * z;
  double term = z, sum = 0.0;
  for (int i = 1; i < 80; i += 2) {
    sum += term / i;
    term *= z2;
  }
  return 2.0 * sum + e * ln2;
}

constexpr double pow(double x, double y) noexcept {
  if (std::is_constant_evaluated()) {
    if (y == 0.0) return 1.0;
    if (x == 0.0) return 0.0;
    if (x < 0.0) return std::numeric_limits<double>::quiet_NaN();
    return cx_exp(y * cx_log(x));
  }
  return std::pow(x, y);
}

}  // namespace detail

// Per-scale means l_k, c_k, s_k (binary32 values widened to double).
struct ms_ssim_scale_means {
  std::array<double, 5> l{}, c{}, s{};
};

// ms = Π_k pow(l_k, α_k) · pow(c_k, β_k) · pow(s_k, γ_k), multiplied in libvmaf's order. Negative s_k
// gives NaN as in libvmaf (no fabs). Returns +inf where libvmaf reports an error; callers check.
[[nodiscard]] constexpr double ms_ssim_combine(const ms_ssim_scale_means& m) noexcept {
  double ms = 1.0;
  for (int k = 0; k < 5; ++k) {
    const double a = static_cast<double>(tables::ms_ssim_alpha[k]);
    const double b = static_cast<double>(tables::ms_ssim_beta[k]);
    const double g = static_cast<double>(tables::ms_ssim_gamma[k]);
    ms = ms * ((detail::pow(m.l[k], a) * detail::pow(m.c[k], b)) * detail::pow(m.s[k], g));
  }
  return ms;
}

namespace detail {
constexpr ms_ssim_scale_means uniform_means(double l, double c, double s) noexcept {
  ms_ssim_scale_means m;
  for (int k = 0; k < 5; ++k) { m.l[k] = l; m.c[k] = c; m.s[k] = s; }
  return m;
}
constexpr bool near(double a, double b, double tol) noexcept { return (a - b < tol) && (b - a < tol); }
}  // namespace detail

// Identical inputs combine to exactly 1; luminance only counts at the coarsest scale; the exponents
// sum to 1 for contrast·structure (0.0448+0.2856+0.3001+0.2363+0.1333 = 1.0001 in the table).
static_assert(ms_ssim_combine(detail::uniform_means(1.0, 1.0, 1.0)) == 1.0);
static_assert(detail::near(ms_ssim_combine(detail::uniform_means(0.5, 1.0, 1.0)), 0.9117435500259248, 1e-12));
static_assert(detail::near(ms_ssim_combine(detail::uniform_means(1.0, 0.5, 1.0)), 0.4999653380914566, 1e-12));
static_assert(detail::near(detail::cx_log(10.0), 2.302585092994046, 1e-14));

}  // namespace vqm
