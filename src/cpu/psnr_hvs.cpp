// vqm::cpu_compiled: the Cpu kernel entry points of psnr_hvs (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/psnr_hvs.hpp"
