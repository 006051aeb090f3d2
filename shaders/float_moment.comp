// float_moment, pass 1: exact sums of the raw luma samples and of f32(v)·f32(v) (integer-valued below
// 2^32; v the raw sample, so the squares are libvmaf's scaled by 2^2(bpc−8)) of the reference and the
// distorted, one uint64 partial each per workgroup. Workgroup g covers rows [g·R, (g+1)·R); partial
// segment s (0 Σ ref, 1 Σ dis, 2 Σ ref², 3 Σ dis²) holds `groups` slots.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "metrics_common.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 1) writeonly buffer partial_buf { uint64_t partial[]; };

layout(push_constant) uniform push_t {
  uint off[2];  // first word of the reference's and the distorted's luma
  uint stride;  // words per row
  uint width;
  uint height;
  uint bpc;
  uint rows_per_group;
  uint groups;
} pc;

shared uint64_t red[4][256];

void main() {
  const uint g = gl_WorkGroupID.x;
  const uint t = gl_LocalInvocationIndex;
  const uint y0 = g * pc.rows_per_group;
  const uint y1 = min(y0 + pc.rows_per_group, pc.height);
  const uint spw = pc.bpc > 8u ? 2u : 4u;  // samples per word
  const uint bits = 32u / spw;
  const uint wpr = (pc.width + spw - 1u) / spw;
  uint64_t acc[4] = uint64_t[4](0ul, 0ul, 0ul, 0ul);
  for (uint y = y0; y < y1; ++y) {
    for (uint wx = t; wx < wpr; wx += 256u) {
      for (uint k = 0u; k < 2u; ++k) {
        const uint word = pics[pc.off[k] + y * pc.stride + wx];
        for (uint i = 0u; i < spw; ++i) {
          if (wx * spw + i >= pc.width) break;
          const uint v = bitfieldExtract(word, int(i * bits), int(bits));
          acc[k] += uint64_t(v);
          precise float f = float(v);
          precise float q = f * f;  // exact below 2^24; rounded as libvmaf's float product at 16 bits
          acc[2u + k] += uint64_t(q);
        }
      }
    }
  }
  for (uint s = 0u; s < 4u; ++s) red[s][t] = acc[s];
  barrier();
  for (uint h = 128u; h > 0u; h >>= 1) {
    if (t < h)
      for (uint s = 0u; s < 4u; ++s) red[s][t] += red[s][t + h];
    barrier();
  }
  if (t < 4u) partial[t * pc.groups + g] = red[t][0];
}
