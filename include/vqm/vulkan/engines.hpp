// The Vulkan backend's engines: one per metric, each in its own file under vulkan/engines/, providing the
// kernel entry points its metric's concept names and the program (vulkan/program.hpp) they run on.
// Adding a metric to the Vulkan backend adds its engine here.
#pragma once

#include "vqm/vulkan/engines/adm.hpp"
#include "vqm/vulkan/engines/float_psnr.hpp"
#include "vqm/vulkan/engines/motion.hpp"
#include "vqm/vulkan/engines/ms_ssim.hpp"
#include "vqm/vulkan/engines/psnr.hpp"
#include "vqm/vulkan/engines/psnr_hvs.hpp"
#include "vqm/vulkan/engines/ssim.hpp"
#include "vqm/vulkan/engines/vif.hpp"

namespace vqm::vulkan {

struct engines : psnr_engine, float_psnr_engine, ssim_engine, ms_ssim_engine, psnr_hvs_engine, vif_engine, motion_engine, adm_engine {};

}  // namespace vqm::vulkan
