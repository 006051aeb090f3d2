// Integer VIF downsampling, scale SCALE → SCALE+1 (SPEC-vmaf Part I §6), kernel F(SCALE+1): one thread per
// kept sample (even row, even column) of the reference and the distorted image: the vertical pass at the
// columns it needs (rounded by b at scale 0, 16 above), the horizontal pass (rounded by 16), written to the
// pyramid. All sums fit in 32 bits unsigned (§13).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "metrics_common.glsl"
#include "vif_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint in_off[2];   // the scale-SCALE images of ref and dis (see image_at)
  uint in_stride;
  uint in_w, in_h;
  uint bpc;
  uint out_off[2];  // the scale-(SCALE+1) images in the pyramid (row length out_w)
  uint out_w, out_h;
} pc;

void main() {
  const uint oj = gl_GlobalInvocationID.x, oi = gl_GlobalInvocationID.y;
  if (oj >= pc.out_w || oi >= pc.out_h) return;
  const int i = int(2u * oi), j = int(2u * oj);
  const uint shift = SCALE == 0u ? pc.bpc : 16u;
  for (uint pic = 0u; pic < 2u; ++pic) {
    uint acc = 0u;
    for (int kx = 0; kx <= 2 * HALF; ++kx) {
      const uint c = fold(j - HALF + kx, pc.in_w);
      uint v = 0u;
      for (int ky = 0; ky <= 2 * HALF; ++ky)
        v += tap(ky) * image_at(pc.in_off[pic], pc.in_stride, c, fold(i - HALF + ky, pc.in_h), pc.bpc);
      acc += tap(kx) * rs32(v, shift);
    }
    pyr[pc.out_off[pic] + oi * pc.out_w + oj] = rs32(acc, 16u);
  }
}
