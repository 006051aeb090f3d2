// The CLI's name for vqm/output/report.hpp (the library's libvmaf output layouts), and the report of a
// stream's parts joined by vqm::merge_tables (vqm merge, --devices).
#pragma once

#include <cstddef>
#include <utility>

#include "vqm/output/report.hpp"
#include "vqm/picture.hpp"
#include "vqm/session.hpp"

namespace vqm::cli {
using output::report;

// `whole`'s rows and aggregates as a report of `f`'s size; fps from `seconds` over the frames pushed.
[[nodiscard]] inline report joined_report(score_table&& whole, const picture_format& f, double seconds) {
  report rep;
  rep.width = f.width;
  rep.height = f.height;
  rep.frames_read = whole.frames_pushed;
  rep.names = std::move(whole.names);
  for (std::size_t r = 0; r < whole.rows.size(); ++r) rep.frames.push_back({whole.frames[r], true, std::move(whole.rows[r])});
  rep.aggregate = std::move(whole.aggregate);
  rep.fps = seconds > 0 ? static_cast<double>(rep.frames_read) / seconds : 0.0;
  return rep;
}
}  // namespace vqm::cli
