// SSIM input (SPEC §1.2, §4.4): the normalised luma of ref (z = 0) and dis (z = 1), box-decimated by
// `scale` when scale > 1 (s×s taps of weight k = f32(1/s²), float products summed in double, rows
// outer, columns inner, one rounding to float). Writes fbuf[out_off[z] + y·ow + x].
#version 450

#include "ssim_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint in_off[2];
  uint stride;
  uint width;
  uint height;
  uint bpc;
  uint scale;
  uint ow;
  uint oh;
  uint out_off[2];
  float k;
} pc;

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, z = gl_WorkGroupID.z;
  if (x >= pc.ow || y >= pc.oh) return;
  float v;
  if (pc.scale <= 1u) {
    v = normalize_sample(fetch_sample(pc.in_off[z], pc.stride, x, y, pc.bpc), pc.bpc);
  } else {
    const int s = int(pc.scale);
    const int lo = -(s / 2);
    const int hi = s / 2 - ((s & 1) == 0 ? 1 : 0);
    precise double acc = 0.0LF;
    for (int dv = lo; dv <= hi; ++dv) {
      const uint row = uint(mirror_index(s * int(y) + dv, int(pc.height)));
      for (int du = lo; du <= hi; ++du) {
        const uint col = uint(mirror_index(s * int(x) + du, int(pc.width)));
        precise float prod = normalize_sample(fetch_sample(pc.in_off[z], pc.stride, col, row, pc.bpc), pc.bpc) * pc.k;
        acc += double(prod);
      }
    }
    v = float(acc);
  }
  fbuf[pc.out_off[z] + y * pc.ow + x] = v;
}
