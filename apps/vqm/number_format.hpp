// The CLI's name for vqm/output/number_format.hpp (the library's libvmaf output layouts).
#pragma once

#include "vqm/output/number_format.hpp"

namespace vqm::cli {
using output::number_format;
}  // namespace vqm::cli
