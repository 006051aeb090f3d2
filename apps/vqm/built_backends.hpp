// The backends this vqm is built with: the Cpu backend always, Vulkan where the build defines
// VQM_HAVE_VULKAN=1 (CMake does when the Vulkan component is found).
#pragma once

#include "vqm/cpu.hpp"
#ifndef VQM_HAVE_VULKAN
#define VQM_HAVE_VULKAN 0
#endif
#if VQM_HAVE_VULKAN
#include "vqm/vulkan.hpp"
#endif
