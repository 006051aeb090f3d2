// The VMAF score transform (SPEC-vmaf B.5): polynomial, piecewise-linear knots, rectification, in
// libvmaf's exact order of double operations (including its quirks with invalid knot lists).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace vqm::vmaf {

// B.5: polynomial, knots, rectification.
struct score_transform {
  bool enabled = false;
  std::optional<double> p0, p1, p2;
  bool has_knots = false;
  std::vector<std::pair<double, double>> knots;
  bool out_lte_in = false;
  bool out_gte_in = false;

  [[nodiscard]] double apply(double y_in) const noexcept {
    double t = y_in;
    if (p0 || p1 || p2) {
      t = 0.0;
      if (p0) t = t + *p0;
      if (p1) t = t + *p1 * y_in;
      if (p2) t = t + (*p2 * y_in) * y_in;
    }
    if (has_knots) t = apply_knots(t);
    if (out_lte_in) t = (t > y_in) ? y_in : t;
    if (out_gte_in) t = (t < y_in) ? y_in : t;
    return t;
  }

  [[nodiscard]] double apply_knots(double t) const noexcept {
    const std::size_t n = knots.size();
    if (n <= 1) return t;
    double out = 0.0;
    for (std::size_t s = 0; s + 1 < n; ++s) {
      const auto [x0, y0] = knots[s];
      const auto [x1, y1] = knots[s + 1];
      if (!(x0 < x1 && y0 <= y1)) return out;  // libvmaf stops and keeps what it has
      const bool in_seg = (x0 <= t) && (t <= x1);
      const bool below = s == 0 && t < x0;
      const bool above = s + 2 == n && t > x1;
      if (y0 == y1) {
        if (in_seg || below || above) out = y0;
      } else {
        double a = 0.0, b = 0.0;
        if (x0 == 0) {
          b = y0;
          a = (y1 - b) / x1;
        } else {
          a = (y1 - y0) / (x1 - x0);
          b = y0 - x0 * a;
        }
        if (in_seg || below || above) out = a * t + b;
      }
    }
    return out;
  }
};

}  // namespace vqm::vmaf
