// vqm::cpu_compiled: the Cpu kernel entry points of adm (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/adm.hpp"
