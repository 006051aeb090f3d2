// The CLI's names for vqm/output/writers.hpp (the library's libvmaf output layouts).
#pragma once

#include "number_format.hpp"
#include "report.hpp"
#include "vqm/output/writers.hpp"

namespace vqm::cli {
using output::output_format;
using output::write_report;
}  // namespace vqm::cli
