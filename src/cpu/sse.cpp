// vqm::cpu_compiled: the Cpu kernel entry points of sse, float_sse (vqm/cpu/kernel_api.hpp).
#define VQM_CPU_IMPLEMENTATION
#include "vqm/cpu/sse.hpp"
#include "vqm/cpu/float_sse.hpp"
