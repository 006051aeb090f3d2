// vqm::cpu_compiled: the Cpu kernel entry points of ssim, ms_ssim (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/ssim.hpp"
#include "vqm/cpu/ms_ssim.hpp"
