// What a run produced: per-frame scores of the measured frames, aggregates, and run facts; what the
// writers (vqm/output/writers.hpp) print. Used by the CLI and by the libvmaf C API (VQM_LIBVMAF_API).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vqm/io/pooling.hpp"
#include "vqm/scorer.hpp"
#include "vqm/version.hpp"

namespace vqm::output {

struct report {
  std::vector<std::string> names;
  std::vector<frame_result> frames;  // measured frames only, in frame order
  std::vector<std::pair<std::string, double>> aggregate;
  std::size_t frames_read = 0;  // every frame pushed, subsampled or not
  std::uint32_t width = 0, height = 0;
  double fps = 0.0;  // frames per second of the whole run
  std::string version = "vqm " VQM_VERSION_STRING;  // the outputs' version field
  // --pool: the pooled statistics written, in order; empty for libvmaf's four (min, max, mean,
  // harmonic_mean), which keeps the default output libvmaf's byte for byte.
  std::vector<io::pool_statistic> statistics;

  [[nodiscard]] std::vector<double> column(std::size_t k) const {
    std::vector<double> v;
    v.reserve(frames.size());
    for (const auto& f : frames) v.push_back(f.values[k]);
    return v;
  }
  [[nodiscard]] io::pooled_stats pooled(std::size_t k) const { return io::pool(column(k)); }
  [[nodiscard]] bool custom_pool() const noexcept { return !statistics.empty(); }
  // The statistics written for output k: (name, value) in output order.
  [[nodiscard]] std::vector<std::pair<std::string, double>> pooled_values(std::size_t k) const {
    const auto stats = custom_pool() ? statistics : io::libvmaf_pool_statistics();
    const auto values = io::pool(column(k), stats);
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t i = 0; i < stats.size(); ++i) out.emplace_back(stats[i].name, values[i]);
    return out;
  }
};

}  // namespace vqm::output
