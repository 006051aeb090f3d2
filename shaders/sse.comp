// Exact sums of squared differences per plane (integer PSNR, SPEC §2.4; float PSNR, SPEC §3), pass 1:
// one uint64 partial per workgroup. Workgroup g of plane z covers rows [g·R, (g+1)·R).
// ROUND24 (float_psnr at 16 bits): each square is rounded to binary32 first, f32(d·d) — exactly what
// libvmaf's float path adds (an integer-valued float, so the uint64 sum stays exact).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "metrics_common.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 1) writeonly buffer partial_buf { uint64_t partial[]; };

layout(push_constant) uniform push_t {
  uint ref_off[3];
  uint dis_off[3];
  uint stride[3];
  uint width[3];
  uint height[3];
  uint bpc;
  uint rows_per_group;
  uint groups;        // workgroups per plane (partial slots per plane)
  uint round24;
  uint partial_base;  // first partial slot
} pc;

shared uint64_t red[256];

void main() {
  const uint p = gl_WorkGroupID.z;
  const uint g = gl_WorkGroupID.x;
  const uint t = gl_LocalInvocationIndex;
  const uint w = pc.width[p];
  const uint y0 = g * pc.rows_per_group;
  const uint y1 = min(y0 + pc.rows_per_group, pc.height[p]);
  const uint spw = pc.bpc > 8u ? 2u : 4u;  // samples per word
  const uint wpr = (w + spw - 1u) / spw;
  uint64_t acc = 0ul;
  for (uint y = y0; y < y1; ++y) {
    const uint ra = pc.ref_off[p] + y * pc.stride[p];
    const uint rb = pc.dis_off[p] + y * pc.stride[p];
    for (uint wx = t; wx < wpr; wx += 256u) {
      const uint a = pics[ra + wx];
      const uint b = pics[rb + wx];
      const uint bits = 32u / spw;
      for (uint k = 0u; k < spw; ++k) {
        if (wx * spw + k >= w) break;
        const int sa = int(bitfieldExtract(a, int(k * bits), int(bits)));
        const int sb = int(bitfieldExtract(b, int(k * bits), int(bits)));
        const uint d = uint(abs(sa - sb));
        if (pc.round24 != 0u) {
          precise float fd = float(d);
          precise float q = fd * fd;
          acc += uint64_t(q);
        } else {
          acc += uint64_t(d * d);  // < 2^32 at 16 bits
        }
      }
    }
  }
  red[t] = acc;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    barrier();
  }
  if (t == 0u) partial[pc.partial_base + p * pc.groups + g] = red[0];
}
