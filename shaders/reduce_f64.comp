// Pass 2 of the SSIM sums: result[4·out_base + j] = Σ_i partial[4·(in_base + i) + j], i < count,
// in double (a tree: the order differs from libvmaf's serial sum by ~1e-16 relative, far below the
// binary32 rounding of the means).
#version 450

#include "ssim_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform push_t {
  uint count;
  uint in_base;
  uint out_base;
} pc;

shared double red[4][256];

void main() {
  const uint t = gl_LocalInvocationIndex;
  precise double a0 = 0.0LF, a1 = 0.0LF, a2 = 0.0LF, a3 = 0.0LF;
  for (uint i = t; i < pc.count; i += 256u) {
    const uint o = 4u * (pc.in_base + i);
    a0 += partial[o];
    a1 += partial[o + 1u];
    a2 += partial[o + 2u];
    a3 += partial[o + 3u];
  }
  red[0][t] = a0;
  red[1][t] = a1;
  red[2][t] = a2;
  red[3][t] = a3;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) {
      precise double e0 = red[0][t] + red[0][t + s];
      precise double e1 = red[1][t] + red[1][t + s];
      precise double e2 = red[2][t] + red[2][t + s];
      precise double e3 = red[3][t] + red[3][t + s];
      red[0][t] = e0;
      red[1][t] = e1;
      red[2][t] = e2;
      red[3][t] = e3;
    }
    barrier();
  }
  if (t == 0u)
    for (uint j = 0u; j < 4u; ++j) result[4u * pc.out_base + j] = red[j][0];
}
