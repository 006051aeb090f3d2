// SSIM vertical pass + per-pixel terms (SPEC §4.5–§4.6) + a workgroup sum in double: partial[4·(base+g)
// + 0..3] = Σ ssim, Σ l, Σ c, Σ s over the workgroup's map positions. The tmp planes are (w−10)·h.
#version 450

#include "ssim_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint tmp_off;
  uint ow;  // w − 10
  uint h;
  uint partial_base;
} pc;

shared double red[4][256];

void main() {
  const uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
  const uint t = gl_LocalInvocationIndex;
  const uint oh = pc.h - 10u;
  double t_ssim = 0.0LF, t_l = 0.0LF, t_c = 0.0LF, t_s = 0.0LF;
  if (c < pc.ow && r < oh) {
    const uint n = pc.ow * pc.h;
    precise double a0 = 0.0LF, a1 = 0.0LF, a2 = 0.0LF, a3 = 0.0LF, a4 = 0.0LF;
    for (int k = 0; k < 11; ++k) {
    const float g = gtap(k);
      const uint o = pc.tmp_off + (r + uint(k)) * pc.ow + c;
      precise float p0 = fbuf[o] * g;
      precise float p1 = fbuf[o + n] * g;
      precise float p2 = fbuf[o + 2u * n] * g;
      precise float p3 = fbuf[o + 3u * n] * g;
      precise float p4 = fbuf[o + 4u * n] * g;
      a0 += double(p0);
      a1 += double(p1);
      a2 += double(p2);
      a3 += double(p3);
      a4 += double(p4);
    }
    const float mx = float(a0), my = float(a1), sxx = float(a2), syy = float(a3), sxy = float(a4);
    precise float mxx = mx * mx;
    precise float myy = my * my;
    precise float mxy = mx * my;
    precise float vx = sxx - mxx;
    precise float vy = syy - myy;
    vx = vx < 0.0 ? 0.0 : vx;
    vy = vy < 0.0 ? 0.0 : vy;
    precise float cov = sxy - mxy;
    precise float vxy = vx * vy;
    const float sd = sqrt_rn(vxy);
    precise float den_l = (mxx + myy) + C1;
    precise double num_l = (2.0LF * double(mx)) * double(my) + double(C1);
    precise double l = num_l / double(den_l);
    precise float den_c = (vx + vy) + C2;
    precise double num_c = 2.0LF * double(sd) + double(C2);
    precise double cc = num_c / double(den_c);
    if (cov < 0.0 && sd <= 0.0) cov = 0.0;
    precise float sn = cov + C3;
    precise float sden = sd + C3;
    const float s = div_rn(sn, sden);
    precise double lc = l * cc;
    precise double ssim = lc * double(s);
    t_ssim = ssim;
    t_l = l;
    t_c = cc;
    t_s = double(s);
  }
  red[0][t] = t_ssim;
  red[1][t] = t_l;
  red[2][t] = t_c;
  red[3][t] = t_s;
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
  if (t == 0u) {
    const uint g = pc.partial_base + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    for (uint j = 0u; j < 4u; ++j) partial[4u * g + j] = red[j][0];
  }
}
