// ciede: each pixel's CIEDE2000 ΔE as libvmaf's ciede.c computes it (vqm/cpu/ciede.hpp), certified or
// handed back. The doubles libvmaf gets from glibc (pow, sqrt, exp, sin, cos, atan2, powf) are
// recomputed with ciede_math.glsl; every value libvmaf rounds to float, and every double comparison
// that picks a branch, is checked to be decided the same for every value within a tolerance of ours
// (rnd, above). A pixel that passes writes its float ΔE; one that fails writes NaN and its six samples,
// and the host computes it with the Cpu kernel (docs/spec-float-features.md, "ciede on Vulkan").
#version 450
#extension GL_ARB_gpu_shader_fp64 : require

#include "metrics_common.glsl"
#include "ciede_math.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 1) writeonly buffer de_buf { float de[]; };
layout(std430, set = 0, binding = 2) writeonly buffer side_buf { uint side[]; };  // 3 words a failed pixel
layout(std430, set = 0, binding = 3) writeonly buffer result_buf { uint result[]; };

layout(push_constant) uniform push_t {
  uint off[6];     // first word of ref Y, U, V, then dis Y, U, V
  uint stride[3];  // words per row of each plane
  uint width;
  uint height;
  uint bpc;
  uint mode;       // bit 0 libvmaf layout, 1 chroma 4:4:4, 2 vertical subsampling, 3 gray, 4 fail every pixel
  uint slot;       // written to the result block: the host finds the slot's buffers with it
  uint result_word;
} pc;

bool ok = true;
const double RE = 5.6843418860808015e-14LF;  // 2^-44, the relative tolerance of ΔE's intermediates

// v rounded to float, with v's distance to libvmaf's double bounded by e: ok stays only if every value
// within e rounds to the same float (rounding is monotonic, so the two ends decide).
float rnd(double v, double e) {
  if (!(float(v - e) == float(v + e))) ok = false;
  return float(v);
}
bool above(double v, double t, double e) {
  if (!(abs(v - t) > e)) ok = false;
  return v > t;
}

uint grey() { return 1u << (pc.bpc - 1u); }

uint plane_sample(uint pic, uint p, uint x, uint y) {
  return fetch_sample(pc.off[3u * pic + p], pc.stride[p], x, y, pc.bpc);
}

// libvmaf's picture buffer (picture.c): Y, Cb, Cr planes w>>ss × h>>ss back to back, rows padded to 32
// samples; word k of it (0 past its end and in the padding).
uint vmaf_at(uint pic, uint k) {
  const bool c444 = (pc.mode & 2u) != 0u, c420 = (pc.mode & 4u) != 0u;
  uint base = 0u;
  for (uint q = 0u; q < 3u; ++q) {
    const uint w = q == 0u || c444 ? pc.width : pc.width >> 1;
    const uint h = q == 0u || !c420 ? pc.height : pc.height >> 1;
    const uint s = (w + 31u) / 32u * 32u;
    if (k < base + s * h) {
      const uint r = (k - base) / s, c = (k - base) % s;
      if (c >= w) return 0u;
      return q > 0u && (pc.mode & 8u) != 0u ? grey() : plane_sample(pic, q, c, r);
    }
    base += s * h;
  }
  return 0u;
}

// Sample p of pixel (x, y) at 4:4:4, as ciede_engine's vmaf_444 / plain_444 read it.
uint sample444(uint pic, uint p, uint x, uint y) {
  if (p == 0u) return plane_sample(pic, 0u, x, y);
  const bool c444 = (pc.mode & 2u) != 0u, c420 = (pc.mode & 4u) != 0u;
  if ((pc.mode & 1u) != 0u) {
    if (c444 && (pc.mode & 8u) == 0u) return plane_sample(pic, p, x, y);
    uint base = (pc.height) * ((pc.width + 31u) / 32u * 32u);
    const uint cw = c444 ? pc.width : pc.width >> 1, ch = c420 ? pc.height >> 1 : pc.height;
    const uint cs = (cw + 31u) / 32u * 32u;
    if (p == 2u) base += cs * ch;
    return vmaf_at(pic, base + (y / 2u) * cs + (c420 ? x / 2u : x));
  }
  if ((pc.mode & 8u) != 0u) return grey();
  return plane_sample(pic, p, c444 ? x : x >> 1, c420 ? y >> 1 : y);
}

#include "ciede_pixel.glsl"

void main() {
  // Rows of at most 32768 workgroups (the guaranteed dispatch limit is 65535 a dimension).
  const uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u + gl_LocalInvocationID.x;
  if (i >= pc.width * pc.height) {
    if (i == pc.width * pc.height) result[pc.result_word] = pc.slot;  // one invocation past the pixels
    return;
  }
  const uint x = i % pc.width, y = i / pc.width;
  uint s[6];
  for (uint pic = 0u; pic < 2u; ++pic)
    for (uint p = 0u; p < 3u; ++p) s[3u * pic + p] = sample444(pic, p, x, y);
  const float d = delta_e(lab_color(s[0], s[1], s[2]), lab_color(s[3], s[4], s[5]));
  if (ok && (pc.mode & 16u) == 0u && !isnan(d)) {
    de[i] = d;
    return;
  }
  de[i] = uintBitsToFloat(0x7fc00000u);
  for (uint w = 0u; w < 3u; ++w) side[3u * i + w] = s[2u * w] | (s[2u * w + 1u] << 16);
}
