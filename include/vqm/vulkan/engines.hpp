// The Vulkan backend's engines: one per metric, each in its own file under vulkan/engines/, providing the
// kernel entry points its metric's concept names and the program (vulkan/program.hpp) they run on.
// The set follows the registry (vqm/registry.hpp): a registered metric whose engine is not included here
// does not compile.
#pragma once

#include "vqm/vulkan/engines/adm.hpp"
#include "vqm/vulkan/engines/cambi.hpp"
#include "vqm/vulkan/engines/ciede.hpp"
#include "vqm/vulkan/engines/float_moment.hpp"
#include "vqm/vulkan/engines/float_motion.hpp"
#include "vqm/vulkan/engines/float_psnr.hpp"
#include "vqm/vulkan/engines/float_adm.hpp"
#include "vqm/vulkan/engines/float_ansnr.hpp"
#include "vqm/vulkan/engines/float_vif.hpp"
#include "vqm/vulkan/engines/motion.hpp"
#include "vqm/vulkan/engines/ms_ssim.hpp"
#include "vqm/vulkan/engines/psnr.hpp"
#include "vqm/vulkan/engines/psnr_hvs.hpp"
#include "vqm/vulkan/engines/speed_chroma.hpp"
#include "vqm/vulkan/engines/speed_temporal.hpp"
#include "vqm/vulkan/engines/ssim.hpp"
#include "vqm/vulkan/engines/vif.hpp"
#include "vqm/registry.hpp"

namespace vqm::vulkan {

struct engines_end {};  // closes the list the registry expands to
#define VQM_VULKAN_ENGINE(name, M, A, K) name##_engine,
struct engines : VQM_METRIC_REGISTRY(VQM_VULKAN_ENGINE) engines_end {};
#undef VQM_VULKAN_ENGINE

}  // namespace vqm::vulkan
