#version 450
// Exclusive prefix of the level-1 group sums (16 blocks each: 4 quarter sums from hvs_terms), per plane (one
// workgroup each), into prefix[group] after the 4·groups quarter sums. The prefixes only pick the binades
// the run tables are built for: any rounding here changes speed, never results.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

layout(local_size_x = 256) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) buffer gsum_buf { double group_sum[]; };  // quarters, then prefixes

double group_total(uint g) {
  return ((group_sum[4u * g] + group_sum[4u * g + 1u]) + group_sum[4u * g + 2u]) + group_sum[4u * g + 3u];
}

shared double part[256];

void main() {
  uint p = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
  uint base = 0u;
  for (uint q = 0u; q < p; ++q) base += hvs_groups(plane[q].bx * plane[q].by);
  uint n = hvs_groups(plane[p].bx * plane[p].by);
  uint pre = 4u * (hvs_groups(plane[0].bx * plane[0].by) + hvs_groups(plane[1].bx * plane[1].by) +
                   hvs_groups(plane[2].bx * plane[2].by));
  uint seg = (n + 255u) / 256u;
  uint b0 = min(n, t * seg), b1 = min(n, b0 + seg);
  double acc = 0.0LF;
  for (uint b = b0; b < b1; ++b) acc += group_total(base + b);
  part[t] = acc;
  barrier();
  for (uint off = 1u; off < 256u; off <<= 1) {  // inclusive Hillis–Steele scan of the segment sums
    double v = t >= off ? part[t - off] : 0.0LF;
    barrier();
    part[t] += v;
    barrier();
  }
  acc = t == 0u ? 0.0LF : part[t - 1u];
  for (uint b = b0; b < b1; ++b) {
    double v = group_total(base + b);
    group_sum[pre + base + b] = acc;
    acc += v;
  }
}
