// Integer ADM (SPEC-vmaf Part II), shared by adm_dwt.comp, adm_score.comp and adm_reduce.comp: the
// bindings of the program's one descriptor set, the constants of vqm/tables/adm.hpp (specialisation
// constants set by the engine, never retyped here) and the exact helpers.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "metrics_common.glsl"  // binding 0: the frame pair; fetch_sample

layout(std430, set = 0, binding = 1) buffer band_buf { int band[]; };                // subbands, int32
layout(std430, set = 0, binding = 2) buffer partial_buf { int64_t partial[]; };      // per-row sums
layout(std430, set = 0, binding = 3) readonly buffer recip_buf { int recip_d[]; };   // D(m), m = 0..32768
layout(std430, set = 0, binding = 4) buffer result_buf { int64_t result[]; };        // result block

// §4.1 filters, §4.4 scale-(SCALE) rounding/shifts, §7.1, §8, §9.1 constants.
layout(constant_id = 0) const int LO0 = 0;
layout(constant_id = 1) const int LO1 = 0;
layout(constant_id = 2) const int LO2 = 0;
layout(constant_id = 3) const int LO3 = 0;
layout(constant_id = 4) const int HI0 = 0;
layout(constant_id = 5) const int HI1 = 0;
layout(constant_id = 6) const int HI2 = 0;
layout(constant_id = 7) const int HI3 = 0;
layout(constant_id = 8) const int LO_SUM = 0;
layout(constant_id = 9) const int SCALE = 0;
layout(constant_id = 10) const int64_t V_ROUND = 0;
layout(constant_id = 11) const int V_SHIFT = 0;
layout(constant_id = 12) const int64_t H_ROUND = 0;
layout(constant_id = 13) const int H_SHIFT = 0;
layout(constant_id = 14) const int F30_S0 = 0;
layout(constant_id = 15) const int F15_S0 = 0;
layout(constant_id = 16) const int64_t F30_S = 0;
layout(constant_id = 17) const int64_t F15_S = 0;
layout(constant_id = 18) const int64_t QUIRK_ROUND = 0;
layout(constant_id = 19) const double COS1_SQ = 0.0;
layout(constant_id = 20) const int CSF0_SHIFT0 = 0;
layout(constant_id = 21) const int CSF0_SHIFT1 = 0;
layout(constant_id = 22) const int CSF0_SHIFT2 = 0;
layout(constant_id = 23) const int CSF0_ROUND0 = 0;
layout(constant_id = 24) const int CSF0_ROUND1 = 0;
layout(constant_id = 25) const int CSF0_ROUND2 = 0;

int wrap16(int x) { return bitfieldExtract(x, 0, 16); }  // the low 16 bits, sign-extended
int wrap32(int64_t x) { return int(x); }                  // OpSConvert: the low 32 bits

// int64 -> binary32, round to nearest even, in integer arithmetic (no reliance on the driver's
// float(int64_t)): the top 24 significant bits, rounded on the rest, then an exact scaling.
float i64_to_f32_rn(int64_t x) {
  const int top = int(x >> 32);  // signs through the high word (see adm_score.comp's decouple)
  if (top == 0 && uint(x) == 0u) return 0.0;
  const bool neg = top < 0;
  const uint64_t a = neg ? uint64_t(-x) : uint64_t(x);
  const uint hi = uint(a >> 32), lo = uint(a);
  const int len = hi != 0u ? findMSB(hi) + 33 : findMSB(lo) + 1;
  const int sh = len - 24;
  uint m;
  if (sh <= 0) {
    m = uint(a);
  } else {
    uint64_t mant = a >> sh;
    const uint64_t rem = a - (mant << sh), hw = 1ul << (sh - 1);
    if (rem > hw || (rem == hw && (mant & 1ul) != 0ul)) mant += 1ul;
    m = uint(mant);  // <= 2^24: exact as a float
  }
  precise float f = ldexp(float(m), max(sh, 0));
  return neg ? -f : f;
}
