// SIMD plumbing of the Cpu kernels: GCC/Clang vector types, run-time ISA selection, small helpers.
//
// The float kernels are written once with vector extensions and instantiated twice: inside a
// target("avx2") function (AVX2 code) and inside a plain one (baseline SSE2 code). Each lane is one
// output sample and performs exactly the scalar reference's operations in the same order, so both
// instantiations are bit-identical to the reference. Never FMA: the AVX2 target does not enable it.
//
// Layout: cpu/<m>.hpp is portable (scalar loops and vector extensions; the whole kernel on any target) and
// picks a path at run time; cpu/x86/<m>.hpp holds m's x86 code (intrinsics, AVX2 and SSE2 functions), which
// the portable header includes only under VQM_CPU_X86, after the portable building blocks it uses.
// VQM_CPU_SIMD=0 (CMake option VQM_CPU_SIMD=OFF) compiles none of it: every kernel on its portable path.
// An aarch64 NEON level would sit beside it: VQM_CPU_ARM64 set like VQM_CPU_X86 below, isa::neon,
// cpu/arm64/<m>.hpp with the same hooks (e.g. vif's rows type) included under VQM_CPU_ARM64 next to the
// x86 files, and detected_isa() reporting it.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#ifndef VQM_CPU_SIMD
#define VQM_CPU_SIMD 1
#endif
#if VQM_CPU_SIMD && (defined(__x86_64__) || defined(__i386__))
#define VQM_CPU_X86 1
#else
#define VQM_CPU_X86 0
#endif

#if !defined(__GNUC__)
#error "vqm's Cpu kernels use GCC/Clang vector extensions"
#endif

#define VQM_CPU_INLINE [[gnu::always_inline]] inline

namespace vqm::cpu {

// Instruction sets the kernels can use, in increasing order. avx512: AVX-512 F+BW+VL+DQ (Skylake-SP and
// later); avx512vnni: that + AVX512_VNNI (Ice Lake, Zen 4 and later). A kernel without a path of a level
// runs the one below it there.
enum class isa : int { baseline = 0, avx2 = 1, avx512 = 2, avx512vnni = 3 };
inline constexpr isa all_isas[] = {isa::baseline, isa::avx2, isa::avx512, isa::avx512vnni};  // in order

[[nodiscard]] constexpr std::string_view isa_name(isa i) noexcept {
  return i == isa::avx512vnni ? "avx512vnni" : i == isa::avx512 ? "avx512" : i == isa::avx2 ? "avx2" : "baseline";
}
// "baseline", "avx2", "avx512" or "avx512vnni" (also "scalar"/"sse2" for baseline); false for anything else.
[[nodiscard]] constexpr bool parse_isa(std::string_view s, isa& out) noexcept {
  for (const isa i : all_isas)
    if (s == isa_name(i)) return out = i, true;
  if (s == "scalar" || s == "sse2") return out = isa::baseline, true;
  return false;
}

namespace detail {
// The cap starts at the highest level, or at $VQM_CPU_ISA (baseline|avx2|avx512|avx512vnni) so that a whole run —
// the CLI, a benchmark — can be held to a lower level (e.g. an AVX2-only comparison); an unknown value is
// ignored, as an unset one.
inline std::atomic<int>& isa_limit() noexcept {
  static std::atomic<int> limit{[] {
    isa i = isa::avx512vnni;
    if (const char* env = std::getenv("VQM_CPU_ISA")) (void)parse_isa(env, i);
    return static_cast<int>(i);
  }()};
  return limit;
}
}  // namespace detail

namespace simd {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

using f4 = float __attribute__((vector_size(16)));
using d4 = double __attribute__((vector_size(32)));
using f8 = float __attribute__((vector_size(32)));
using i8 = std::int32_t __attribute__((vector_size(32)));

template <class V>
VQM_CPU_INLINE V load(const void* p) noexcept {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class V>
VQM_CPU_INLINE void store(void* p, const V& v) noexcept {  // by reference: GCC flags 64-byte vectors by value
  std::memcpy(p, &v, sizeof v);
}

#pragma GCC diagnostic pop

}  // namespace simd
}  // namespace vqm::cpu

#if VQM_CPU_X86
#include "vqm/cpu/x86/simd.hpp"
#endif

namespace vqm::cpu {

// The best instruction set of this machine.
[[nodiscard]] inline isa detected_isa() noexcept {
#if VQM_CPU_X86
  static const isa best = [] {
    if (!__builtin_cpu_supports("avx2")) return isa::baseline;
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (!avx512) return isa::avx2;
    return __builtin_cpu_supports("avx512vnni") ? isa::avx512vnni : isa::avx512;
  }();
  return best;
#else
  return isa::baseline;
#endif
}

// Caps the instruction set the kernels use (tests run every path); results never depend on it.
inline void set_max_isa(isa i) noexcept { detail::isa_limit().store(static_cast<int>(i), std::memory_order_relaxed); }

// The cap now (set_max_isa's last value, else $VQM_CPU_ISA's, else the highest level).
[[nodiscard]] inline isa max_isa() noexcept { return static_cast<isa>(detail::isa_limit().load(std::memory_order_relaxed)); }

// The instruction set the kernels use now: min(detected, cap).
[[nodiscard]] inline isa active_isa() noexcept {
  const int cap = static_cast<int>(max_isa());
  const int have = static_cast<int>(detected_isa());
  return static_cast<isa>(cap < have ? cap : have);
}

// Every level this machine runs, lowest first: what tests and benchmarks sweep.
[[nodiscard]] inline std::vector<isa> available_isas() {
  std::vector<isa> v;
  for (int i = 0; i <= static_cast<int>(detected_isa()); ++i) v.push_back(static_cast<isa>(i));
  return v;
}

namespace simd {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

// f4 -> d4, exact. Avx2: only inside an AVX2 kernel.
template <bool Avx2>
VQM_CPU_INLINE d4 widen(f4 v) noexcept {
#ifdef VQM_CPU_WIDEN_AVX2
  if constexpr (Avx2) return widen_avx2(v);
#endif
  return __builtin_convertvector(v, d4);
}
VQM_CPU_INLINE f4 narrow(d4 v) noexcept { return __builtin_convertvector(v, f4); }  // round to nearest
VQM_CPU_INLINE f4 splat4(float v) noexcept { return f4{v, v, v, v}; }
VQM_CPU_INLINE d4 splat4d(double v) noexcept { return d4{v, v, v, v}; }
VQM_CPU_INLINE f8 splat8(float v) noexcept { return f8{v, v, v, v, v, v, v, v}; }

// Correctly rounded float square root per lane.
VQM_CPU_INLINE f4 sqrt(f4 v) noexcept {
#if VQM_CPU_X86
  return sqrt_sse(v);
#else
  return f4{__builtin_sqrtf(v[0]), __builtin_sqrtf(v[1]), __builtin_sqrtf(v[2]), __builtin_sqrtf(v[3])};
#endif
}
VQM_CPU_INLINE f8 sqrt(f8 v) noexcept {
  f4 lo, hi;
  std::memcpy(&lo, &v, sizeof lo);
  std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
  lo = sqrt(lo);
  hi = sqrt(hi);
  f8 r;
  std::memcpy(&r, &lo, sizeof lo);
  std::memcpy(reinterpret_cast<char*>(&r) + sizeof lo, &hi, sizeof hi);
  return r;
}

#pragma GCC diagnostic pop

}  // namespace simd
}  // namespace vqm::cpu
