// Pooling of per-frame scores, as libvmaf's output writers do it (vmaf_feature_score_pooled).
#pragma once

#include <cstddef>
#include <span>

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

}  // namespace vqm::io
