// The summary printed on stdout without -o: each output's pooled mean (or the --pool statistics in
// columns), then the aggregates.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "number_format.hpp"
#include "report.hpp"

namespace vqm::cli {

inline void print_summary(const cli::report& r, const cli::number_format& nf, std::string_view backend) {
  fmt::print("vqm: {} frames ({} measured), {}x{}, {} backend\n", r.frames_read, r.frames.size(), r.width, r.height,
             backend);
  std::size_t width = 26;  // the names in one column, however long (VMAF_integer_feature_motion_sad_score)
  for (const auto& n : r.names) width = std::max(width, n.size());
  if (!r.custom_pool()) {  // the pooled mean of each output
    for (std::size_t k = 0; k < r.names.size(); ++k)
      fmt::print("  {:<{}} {}\n", r.names[k], width, nf.literal(r.pooled(k).mean));
  } else {  // --pool: a column per statistic, under its name
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> col(r.statistics.size());
    for (std::size_t i = 0; i < col.size(); ++i) col[i] = r.statistics[i].name.size();
    for (std::size_t k = 0; k < r.names.size(); ++k) {
      auto& row = cells.emplace_back();
      for (const auto& [stat, v] : r.pooled_values(k)) {
        row.push_back(nf.literal(v));
        col[row.size() - 1] = std::max(col[row.size() - 1], row.back().size());
      }
    }
    std::string line = fmt::format("  {:<{}}", "", width);
    for (std::size_t i = 0; i < col.size(); ++i) line += fmt::format(" {:>{}}", r.statistics[i].name, col[i]);
    fmt::print("{}\n", line);
    for (std::size_t k = 0; k < r.names.size(); ++k) {
      line = fmt::format("  {:<{}}", r.names[k], width);
      for (std::size_t i = 0; i < col.size(); ++i) line += fmt::format(" {:>{}}", cells[k][i], col[i]);
      fmt::print("{}\n", line);
    }
  }
  for (const auto& [name, v] : r.aggregate) fmt::print("  {:<{}} {}\n", name, width, nf.literal(v));
}

}  // namespace vqm::cli
