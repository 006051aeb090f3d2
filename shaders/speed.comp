// SpEED's per-pixel work (libvmaf's speed.c; SPEC-vmaf-v1 §B.4–B.8), binary32/double in the Cpu kernel's
// order (cpu/speed.hpp), no contraction (precise), for `images` images at once (z):
//  mode 0: temporal: this frame's raw ref and dis lumas into its ring entry (a word copy);
//  mode 1: the anti-alias filter down the columns at the kept rows 16·i, of the working plane prescaled on
//          the fly (direct, cropped/zero-padded, or resampled with the host's tables) into vtmp;
//  mode 2: the anti-alias filter along the kept columns 16·j: the 1/16 plane `low`;
//  mode 3: the local-mean filter down the columns of low: tmp;
//  mode 4: band = low − the local-mean filter along tmp's rows (scratch, and the readback block);
//  mode 5: the 25 binary32 means of the covariance windows (row-major serial sums, correctly rounded / N);
//  mode 6: the 325 double covariance sums, each serial in row-major order, into the readback block, and
//          the slot's index into the result block (the engine's decode finds its readback block by it).
// The working plane of image z: chroma (kind 0): the plane at a_off[z] (absent: mid-grey 0); temporal
// (kind 1): previous (ring, a_off[z]) minus current (input, b_off[z]), in binary32.
#version 450
#extension GL_ARB_gpu_shader_fp64 : require

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer pics_buf { uint pics[]; };
layout(std430, set = 0, binding = 1) buffer scratch_buf { float scratch[]; };
layout(std430, set = 0, binding = 2) buffer readback_buf { uint readback[]; };
layout(std430, set = 0, binding = 3) buffer ring_buf { uint ring[]; };
layout(std430, set = 0, binding = 4) readonly buffer tables_buf { uint tables[]; };
layout(std430, set = 0, binding = 5) buffer result_buf { uint result[]; };

layout(push_constant) uniform push_t {
  uint mode, kind, absent;
  uint w, h;      // working plane
  uint sw, sh;    // prescaled plane
  uint wo, ho;    // band plane
  uint bpc, stride;  // input words per row of the working plane (the ring's rows are the same)
  uint a_off[4], b_off[4];
  uint prescale;  // 0: direct, 1: crop / zero pad, 2: resample
  uint method;    // 0 nearest, 1 bilinear, 2 bicubic, 3 lanczos4
  uint taps;      // prescale taps per axis (nearest 1, bilinear 2, bicubic 4, lanczos4 9)
  uint fa, fl;    // anti-alias and local-mean taps
  uint slot, out_word;
} pc;

#include "vif_div.glsl"

int mirror(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

uint sample_of(uint word, uint x) {
  return pc.bpc <= 8u ? bitfieldExtract(word, int((x & 3u) * 8u), 8) : bitfieldExtract(word, int((x & 1u) * 16u), 16);
}
uint word_at(uint x) { return pc.bpc <= 8u ? (x >> 2) : (x >> 1); }
// picture_copy: (f32)sample / 2^(bpc−8) − 128 (the division by a power of two is exact).
float level(uint raw) {
  precise float v = ldexp(float(raw), 8 - int(pc.bpc)) + (-128.0);
  return v;
}

// The working plane of image z at (x, y).
float plane(uint z, int x, int y) {
  const uint at = uint(y) * pc.stride + word_at(uint(x));
  if (pc.kind == 0u) return pc.absent != 0u ? 0.0 : level(sample_of(pics[pc.a_off[z] + at], uint(x)));
  precise float d = level(sample_of(ring[pc.a_off[z] + at], uint(x))) - level(sample_of(pics[pc.b_off[z] + at], uint(x)));
  return d;
}

float tab_f(uint i) { return uintBitsToFloat(tables[i]); }
int tab_i(uint i) { return int(tables[i]); }

// f32(a / b), correctly rounded (b != 0, both normal or a zero).
float fdiv(float a, float b) {
  if (a == 0.0) return b > 0.0 ? a : -a;
  const float q = float(div_rn(double(abs(a)), double(abs(b))));
  return (a < 0.0) != (b < 0.0) ? -q : q;
}

// The prescaled plane at (x, y) (cpu/speed.hpp's prescaled(), cpu/speed_prescale.hpp's run()).
float prescaled(uint z, int x, int y) {
  if (pc.prescale == 0u) return plane(z, x, y);
  if (pc.prescale == 1u) return uint(x) < pc.w && uint(y) < pc.h ? plane(z, x, y) : 0.0;
  const uint t = pc.taps;
  const uint xi = pc.fa + pc.fl, xw = xi + pc.sw * t, yi = xw + pc.sw * t, yw = yi + pc.sh * t;
  if (pc.method == 0u) return plane(z, tab_i(xi + uint(x)), tab_i(yi + uint(y)));
  if (pc.method == 1u) {
    const int lx = tab_i(xi + 2u * uint(x)), hx = tab_i(xi + 2u * uint(x) + 1u);
    const int ly = tab_i(yi + 2u * uint(y)), hy = tab_i(yi + 2u * uint(y) + 1u);
    const float fx = tab_f(xw + 2u * uint(x)), fy = tab_f(yw + 2u * uint(y));
    precise float gx = 1.0 - fx;
    precise float gy = 1.0 - fy;
    precise float v = (gy * gx) * plane(z, lx, ly);
    v = v + (gy * fx) * plane(z, hx, ly);
    v = v + (fy * gx) * plane(z, lx, hy);
    v = v + (fy * fx) * plane(z, hx, hy);
    return v;
  }
  precise float acc = 0.0;
  precise float wsum = 0.0;
  for (uint j = 0u; j < t; ++j) {
    const int iy = tab_i(yi + uint(y) * t + j);
    const float wy = tab_f(yw + uint(y) * t + j);
    for (uint i = 0u; i < t; ++i) {
      precise float wgt = wy * tab_f(xw + uint(x) * t + i);
      wsum = wsum + wgt;
      acc = acc + plane(z, tab_i(xi + uint(x) * t + i), iy) * wgt;
    }
  }
  return pc.method == 3u ? fdiv(acc, wsum) : acc;
}

// Per image: scratch holds vtmp (ho×sw), low, tmp, band (ho×wo each), then 25 means; readback holds the
// band (ho×wo words) then 625 doubles (the covariance sums at x·25 + y, y <= x).
uint scratch_size() { return pc.ho * pc.sw + 3u * pc.ho * pc.wo + 32u; }
uint readback_size() { return pc.ho * pc.wo + 2u * 625u; }

void main() {
  const uint z = gl_GlobalInvocationID.z;
  const uint s0 = z * scratch_size();
  const uint vtmp = s0, low = vtmp + pc.ho * pc.sw, tmp = low + pc.ho * pc.wo, band = tmp + pc.ho * pc.wo,
             means = band + pc.ho * pc.wo;
  const uint r0 = z * readback_size();
  const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
  const int wo = int(pc.wo), ho = int(pc.ho);
  if (pc.mode == 0u) {
    if (uint(x) >= pc.stride || uint(y) >= pc.h) return;
    const uint at = uint(y) * pc.stride + uint(x);
    ring[pc.b_off[z] + at] = pics[pc.a_off[z] + at];
  } else if (pc.mode == 1u) {
    if (uint(x) >= pc.sw || y >= ho) return;
    const int ra = int(pc.fa) / 2;
    precise float acc = 0.0;
    for (uint t = 0u; t < pc.fa; ++t) acc += tab_f(t) * prescaled(z, x, mirror(16 * y - ra + int(t), int(pc.sh)));
    scratch[vtmp + uint(y) * pc.sw + uint(x)] = acc;
  } else if (pc.mode == 2u) {
    if (x >= wo || y >= ho) return;
    const int ra = int(pc.fa) / 2;
    precise float acc = 0.0;
    for (uint t = 0u; t < pc.fa; ++t)
      acc += tab_f(t) * scratch[vtmp + uint(y) * pc.sw + uint(mirror(16 * x - ra + int(t), int(pc.sw)))];
    scratch[low + uint(y * wo + x)] = acc;
  } else if (pc.mode == 3u) {
    if (x >= wo || y >= ho) return;
    const int rl = int(pc.fl) / 2;
    precise float acc = 0.0;
    for (uint t = 0u; t < pc.fl; ++t) acc += tab_f(pc.fa + t) * scratch[low + uint(mirror(y - rl + int(t), ho) * wo + x)];
    scratch[tmp + uint(y * wo + x)] = acc;
  } else if (pc.mode == 4u) {
    if (x >= wo || y >= ho) return;
    const int rl = int(pc.fl) / 2;
    precise float acc = 0.0;
    for (uint t = 0u; t < pc.fl; ++t) acc += tab_f(pc.fa + t) * scratch[tmp + uint(y * wo + mirror(x - rl + int(t), wo))];
    precise float b = scratch[low + uint(y * wo + x)] - acc;
    scratch[band + uint(y * wo + x)] = b;
    readback[r0 + uint(y * wo + x)] = floatBitsToUint(b);
  } else {
    const uint tw = pc.wo / 5u * 5u, th = pc.ho / 5u * 5u, cw = tw - 4u, ch = th - 4u;
    if (pc.mode == 5u) {
      if (x >= 25) return;
      const uint r = uint(x) / 5u, c = uint(x) % 5u;
      precise float s = 0.0;
      for (uint i = 0u; i < ch; ++i)
        for (uint j = 0u; j < cw; ++j) s += scratch[band + (r + i) * pc.wo + c + j];
      scratch[means + uint(x)] = fdiv(s, float(cw * ch));
      return;
    }
    if (x == 0 && z == 0u) result[pc.out_word] = pc.slot;
    if (x >= 325) return;
    int a = 0, k = x;  // pair k -> (a, b), b <= a, in the order a = 0, 1, ...
    while (k > a) {
      k -= a + 1;
      ++a;
    }
    const int b = k;
    const uint ra = uint(a) / 5u, ca = uint(a) % 5u, rb = uint(b) / 5u, cb = uint(b) % 5u;
    const double ma = double(scratch[means + uint(a)]), mb = double(scratch[means + uint(b)]);
    precise double acc = 0.0;
    for (uint i = 0u; i < ch; ++i)
      for (uint j = 0u; j < cw; ++j) {
        precise double da = double(scratch[band + (ra + i) * pc.wo + ca + j]) - ma;
        precise double db = double(scratch[band + (rb + i) * pc.wo + cb + j]) - mb;
        acc += da * db;
      }
    const uvec2 bits = unpackDouble2x32(acc);
    const uint at = r0 + pc.ho * pc.wo + 2u * uint(a * 25 + b);
    readback[at] = bits.x;
    readback[at + 1u] = bits.y;
  }
}
