// vqm::cpu_compiled: the Cpu kernel entry points of motion (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/motion.hpp"
