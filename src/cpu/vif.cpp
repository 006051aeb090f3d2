// vqm::cpu_compiled: the Cpu kernel entry points of vif (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/vif.hpp"
