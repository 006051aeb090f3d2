// The CLI's name for vqm/output/report.hpp (the library's libvmaf output layouts).
#pragma once

#include "vqm/output/report.hpp"

namespace vqm::cli {
using output::report;
}  // namespace vqm::cli
