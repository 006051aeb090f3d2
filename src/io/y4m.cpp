// vqm::cpu_compiled: the Y4M reader and the frame reader (vqm/io/compiled.hpp), compiled once here so a
// program linked with libvqm_cpu.a parses their declarations only.
#define VQM_IO_IMPLEMENTATION
#include "vqm/io/read_frame.hpp"
#include "vqm/io/y4m.hpp"
