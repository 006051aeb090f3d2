// Pooling of per-frame scores: libvmaf's four statistics (vmaf_feature_score_pooled), exactly, and
// opt-in ones libvmaf lacks (standard deviation, percentiles).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vqm/error.hpp"

namespace vqm::io {

struct pooled_stats {
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double harmonic_mean = 0.0;  // n / Σ 1/(s+1) − 1
};

// Pools the measured frames' values in frame order. libvmaf's operation order is kept (serial sums,
// the first value seeds min/max, then strict < / > so a NaN first value sticks), so results are
// bit-identical to its pooled metrics.
[[nodiscard]] inline pooled_stats pool(std::span<const double> values) noexcept {
  pooled_stats p;
  double sum = 0.0, inv_sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double s = values[i];
    sum += s;
    inv_sum += 1.0 / (s + 1.0);
    if (i == 0 || s < p.min) p.min = s;
    if (i == 0 || s > p.max) p.max = s;
  }
  const auto n = static_cast<double>(values.size());
  p.mean = sum / n;
  p.harmonic_mean = n / inv_sum - 1.0;
  return p;
}

// Population standard deviation (divides by n, as numpy.std's default: the frames measured are the
// whole population described), two passes: the mean as pool() computes it, then Σ(s − mean)² in frame
// order. Any NaN or infinite value gives NaN (as numpy); no values give NaN.
[[nodiscard]] inline double stddev(std::span<const double> values) noexcept {
  if (values.empty()) return std::nan("");
  const double mean = pool(values).mean;
  double sq = 0.0;
  for (const double s : values) sq += (s - mean) * (s - mean);
  return std::sqrt(sq / static_cast<double>(values.size()));
}

// The p-th percentile (0 <= p <= 100) of values sorted ascending (no NaN), by numpy.percentile's
// default "linear" method with its arithmetic: rank h = (n − 1)·(p/100), a = x[⌊h⌋], b = the next
// value, t = h − ⌊h⌋, result a + (b − a)·t, or b − (b − a)·(1 − t) when t >= 0.5. Where a == b or t is
// 0 the result is a itself, so infinite frames give ±inf where numpy's formula would make inf − inf NaN.
[[nodiscard]] inline double percentile_of_sorted(std::span<const double> sorted, double p) noexcept {
  if (sorted.empty()) return std::nan("");
  const double h = static_cast<double>(sorted.size() - 1) * (p / 100.0);
  const double lo = std::floor(h);
  const auto i = static_cast<std::size_t>(lo);
  if (i + 1 >= sorted.size()) return sorted.back();
  const double a = sorted[i], b = sorted[i + 1], t = h - lo;
  if (t == 0.0 || a == b) return a;
  const double d = b - a;
  return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

// One pooled statistic by name: libvmaf's min, max, mean, harmonic_mean, and vqm's stddev and pN
// (N a percentile from 0 to 100, decimals allowed: p1, p50, p99.9).
struct pool_statistic {
  enum class kind { min, max, mean, harmonic_mean, stddev, percentile };
  kind what = kind::mean;
  double p = 0.0;    // percentile only
  std::string name;  // as written in the outputs ("p5", "stddev")

  friend bool operator==(const pool_statistic& a, const pool_statistic& b) { return a.name == b.name; }
};

// libvmaf's statistics, in its output order.
[[nodiscard]] inline std::vector<pool_statistic> libvmaf_pool_statistics() {
  using k = pool_statistic::kind;
  return {{k::min, 0, "min"}, {k::max, 0, "max"}, {k::mean, 0, "mean"}, {k::harmonic_mean, 0, "harmonic_mean"}};
}

// "mean,stddev,p5" -> the statistics in that order. Percentile names are canonical ("p05" and "p5.0"
// are "p5"); an unknown name, a percentile outside 0..100 or a name given twice is errc::invalid_argument.
[[nodiscard]] inline std::vector<pool_statistic> parse_pool_statistics(std::string_view list) {
  using k = pool_statistic::kind;
  const std::string known = "min, max, mean, harmonic_mean, stddev, pN (a percentile, 0 <= N <= 100)";
  std::vector<pool_statistic> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = std::min(list.find(',', start), list.size());
    const std::string item(list.substr(start, comma - start));
    start = comma + 1;
    pool_statistic s;
    if (item == "min" || item == "max" || item == "mean" || item == "harmonic_mean" || item == "stddev") {
      s.what = item == "min" ? k::min : item == "max" ? k::max : item == "mean" ? k::mean
               : item == "harmonic_mean" ? k::harmonic_mean : k::stddev;
      s.name = item;
    } else if (item.size() > 1 && item[0] == 'p' && item.find_first_not_of("0123456789.", 1) == std::string::npos &&
               item.find('.', item.find('.') + 1) == std::string::npos && item.back() != '.') {
      s.what = k::percentile;
      s.p = std::strtod(item.c_str() + 1, nullptr);
      if (!(s.p >= 0.0 && s.p <= 100.0))
        throw error(errc::invalid_argument, "'" + item + "': a percentile must be from p0 to p100");
      // The name is the number as written less its redundant zeros ("p05", "p5.0" -> "p5"; "p.5" ->
      // "p0.5"), never in exponent form (printf's %g would name p0.00001 "p1e-05").
      std::string n = item.substr(1);
      if (n.find('.') != std::string::npos) {
        n.erase(n.find_last_not_of('0') + 1);
        if (n.back() == '.') n.pop_back();
      }
      const auto int_len = std::min(n.find('.'), n.size());
      const auto zeros = std::min(n.find_first_not_of('0'), int_len);
      n.erase(0, zeros < int_len ? zeros : int_len - (int_len > 0));
      s.name = (n.empty() || n[0] == '.' ? "p0" : "p") + n;
    } else if (item.empty()) {
      throw error(errc::invalid_argument, "empty item in the statistics list (an extra comma?; known: " + known + ")");
    } else {
      throw error(errc::invalid_argument, "unknown statistic '" + item + "' (known: " + known + ")");
    }
    if (std::find(out.begin(), out.end(), s) != out.end())
      throw error(errc::invalid_argument, "statistic '" + s.name + "' is listed twice");
    out.push_back(std::move(s));
  }
  return out;
}

// The statistics of one column of per-frame values, in the order asked for. min/max/mean/harmonic_mean
// are pool()'s (libvmaf's, bit for bit); percentiles are NaN when any value is NaN (as numpy).
[[nodiscard]] inline std::vector<double> pool(std::span<const double> values, std::span<const pool_statistic> stats) {
  using k = pool_statistic::kind;
  const pooled_stats base = pool(values);
  std::vector<double> sorted;
  bool any_nan = false;
  std::vector<double> out;
  out.reserve(stats.size());
  for (const auto& s : stats) {
    switch (s.what) {
      case k::min: out.push_back(base.min); break;
      case k::max: out.push_back(base.max); break;
      case k::mean: out.push_back(base.mean); break;
      case k::harmonic_mean: out.push_back(base.harmonic_mean); break;
      case k::stddev: out.push_back(stddev(values)); break;
      case k::percentile:
        if (sorted.empty() && !values.empty()) {
          sorted.assign(values.begin(), values.end());
          any_nan = std::any_of(sorted.begin(), sorted.end(), [](double v) { return std::isnan(v); });
          if (!any_nan) std::sort(sorted.begin(), sorted.end());  // NaN has no place in an order
        }
        out.push_back(any_nan ? std::nan("") : percentile_of_sorted(sorted, s.p));
        break;
    }
  }
  return out;
}

}  // namespace vqm::io
