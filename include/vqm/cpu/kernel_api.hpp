// How the Cpu kernels' entry points (cpu::adm, cpu::vif, cpu::motion_sad, cpu::ssim, cpu::ms_ssim,
// cpu::psnr_hvs_plane, cpu::sse_plane, cpu::float_sse) are defined.
//
// Header-only (the default, vqm::cpu): each is an inline function; every translation unit that calls one
// compiles the kernel (its SIMD twins, optimised) again.
// Compiled (vqm::cpu_compiled, which defines VQM_CPU_COMPILED): the library's src/cpu/*.cpp compile them
// once; a consumer's translation unit sees declarations only, like fmt without FMT_HEADER_ONLY. Same
// compiler flags, same code: the numbers are the same either way.
//
// An entry point is written once:
//   [[nodiscard]] VQM_CPU_KERNEL adm_partials adm(...)
//   #if VQM_CPU_KERNEL_BODIES
//   { ... }
//   #else
//   ;
//   #endif
#pragma once

#if defined(VQM_CPU_IMPLEMENTATION)  // src/cpu/*.cpp
#define VQM_CPU_KERNEL_BODIES 1
#define VQM_CPU_KERNEL
#elif defined(VQM_CPU_COMPILED)  // a consumer of libvqm_cpu.a
#define VQM_CPU_KERNEL_BODIES 0
#define VQM_CPU_KERNEL
#else
#define VQM_CPU_KERNEL_BODIES 1
#define VQM_CPU_KERNEL inline
#endif
