// The vectorised Cpu path: SSE2 (x86-64 baseline) and AVX2 (selected at run time) instances of
// simd_kernel.inl (int16 lanes, every kernel and bit depth) and simd_u8.inl (int8 lanes, wd 4 at 8 bits). Elsewhere, or with VQM_LPF_NO_SIMD defined, only the scalar reference exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"

// VQM_CPU_SIMD=0 (CMake VQM_CPU_SIMD=OFF, through vqm::cpu) leaves it out too.
#if defined(VQM_CPU_SIMD) && !VQM_CPU_SIMD && !defined(VQM_LPF_NO_SIMD)
#define VQM_LPF_NO_SIMD 1
#endif

#if !defined(VQM_LPF_NO_SIMD) && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))) && \
    (defined(__GNUC__) || defined(__clang__))
#define VQM_LPF_HAVE_SSE2 1
#include <immintrin.h>

namespace vqm::lpf::detail::sse2 {
#define VQM_LPF_LANES 8
#include "vqm/lpf/detail/simd_kernel.inl"
#undef VQM_LPF_LANES
#define VQM_LPF_LANES 16
#include "vqm/lpf/detail/simd_u8.inl"
#undef VQM_LPF_LANES
}  // namespace vqm::lpf::detail::sse2

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
namespace vqm::lpf::detail::avx2 {
#define VQM_LPF_LANES 16
#include "vqm/lpf/detail/simd_kernel.inl"
#undef VQM_LPF_LANES
#define VQM_LPF_LANES 32
#include "vqm/lpf/detail/simd_u8.inl"
#undef VQM_LPF_LANES
}  // namespace vqm::lpf::detail::avx2
#pragma GCC diagnostic pop
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#define VQM_LPF_HAVE_AVX2 1

namespace vqm::lpf::detail {
inline bool cpu_has_avx2() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return yes;
}
}  // namespace vqm::lpf::detail
#endif
