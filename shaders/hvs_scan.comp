#version 450
// Exclusive prefix of the per-block double sums, per plane (one workgroup each), in place. The prefixes
// only pick the binades the run tables are built for: any rounding here changes speed, never results.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

layout(local_size_x = 256) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) buffer bsum_buf { double block_sum[]; };

shared double part[256];

void main() {
  uint p = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
  uint nb = plane[p].bx * plane[p].by, base = plane[p].block_offset;
  uint seg = (nb + 255u) / 256u;
  uint b0 = min(nb, t * seg), b1 = min(nb, b0 + seg);
  double acc = 0.0LF;
  for (uint b = b0; b < b1; ++b) acc += block_sum[base + b];
  part[t] = acc;
  barrier();
  if (t == 0u) {
    double run = 0.0LF;
    for (uint i = 0u; i < 256u; ++i) {
      double v = part[i];
      part[i] = run;
      run += v;
    }
  }
  barrier();
  acc = part[t];
  for (uint b = b0; b < b1; ++b) {
    double v = block_sum[base + b];
    block_sum[base + b] = acc;
    acc += v;
  }
}
