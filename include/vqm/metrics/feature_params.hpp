// libvmaf's feature-parameter rules, shared by the VMAF features (adm, vif, motion): how option values
// are normalised and parsed, and how non-default options become output-name suffixes (SPEC-vmaf A.2, A.6).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/options.hpp"

namespace vqm::feature_params {

// "%g" of a double, as C prints it (1.0 -> "1", 1.37 -> "1.37").
[[nodiscard]] inline std::string format_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A value that reads completely as a C float (trailing blanks allowed) is rewritten as "%g" of its
// binary32 value, as libvmaf's option layer does: "1.0" -> "1", "1.23456789" -> "1.23457". Other text
// is returned unchanged.
[[nodiscard]] inline std::string normalise(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  const float f = std::strtof(s, &end);
  if (end == s) return text;
  for (const char* p = end; *p; ++p)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f' && *p != '\v') return text;
  return format_g(static_cast<double>(f));
}

// A double option: atof of the normalised text, rejected outside [lo, hi] or when it parses to 0 from
// text that does not start with '0' (libvmaf's rule).
[[nodiscard]] inline double parse_double(std::string_view feature, std::string_view key, const std::string& text,
                                         double lo, double hi) {
  const std::string v = normalise(text);
  const double d = std::atof(v.c_str());
  // !(lo <= d <= hi) rather than d < lo || d > hi: NaN compares false both ways and must not pass.
  if ((d == 0.0 && (v.empty() || v[0] != '0')) || !std::isfinite(d) || !(d >= lo && d <= hi))
    throw error(errc::invalid_argument, std::string(feature) + " option " + std::string(key) + "=" + text +
                                            ": expected a number in [" + format_g(lo) + ", " + format_g(hi) + "]");
  return d;
}

[[nodiscard]] inline int parse_int(std::string_view feature, std::string_view key, const std::string& text, int lo,
                                   int hi) {
  const std::string v = normalise(text);
  char* end = nullptr;
  const long d = std::strtol(v.c_str(), &end, 10);
  if (end == v.c_str() || *end != '\0' || d < lo || d > hi)
    throw error(errc::invalid_argument, std::string(feature) + " option " + std::string(key) + "=" + text +
                                            ": expected an integer in [" + std::to_string(lo) + ", " +
                                            std::to_string(hi) + "]");
  return static_cast<int>(d);
}

// Bool options take exactly "true" or "false".
[[nodiscard]] inline bool parse_bool(std::string_view feature, std::string_view key, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw error(errc::invalid_argument,
              std::string(feature) + " option " + std::string(key) + "=" + text + ": expected true or false");
}

// The last value given for `key`, if any (option_map keeps every pair; the last one wins).
[[nodiscard]] inline const std::string* find(const option_map& m, std::string_view key) {
  const std::string* hit = nullptr;
  for (const auto& [k, v] : m.items())
    if (k == key) hit = &v;
  return hit;
}

// Output-name suffix: one part per non-default feature parameter, ordered by strcmp of the option's full
// name: "_alias_%g" for doubles, "_alias_%d" for ints, "_alias" for bools.
class suffix {
 public:
  void add_double(std::string_view option, std::string_view alias, double value, double def) {
    if (value != def) add(option, alias, format_g(value));
  }
  void add_int(std::string_view option, std::string_view alias, int value, int def) {
    if (value != def) add(option, alias, std::to_string(value));
  }
  void add_bool(std::string_view option, std::string_view alias, bool value, bool def) {
    if (value != def) add(option, alias, {});
  }
  [[nodiscard]] bool empty() const noexcept { return parts_.empty(); }
  [[nodiscard]] std::string str() const {
    auto p = parts_;
    std::sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string s;
    for (const auto& [k, v] : p) s += v;
    return s;
  }

 private:
  // "_alias" or "_alias_value", appended piece by piece (GCC 12 -O3 misreports "lit" + std::string as -Wrestrict).
  void add(std::string_view option, std::string_view alias, std::string_view value) {
    std::string part(1, '_');
    part += alias;
    if (!value.empty()) {
      part += '_';
      part += value;
    }
    parts_.emplace_back(std::string(option), std::move(part));
  }
  std::vector<std::pair<std::string, std::string>> parts_;
};

}  // namespace vqm::feature_params
