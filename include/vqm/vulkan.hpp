// The Vulkan backend and everything needed to run metrics on it.
#pragma once

#include "vqm/vqm.hpp"               // IWYU pragma: export
#include "vqm/vulkan/backend.hpp"    // IWYU pragma: export
#include "vqm/vulkan/context.hpp"    // IWYU pragma: export
