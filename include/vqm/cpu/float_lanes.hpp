// Lane-width-generic vectors for the float features' kernels (float_vif, float_motion): a kernel is written
// once as a template on its lane count N, each lane one output sample doing exactly the scalar reference's
// operations in its order, and with_lanes() runs it with 16 lanes under AVX-512, 8 under AVX2, 4 otherwise
// (SSE2 on x86-64, plain vector extensions elsewhere) — the same bits at every level.
#pragma once

#include <cstdint>

#include "vqm/cpu/simd.hpp"

namespace vqm::cpu::flanes {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

// The widest vector: buffers a kernel reads a whole vector from keep this many floats of slack, so a
// row's last vector may run past its end (its extra lanes are computed and dropped).
inline constexpr int max_lanes = 16;

// N binary32 lanes, their double and int32 counterparts.
template <int N>
struct lanes;
template <>
struct lanes<4> {
  using f = float __attribute__((vector_size(16)));
  using d = double __attribute__((vector_size(32)));
  using i = std::int32_t __attribute__((vector_size(16)));
};
template <>
struct lanes<8> {
  using f = float __attribute__((vector_size(32)));
  using d = double __attribute__((vector_size(64)));
  using i = std::int32_t __attribute__((vector_size(32)));
};
template <>
struct lanes<16> {
  using f = float __attribute__((vector_size(64)));
  using d = double __attribute__((vector_size(128)));
  using i = std::int32_t __attribute__((vector_size(64)));
};

template <class V, class T>
VQM_CPU_INLINE V splat(T v) noexcept {
  V r{};  // initialised: GCC 12 at -O1 cannot see the loop writes every lane (-Wmaybe-uninitialized)
  for (int i = 0; i < static_cast<int>(sizeof r / sizeof v); ++i) r[i] = v;
  return r;
}

// k.template operator()<N>() at the widest level active_isa() allows; k's body is compiled for that level.
template <class K>
inline decltype(auto) with_lanes(K&& k) {
#if VQM_CPU_X86
  if (active_isa() >= isa::avx512) return simd::as_avx512([&]() -> decltype(auto) { return k.template operator()<16>(); });
  if (active_isa() >= isa::avx2) return simd::as_avx2([&]() -> decltype(auto) { return k.template operator()<8>(); });
#endif
  return k.template operator()<4>();
}

#pragma GCC diagnostic pop

}  // namespace vqm::cpu::flanes
