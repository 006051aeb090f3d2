// How scores are printed: libvmaf's "%.6f" (with "%.16f" for tiny fractions), "%.17g" (max: every
// double round-trips) or "%.Ng".
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "vqm/error.hpp"

namespace vqm::output {

class number_format {
 public:
  number_format() = default;  // libvmaf's default

  // "max", "legacy" or a number of significant digits 1..17.
  [[nodiscard]] static number_format parse(const std::string& s) {
    number_format f;
    if (s == "max") return f.digits_ = 17, f;
    if (s == "legacy" || s.empty()) return f;
    int n = 0;
    for (char c : s) {
      if (c < '0' || c > '9' || n > 100) throw error(errc::invalid_argument, "--precision " + s + ": expected max, legacy or 1..17");
      n = n * 10 + (c - '0');
    }
    if (n < 1 || n > 17) throw error(errc::invalid_argument, "--precision " + s + ": expected max, legacy or 1..17");
    f.digits_ = n;
    return f;
  }

  // Finite values only (the writers decide how inf/nan appear).
  [[nodiscard]] std::string operator()(double v) const {
    if (digits_ > 0) return fmt::format("{:.{}g}", v, digits_);
    // libvmaf: %.6f would print a non-zero fraction below 1e-6 as zeros, so those get %.16f.
    const double frac = std::fabs(v - std::trunc(v));
    if (frac != 0.0 && frac < 1e-6) return fmt::format("{:.16f}", v);
    return fmt::format("{:.6f}", v);
  }

  // inf / -inf / nan spelled as C's printf does (XML and CSV keep them literally).
  [[nodiscard]] std::string literal(double v) const {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return (*this)(v);
  }

 private:
  int digits_ = 0;  // 0: libvmaf's fixed-point rule
};

}  // namespace vqm::output
