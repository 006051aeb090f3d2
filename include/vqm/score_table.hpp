// score_table and frame_scores: what a session reports (session<B>, cpu_session). A light header (no
// backend, no metric): the compiled library's facades return these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/io/pooling.hpp"

namespace vqm {

// A metric's clip state (any_metric::clip_state), named by its first output.
using named_state = std::pair<std::string, std::vector<std::uint64_t>>;

// Per-frame series of the reported frames, in libvmaf's output order, plus aggregates.
struct score_table {
  std::vector<std::string> names;
  std::vector<std::size_t> frames;        // indices of the reported frames (--subsample keeps i % S == 0)
  std::vector<std::vector<double>> rows;  // rows[r][k]: frame frames[r], series names[k]
  std::vector<std::pair<std::string, double>> aggregate;
  std::size_t frames_pushed = 0;  // every frame of the report range, reported (subsampled) or not
  // A part of a stream (session_config::report_begin): its first frame, and what its aggregates read
  // (session::merge adds them up).
  std::size_t first_frame = 0;
  std::vector<named_state> clip_states;

  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return k;
    return std::nullopt;
  }
  [[nodiscard]] std::vector<double> column(std::size_t k) const {
    std::vector<double> v;
    v.reserve(rows.size());
    for (const auto& r : rows) v.push_back(r[k]);
    return v;
  }
  [[nodiscard]] std::vector<double> column(std::string_view name) const {
    const auto k = find(name);
    if (!k) throw error(errc::invalid_argument, "no series named '" + std::string(name) + "'");
    return column(*k);
  }
  // libvmaf's pooled statistics of series `name` over the reported frames (min, max, mean, harmonic mean:
  // its vmaf_feature_score_pooled, bit for bit), what its outputs' pooled_metrics hold.
  [[nodiscard]] io::pooled_stats pooled(std::string_view name) const { return io::pool(column(name)); }
  // Any statistics, in the order given: io::parse_pool_statistics("mean,stddev,p5") (the CLI's --pool).
  [[nodiscard]] std::vector<double> pooled(std::string_view name, std::span<const io::pool_statistic> stats) const {
    return io::pool(column(name), stats);
  }
};

// One reported frame's row, as session::on_frame delivers it while streaming: the names and values that
// finish()'s table holds for this frame (score_table::names, its row), bit for bit. The spans are valid
// during the callback only.
struct frame_scores {
  std::size_t frame = 0;                // the frame's stream index (score_table::frames)
  std::span<const std::string> names;   // score_table::names
  std::span<const double> values;       // values[k]: series names[k]
  [[nodiscard]] double at(std::string_view name) const {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return values[k];
    throw error(errc::invalid_argument, "no series named '" + std::string(name) + "'");
  }
};

}  // namespace vqm
