// x86 part of the SIMD plumbing: the intrinsics, the AVX2 attributes, the helpers that need an x86
// instruction, and the integer lanes of an SSE2 and of an AVX2 register that the x86/<m>.inl kernel
// bodies are written in. cpu/simd.hpp includes it after the vector types when VQM_CPU_X86 is set.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

// Kernel entry points for AVX2; flatten inlines the whole kernel body, so AVX2-only helpers can be
// inlined where the caller is an AVX2 function.
#define VQM_CPU_AVX2 __attribute__((target("avx2"), flatten))

// Every function declared between these two is compiled for AVX2: a body written once (x86/<m>.inl) is
// included in namespace sse2, as SSE2 code (x86-64's baseline), and between them in namespace avx2.
#if defined(__clang__)
#define VQM_CPU_AVX2_BEGIN _Pragma("clang attribute push(__attribute__((target(\"avx2\"))), apply_to = function)")
#define VQM_CPU_AVX2_END _Pragma("clang attribute pop")
#else
#define VQM_CPU_AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2\")")
#define VQM_CPU_AVX2_END _Pragma("GCC pop_options")
#endif

// The same for AVX-512 (F, BW, VL, DQ: cpu::isa::avx512). Clang's avx512f target also enables FMA; vqm's code is
// compiled with -ffp-contract=off (vqm::vqm carries it), so nothing is fused unless written as an FMA intrinsic.
#define VQM_CPU_AVX512_TARGET "avx512f,avx512bw,avx512vl,avx512dq"
#define VQM_CPU_AVX512 __attribute__((target(VQM_CPU_AVX512_TARGET), flatten))
#if defined(__clang__)
#define VQM_CPU_AVX512_BEGIN \
  _Pragma("clang attribute push(__attribute__((target(\"avx512f,avx512bw,avx512vl,avx512dq\"))), apply_to = function)")
#define VQM_CPU_AVX512_END _Pragma("clang attribute pop")
#else
#define VQM_CPU_AVX512_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512bw,avx512vl,avx512dq\")")
#define VQM_CPU_AVX512_END _Pragma("GCC pop_options")
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace vqm::cpu::simd {

// f(), compiled for AVX2: flatten inlines f's body (a portable kernel's AVX2 instance) into this function.
template <class F>
VQM_CPU_AVX2 inline decltype(auto) as_avx2(F&& f) noexcept(noexcept(f())) {
  return f();
}

// f(), compiled for AVX-512 (as as_avx2).
template <class F>
VQM_CPU_AVX512 inline decltype(auto) as_avx512(F&& f) noexcept(noexcept(f())) {
  return f();
}

#if !defined(__clang__)
#define VQM_CPU_WIDEN_AVX2 1
// GCC 12 splits __builtin_convertvector(f4 -> d4) into 128-bit halves; one vcvtps2pd ymm is what we want.
__attribute__((target("avx2"))) inline d4 widen_avx2(f4 v) noexcept {
  return reinterpret_cast<d4>(_mm256_cvtps_pd(reinterpret_cast<__m128>(v)));
}
#endif

// 8 samples of T (uint8 or uint16), zero-extended to the int32 lanes of an AVX2 register.
template <class T>
[[gnu::target("avx2")]] inline __m256i widen8_avx2(const T* p) noexcept {
  if constexpr (sizeof(T) == 1) return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  else return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Correctly rounded float square root per lane (SSE is part of every x86-64 target).
VQM_CPU_INLINE f4 sqrt_sse(f4 v) noexcept { return reinterpret_cast<f4>(_mm_sqrt_ps(reinterpret_cast<__m128>(v))); }

}  // namespace simd

// The integer lanes of one register, for kernel bodies written once for SSE2 and AVX2 (x86/lanes.inl).
#define VQM_CPU_X86_BYTES 16
namespace vqm::cpu::detail::x86::sse2 {
#include "vqm/cpu/x86/lanes.inl"
}  // namespace vqm::cpu::detail::x86::sse2
#undef VQM_CPU_X86_BYTES
#define VQM_CPU_X86_BYTES 32
VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::detail::x86::avx2 {
#include "vqm/cpu/x86/lanes.inl"
}  // namespace vqm::cpu::detail::x86::avx2
VQM_CPU_AVX2_END
#undef VQM_CPU_X86_BYTES

#pragma GCC diagnostic pop
