// The Cpu backend's engines: one per metric, each in its own file under cpu/engines/, providing the
// kernel entry points its metric's concept names. Adding a metric to the Cpu backend adds its engine here.
#pragma once

#include "vqm/cpu/engines/adm.hpp"
#include "vqm/cpu/engines/float_psnr.hpp"
#include "vqm/cpu/engines/motion.hpp"
#include "vqm/cpu/engines/ms_ssim.hpp"
#include "vqm/cpu/engines/psnr.hpp"
#include "vqm/cpu/engines/psnr_hvs.hpp"
#include "vqm/cpu/engines/ssim.hpp"
#include "vqm/cpu/engines/vif.hpp"
#include "vqm/cpu/semi_planar.hpp"

namespace vqm::cpu {

// planar_input is not an engine: the scratch the backend converts semi-planar input into (begin_frame).
struct engines : psnr_engine, float_psnr_engine, ssim_engine, ms_ssim_engine, psnr_hvs_engine, adm_engine, motion_engine,
                 vif_engine, planar_input {};

}  // namespace vqm::cpu
