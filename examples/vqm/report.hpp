// What a run produced: per-frame scores of the measured frames, aggregates, and run facts.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "vqm/io/pooling.hpp"
#include "vqm/scorer.hpp"

namespace vqm::cli {

struct report {
  std::vector<std::string> names;
  std::vector<frame_result> frames;  // measured frames only, in frame order
  std::vector<std::pair<std::string, double>> aggregate;
  std::size_t frames_read = 0;  // every frame pushed, subsampled or not
  std::uint32_t width = 0, height = 0;
  double fps = 0.0;  // frames per second of the whole run

  [[nodiscard]] std::vector<double> column(std::size_t k) const {
    std::vector<double> v;
    v.reserve(frames.size());
    for (const auto& f : frames) v.push_back(f.values[k]);
    return v;
  }
  [[nodiscard]] io::pooled_stats pooled(std::size_t k) const { return io::pool(column(k)); }
};

}  // namespace vqm::cli
