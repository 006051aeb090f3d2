// Integer VIF downsampling, scale SCALE → SCALE+1 (SPEC-vmaf Part I §6), kernel F(SCALE+1), one 16×16 tile of
// kept samples (even rows, even columns) per workgroup: the vertical pass at the tile's even rows over the
// columns its horizontal taps read (rounded by b at scale 0, 16 above) into shared memory, then the horizontal
// pass (rounded by 16), written to the pyramid, for the reference and the distorted image. All sums fit in 32
// bits unsigned (§13).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require

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

const uint OT = 16u;                 // output tile side
const uint MAXCOL = 2u * OT - 1u + 8u;  // input columns a tile's horizontal pass reads, at most (HALF ≤ 4)

shared uint vline[2][OT][MAXCOL];

void main() {
  VIF_TAPS;
  const uint ox0 = gl_WorkGroupID.x * OT, oy0 = gl_WorkGroupID.y * OT;
  const uint lid = gl_LocalInvocationIndex;
  const uint ncol = 2u * OT - 1u + 2u * uint(HALF);
  const uint shift = SCALE == 0u ? pc.bpc : 16u;
  // Vertical pass at rows 2·oi, columns 2·ox0 − HALF + c (folded).
  for (uint idx = lid; idx < OT * ncol; idx += OT * OT) {
    const uint r = idx / ncol, c = idx % ncol;
    const uint oi = oy0 + r;
    if (oi >= pc.out_h) continue;  // never read
    const int i = int(2u * oi);
    const uint col = fold(int(2u * ox0) - HALF + int(c), pc.in_w);
    const bool inside = i >= HALF && i + HALF < int(pc.in_h);
    uint v0 = 0u, v1 = 0u;
    [[unroll]] for (int k = 0; k < 17; ++k) {
      if (k > 2 * HALF) break;
      const uint row = inside ? uint(i - HALF + k) : fold(i - HALF + k, pc.in_h);
      v0 += TAPS[k] * image_at(pc.in_off[0], pc.in_stride, col, row, pc.bpc);
      v1 += TAPS[k] * image_at(pc.in_off[1], pc.in_stride, col, row, pc.bpc);
    }
    vline[0][r][c] = rs32(v0, shift);
    vline[1][r][c] = rs32(v1, shift);
  }
  barrier();
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint oj = ox0 + tx, oi = oy0 + ty;
  if (oj >= pc.out_w || oi >= pc.out_h) return;
  uint a0 = 0u, a1 = 0u;
  [[unroll]] for (int k = 0; k < 17; ++k) {
    if (k > 2 * HALF) break;
    a0 += TAPS[k] * vline[0][ty][2u * tx + uint(k)];
    a1 += TAPS[k] * vline[1][ty][2u * tx + uint(k)];
  }
  pyr[pc.out_off[0] + oi * pc.out_w + oj] = rs32(a0, 16u);
  pyr[pc.out_off[1] + oi * pc.out_w + oj] = rs32(a1, 16u);
}
