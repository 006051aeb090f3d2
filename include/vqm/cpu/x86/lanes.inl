// Integer lanes of one register of VQM_CPU_X86_BYTES bytes (SSE2: 16, AVX2: 32) and the operations on them
// that need an instruction of their own; included by x86/simd.hpp in namespaces sse2 and avx2. No include
// guard on purpose.

inline constexpr int bytes = VQM_CPU_X86_BYTES;
using u8v = std::uint8_t __attribute__((vector_size(bytes)));
using i16v = std::int16_t __attribute__((vector_size(bytes)));
using i32v = std::int32_t __attribute__((vector_size(bytes)));
using u32v = std::uint32_t __attribute__((vector_size(bytes)));
using u64v = std::uint64_t __attribute__((vector_size(bytes)));

// VQM_CPU_X86_OP(madd_epi16): _mm_madd_epi16 for SSE2, _mm256_madd_epi16 for AVX2.
#if VQM_CPU_X86_BYTES == 16
using reg = __m128i;
#define VQM_CPU_X86_OP(op) _mm_##op
#else
using reg = __m256i;
#define VQM_CPU_X86_OP(op) _mm256_##op
#endif

// Unaligned loads and stores of whole registers: simd::load / store compiled for this instruction set
// (Clang rejects a 32-byte vector passed between a baseline function and an AVX2 one, even inlined).
template <class V>
VQM_CPU_INLINE V load(const void* p) noexcept {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class V>
VQM_CPU_INLINE void store(void* p, V v) noexcept {
  std::memcpy(p, &v, sizeof v);
}

// pmaddwd: a[2i]·b[2i] + a[2i+1]·b[2i+1] in int32 lane i.
VQM_CPU_INLINE i32v madd(i16v a, i16v b) noexcept {
  return reinterpret_cast<i32v>(VQM_CPU_X86_OP(madd_epi16)(reinterpret_cast<reg>(a), reinterpret_cast<reg>(b)));
}

// The int32 lanes of a, then those of b, saturated to int16.
VQM_CPU_INLINE i16v packs(i32v a, i32v b) noexcept {
  const reg p = VQM_CPU_X86_OP(packs_epi32)(reinterpret_cast<reg>(a), reinterpret_cast<reg>(b));
#if VQM_CPU_X86_BYTES == 32
  return reinterpret_cast<i16v>(_mm256_permute4x64_epi64(p, 0xD8));  // AVX2 packs per 128-bit lane: reorder
#else
  return reinterpret_cast<i16v>(p);
#endif
}

// |v| per int32 lane.
VQM_CPU_INLINE i32v abs(i32v v) noexcept {
#if VQM_CPU_X86_BYTES == 32
  return reinterpret_cast<i32v>(_mm256_abs_epi32(reinterpret_cast<reg>(v)));
#else
  const reg x = reinterpret_cast<reg>(v), sign = _mm_srai_epi32(x, 31);  // SSE2 has no pabsd
  return reinterpret_cast<i32v>(_mm_sub_epi32(_mm_xor_si128(x, sign), sign));
#endif
}

// The bytes punpcklbw / punpckhbw take (the low / high half of each 128-bit lane), zero-extended to int16.
template <bool High>
VQM_CPU_INLINE i16v widen(u8v v) noexcept {
  const reg x = reinterpret_cast<reg>(v), z{};
  return reinterpret_cast<i16v>(High ? VQM_CPU_X86_OP(unpackhi_epi8)(x, z) : VQM_CPU_X86_OP(unpacklo_epi8)(x, z));
}

// acc plus every uint32 lane of v, zero-extended into the uint64 lanes (punpckldq, punpckhdq).
VQM_CPU_INLINE u64v add_widened(u64v acc, i32v v) noexcept {
  const reg x = reinterpret_cast<reg>(v), z{};
  return acc + reinterpret_cast<u64v>(VQM_CPU_X86_OP(unpacklo_epi32)(x, z)) +
         reinterpret_cast<u64v>(VQM_CPU_X86_OP(unpackhi_epi32)(x, z));
}

#undef VQM_CPU_X86_OP
