// ciede's per-pixel colour math, written as libvmaf's ciede.c evaluates it: the Lab conversion in double
// (rounded to float at f(X), f(Y), f(Z) and at L*a*b*), ΔE in float variables with double temporaries
// where a C expression mixes in double constants or double libm calls, and the same glibc functions (pow,
// sqrt, atan2, sin, cos, exp on doubles; powf on floats) in the same order, so every ΔE is libvmaf's
// float. pow(x, 2) is x·x (exact in double for a float x; compilers emit that for libvmaf too).
// docs/spec-float-features.md lists every step.
#pragma once

#include <cmath>
#include <cstdint>

namespace vqm::cpu::ciede {

inline constexpr double pi = 3.14159265358979323846;  // M_PI

struct lab {
  float l, a, b;
};

[[nodiscard]] inline double sq(float x) noexcept { return static_cast<double>(x) * static_cast<double>(x); }

[[nodiscard]] inline double rgb_to_xyz_map(double c) noexcept {
  if (c > 10. / 255.) return std::pow((c + 0.055) * (1.0 / 1.055), 2.4);
  return c * (1.0 / 12.92);
}

// libvmaf's xyz_to_lab_map returns float: L*a*b* come from float-rounded f(X), f(Y), f(Z).
[[nodiscard]] inline double xyz_to_lab_map(double c) noexcept {
  const double kappa = 24389.0 / 27.0;
  const double epsilon = 216.0 / 24389.0;
  if (c > epsilon) return static_cast<float>(std::pow(c, 1.0 / 3.0));
  return static_cast<float>((kappa * c + 16.0) * (1.0 / 116.0));
}

// A pixel's samples (as floats, exact) to CIELAB, in double; BT.709, limited range.
[[nodiscard]] inline lab lab_color(double y, double u, double v, std::uint32_t bpc) noexcept {
  const auto scale = static_cast<double>(1 << (bpc - 8));
  y = (y - 16. * scale) * (1. / (219. * scale));
  u = (u - 128. * scale) * (1. / (224. * scale));
  v = (v - 128. * scale) * (1. / (224. * scale));
  double r = y + 1.28033 * v;
  double g = y - 0.21482 * u - 0.38059 * v;
  double b = y + 2.12798 * u;
  r = rgb_to_xyz_map(r);
  g = rgb_to_xyz_map(g);
  b = rgb_to_xyz_map(b);
  double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
  y = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
  x = xyz_to_lab_map(x * (1.0 / 0.95047));
  y = xyz_to_lab_map(y);
  z = xyz_to_lab_map(z * (1.0 / 1.08883));
  return {static_cast<float>((116.0 * y) - 16.0), static_cast<float>(500.0 * (x - y)),
          static_cast<float>(200.0 * (y - z))};
}

[[nodiscard]] inline float h_prime(float x, float y) noexcept {
  if (x == 0.0f && y == 0.0f) return 0.0f;
  auto h = static_cast<float>(std::atan2(static_cast<double>(x), static_cast<double>(y)));
  if (h < 0.0f) h = static_cast<float>(static_cast<double>(h) + 2. * pi);
  return h;
}

[[nodiscard]] inline float delta_h_prime(float c1, float c2, float h1, float h2) noexcept {
  if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
  if (static_cast<double>(std::fabs(h1 - h2)) <= pi) return h2 - h1;
  if (h2 <= h1) return static_cast<float>(static_cast<double>(h2 - h1) + 2. * pi);
  return static_cast<float>(static_cast<double>(h2 - h1) - 2. * pi);
}

[[nodiscard]] inline float upcase_h_bar_prime(float h1, float h2) noexcept {
  return std::fabs(static_cast<double>(h1 - h2)) > pi ? static_cast<float>((static_cast<double>(h1 + h2) + 2.0 * pi) / 2.0)
                                                      : static_cast<float>(static_cast<double>(h1 + h2) / 2.0);
}

[[nodiscard]] inline float upcase_t(float h) noexcept {
  const double hd = h;
  return static_cast<float>(1.0 - 0.17 * std::cos(hd - pi / 6.0) + 0.24 * std::cos(2.0 * hd) +
                            0.32 * std::cos(3.0 * hd + pi / 30.0) - 0.20 * std::cos(4.0 * hd - 7.0 * pi / 20.0));
}

[[nodiscard]] inline float r_sub_t(float c_bar_prime, float h_bar_prime) noexcept {
  const auto deg = static_cast<float>(static_cast<double>(h_bar_prime) * (180.0 / pi));
  const auto degrees = static_cast<float>((static_cast<double>(deg) - 275.0) * (1.0 / 25.0));
  const float c7 = ::powf(c_bar_prime, 7.0f);
  const double root = std::sqrt(static_cast<double>(c7 / (c7 + ::powf(25.0f, 7.0f))));
  const auto sixty = static_cast<float>(60.0 * std::exp(static_cast<double>(-(degrees * degrees))));
  const auto rad = static_cast<float>(static_cast<double>(sixty) * (pi / 180.0));
  return static_cast<float>(-2.0 * root * std::sin(static_cast<double>(rad)));
}

// CIEDE2000 with libvmaf's k_L = 0.65, k_C = 1, k_H = 4.
[[nodiscard]] inline float delta_e(const lab& c1, const lab& c2) noexcept {
  const float dl = c2.l - c1.l;
  const float l_bar = (c1.l + c2.l) / 2;
  const auto ch1 = static_cast<float>(std::sqrt(sq(c1.a) + sq(c1.b)));
  const auto ch2 = static_cast<float>(std::sqrt(sq(c2.a) + sq(c2.b)));
  const float c_bar = (ch1 + ch2) / 2;
  const double c7 = std::pow(static_cast<double>(c_bar), 7.0);
  const double g = 1 - std::sqrt(c7 / (c7 + 6103515625.0));  // 25^7, exact
  const auto a1 = static_cast<float>(static_cast<double>(c1.a) + static_cast<double>(c1.a / 2) * g);
  const auto a2 = static_cast<float>(static_cast<double>(c2.a) + static_cast<double>(c2.a / 2) * g);
  const auto cp1 = static_cast<float>(std::sqrt(sq(a1) + sq(c1.b)));
  const auto cp2 = static_cast<float>(std::sqrt(sq(a2) + sq(c2.b)));
  const float cp_bar = (cp1 + cp2) / 2;
  const float dc = cp2 - cp1;
  const double l50 = sq(l_bar - 50);
  const auto s_l = static_cast<float>(1. + ((0.015 * l50) / std::sqrt(20 + l50)));
  const auto s_c = static_cast<float>(1. + 0.045 * static_cast<double>(cp_bar));
  const float h1 = h_prime(c1.b, a1);
  const float h2 = h_prime(c2.b, a2);
  const float dh = delta_h_prime(ch1, ch2, h1, h2);
  const auto dh_upper = static_cast<float>(2.0 * std::sqrt(static_cast<double>(cp1 * cp2)) *
                                           std::sin(static_cast<double>(dh) / 2.0));
  const float h_bar = upcase_h_bar_prime(h1, h2);
  const float t = upcase_t(h_bar);
  const auto s_h = static_cast<float>(1.0 + 0.015 * static_cast<double>(cp_bar) * static_cast<double>(t));
  const float rt = r_sub_t(cp_bar, h_bar);
  const float lightness = dl / (0.65f * s_l);
  const float chroma = dc / (1.0f * s_c);
  const float hue = dh_upper / (4.0f * s_h);
  return static_cast<float>(std::sqrt(sq(lightness) + sq(chroma) + sq(hue) + static_cast<double>(rt * chroma * hue)));
}

}  // namespace vqm::cpu::ciede
