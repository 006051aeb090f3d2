// The CLI's names for vqm/output/writers.hpp (the library's libvmaf output layouts).
#pragma once

#include "number_format.hpp"
#include "report.hpp"
#include "vqm/output/writers.hpp"

namespace vqm::cli {
using output::output_format;
using output::write_report;

// The format of --json, --csv or --sub (at most one: the parser excludes the others); XML without them.
[[nodiscard]] constexpr output_format chosen_format(bool json, bool csv, bool sub) noexcept {
  return json ? output_format::json : csv ? output_format::csv : sub ? output_format::sub : output_format::xml;
}
}  // namespace vqm::cli
