// x86 kernels of cpu/sse.hpp (which includes this file after sse_row_scalar when VQM_CPU_X86 is set): the
// body x86/sse.inl as SSE2, for every x86-64, and as AVX2.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace vqm::cpu::detail::x86::sse2 {
#include "vqm/cpu/x86/sse.inl"
}  // namespace vqm::cpu::detail::x86::sse2

VQM_CPU_AVX2_BEGIN
namespace vqm::cpu::detail::x86::avx2 {
#include "vqm/cpu/x86/sse.inl"
}  // namespace vqm::cpu::detail::x86::avx2
VQM_CPU_AVX2_END

#pragma GCC diagnostic pop
