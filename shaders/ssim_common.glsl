// Shared by the SSIM / MS-SSIM shaders. Descriptor layout (all five bindings, used or not, so one set
// serves every pipeline of the family): 0 pics (metrics_common.glsl), 1 float scratch (images and
// filter rows), 2 double partials, 3 double results, 4 float tables (the 9x9 low-pass).
// The 11-tap window and C1..C3 are specialization constants set from vqm/tables/ssim.hpp.
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require

#include "metrics_common.glsl"

layout(std430, set = 0, binding = 1) buffer fbuf_buf { float fbuf[]; };
layout(std430, set = 0, binding = 2) buffer partial_buf { double partial[]; };
layout(std430, set = 0, binding = 3) buffer result_buf { double result[]; };
layout(std430, set = 0, binding = 4) readonly buffer table_buf { float table[]; };

layout(constant_id = 0) const float G0 = 0.0;
layout(constant_id = 1) const float G1 = 0.0;
layout(constant_id = 2) const float G2 = 0.0;
layout(constant_id = 3) const float G3 = 0.0;
layout(constant_id = 4) const float G4 = 0.0;
layout(constant_id = 5) const float G5 = 0.0;
layout(constant_id = 6) const float G6 = 0.0;
layout(constant_id = 7) const float G7 = 0.0;
layout(constant_id = 8) const float G8 = 0.0;
layout(constant_id = 9) const float G9 = 0.0;
layout(constant_id = 10) const float G10 = 0.0;
layout(constant_id = 11) const float C1 = 0.0;
layout(constant_id = 12) const float C2 = 0.0;
layout(constant_id = 13) const float C3 = 0.0;

// Tap k of the window (a switch: glslang does not accept arrays of specialization constants; drivers
// fold it once the tap loops are unrolled).
float gtap(int k) {
  switch (k) {
    case 0: return G0;
    case 1: return G1;
    case 2: return G2;
    case 3: return G3;
    case 4: return G4;
    case 5: return G5;
    case 6: return G6;
    case 7: return G7;
    case 8: return G8;
    case 9: return G9;
    default: return G10;
  }
}

// Correctly rounded binary32 sqrt (SPEC §4.6 step 3). Vulkan's sqrt is not correctly rounded, so the
// double-precision estimate is rounded to float and corrected against the exact squares of the two
// neighbouring midpoints (25 significant bits: their squares are exact in double).
float sqrt_rn(float v) {
  precise double dv = double(v);
  float r = float(sqrt(dv));
  precise double rd = double(r);
  const float up = uintBitsToFloat(floatBitsToUint(r) + 1u);
  precise double mid_hi = (rd + double(up)) * 0.5LF;
  precise double sq_hi = mid_hi * mid_hi;
  if (sq_hi < dv) return up;
  if (r > 0.0) {
    const float dn = uintBitsToFloat(floatBitsToUint(r) - 1u);
    precise double mid_lo = (rd + double(dn)) * 0.5LF;
    precise double sq_lo = mid_lo * mid_lo;
    if (sq_lo > dv) return dn;
  }
  return r;
}

// f32(a / b) correctly rounded for binary32 a, b: the double quotient (a few double ulps at worst) is
// never close enough to a binary32 rounding boundary to round the other way (a/b is at least 2^-49
// relative away from any 25-bit midpoint).
float div_rn(float a, float b) {
  precise double q = double(a) / double(b);
  return float(q);
}
