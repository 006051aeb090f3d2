// MS-SSIM Dec2 (SPEC §5.3): libvmaf's 9x9 2-D low-pass table (table[0..80], uploaded from
// vqm/tables/ssim.hpp), float products summed in double (rows outer, columns inner), half-sample mirror,
// output ceil(w/2) x ceil(h/2). z = 0 ref, 1 dis.
#version 450

#include "ssim_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint in_off[2];
  uint w;
  uint h;
  uint out_off[2];
  uint ow;
  uint oh;
} pc;

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, z = gl_WorkGroupID.z;
  if (x >= pc.ow || y >= pc.oh) return;
  precise double acc = 0.0LF;
  for (int v = -4; v <= 4; ++v) {
    const uint row = pc.in_off[z] + uint(mirror_index(2 * int(y) + v, int(pc.h))) * pc.w;
    for (int u = -4; u <= 4; ++u) {
      const uint col = uint(mirror_index(2 * int(x) + u, int(pc.w)));
      precise float prod = fbuf[row + col] * table[(v + 4) * 9 + (u + 4)];
      acc += double(prod);
    }
  }
  fbuf[pc.out_off[z] + y * pc.ow + x] = float(acc);
}
