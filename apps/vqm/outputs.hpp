// Where the reports go: each -o file, checked (a regular file's temp created) before any frame is
// measured and written only once every distorted has been scored; without -o, a summary on stdout.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "options.hpp"
#include "report.hpp"
#include "summary.hpp"
#include "validate.hpp"
#include "writers.hpp"

namespace vqm::cli {

using output_files = std::vector<std::unique_ptr<output_file>>;

[[nodiscard]] inline output_files open_outputs(const std::vector<std::string>& paths) {
  output_files out;
  for (const auto& path : paths) out.push_back(std::make_unique<output_file>(path));
  return out;
}

// `reports`: one per -d, in order; `backend`: the one that measured them (the summary names it).
inline void write_outputs(const options& o, const run_settings& s, std::vector<report>& reports,
                          const std::string& backend, output_files& out) {
  for (auto& rep : reports) rep.statistics = s.statistics;
  if (o.output.empty()) {
    for (std::size_t k = 0; k < reports.size(); ++k) {
      if (o.distorted.size() > 1) fmt::print("{}distorted {}:\n", k ? "\n" : "", o.distorted[k]);
      print_summary(reports[k], s.numbers, backend);
    }
    return;
  }
  std::vector<std::string> texts;  // every report written out before any file is replaced
  for (const auto& rep : reports) texts.push_back(write_report(s.format, rep, s.numbers));
  for (std::size_t k = 0; k < texts.size(); ++k) out[k]->commit(texts[k]);
}

}  // namespace vqm::cli
