// The Cpu backend and everything needed to run metrics on it.
#pragma once

#include "vqm/cpu/backend.hpp"  // IWYU pragma: export
#include "vqm/vqm.hpp"          // IWYU pragma: export
