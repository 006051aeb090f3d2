// The Cpu backend's engines: one per metric, each in its own file under cpu/engines/, providing the
// kernel entry points its metric's concept names. The set follows the registry (vqm/registry.hpp): a
// registered metric whose engine is not included here does not compile.
#pragma once

#include "vqm/cpu/engines/adm.hpp"
#include "vqm/cpu/engines/cambi.hpp"
#include "vqm/cpu/engines/ciede.hpp"
#include "vqm/cpu/engines/float_moment.hpp"
#include "vqm/cpu/engines/float_motion.hpp"
#include "vqm/cpu/engines/float_psnr.hpp"
#include "vqm/cpu/engines/float_adm.hpp"
#include "vqm/cpu/engines/float_ansnr.hpp"
#include "vqm/cpu/engines/float_vif.hpp"
#include "vqm/cpu/engines/motion.hpp"
#include "vqm/cpu/engines/ms_ssim.hpp"
#include "vqm/cpu/engines/psnr.hpp"
#include "vqm/cpu/engines/psnr_hvs.hpp"
#include "vqm/cpu/engines/speed_chroma.hpp"
#include "vqm/cpu/engines/speed_temporal.hpp"
#include "vqm/cpu/engines/ssim.hpp"
#include "vqm/cpu/engines/vif.hpp"
#include "vqm/cpu/semi_planar.hpp"
#include "vqm/registry.hpp"

namespace vqm::cpu {

// planar_input is not an engine: the scratch the backend converts semi-planar input into (begin_frame).
#define VQM_CPU_ENGINE(name, M, A, K) name##_engine,
struct engines : VQM_METRIC_REGISTRY(VQM_CPU_ENGINE) planar_input {};
#undef VQM_CPU_ENGINE

}  // namespace vqm::cpu
