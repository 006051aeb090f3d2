// Where the Y4M reader's and the frame reader's function bodies are compiled (vqm/io/y4m.hpp,
// vqm/io/read_frame.hpp), as vqm/cpu/kernel_api.hpp does for the Cpu kernels:
//
// Header-only (the default): inline in every translation unit that includes them.
// With libvqm_cpu.a (vqm::cpu_compiled, which defines VQM_CPU_COMPILED): declarations only; the library's
// src/io/y4m.cpp (VQM_IO_IMPLEMENTATION) compiles them once, so a program that reads Y4M parses neither the
// reader's code nor vqm/executor.hpp's threads. Same code either way.
#pragma once

#if defined(VQM_IO_IMPLEMENTATION)  // src/io/y4m.cpp
#define VQM_IO_BODIES 1
#define VQM_IO_INLINE
#elif defined(VQM_CPU_COMPILED)  // a consumer of libvqm_cpu.a
#define VQM_IO_BODIES 0
#define VQM_IO_INLINE
#else
#define VQM_IO_BODIES 1
#define VQM_IO_INLINE inline
#endif
