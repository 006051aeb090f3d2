// SSIM statistics, horizontal pass (SPEC §4.5): for every row r < h and column c < w−10, the 11-tap
// valid-mode filter of x, y, x·x, y·y, x·y (products as float ops), each tap product a float op, summed
// in double in tap order, rounded once. Writes 5 planes of (w−10)·h floats at tmp_off.
#version 450

#include "ssim_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint x_off;
  uint y_off;
  uint w;
  uint h;
  uint tmp_off;
} pc;

void main() {
  const uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
  const uint ow = pc.w - 10u;
  if (c >= ow || r >= pc.h) return;
  precise double ax = 0.0LF, ay = 0.0LF, axx = 0.0LF, ayy = 0.0LF, axy = 0.0LF;
  const uint xr = pc.x_off + r * pc.w + c, yr = pc.y_off + r * pc.w + c;
  for (int k = 0; k < 11; ++k) {
    const float g = gtap(k);
    const float a = fbuf[xr + k], b = fbuf[yr + k];
    precise float aa = a * a;
    precise float bb = b * b;
    precise float ab = a * b;
    precise float pa = a * g;
    precise float pb = b * g;
    precise float paa = aa * g;
    precise float pbb = bb * g;
    precise float pab = ab * g;
    ax += double(pa);
    ay += double(pb);
    axx += double(paa);
    ayy += double(pbb);
    axy += double(pab);
  }
  const uint n = ow * pc.h, o = pc.tmp_off + r * ow + c;
  fbuf[o] = float(ax);
  fbuf[o + n] = float(ay);
  fbuf[o + 2u * n] = float(axx);
  fbuf[o + 3u * n] = float(ayy);
  fbuf[o + 4u * n] = float(axy);
}
