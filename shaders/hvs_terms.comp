#version 450
// PSNR-HVS terms (SPEC §6.5): one invocation per 8x8 block of any plane; writes the block's 64 terms e·e in
// coefficient raster order at term index 64·(global block) and the block's double sum (a scan estimate).
// Every float op is binary32 and `precise` (no contraction); the two operations Vulkan does not round
// correctly (division, sqrt) are corrected to the correctly rounded binary32 result.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

layout(local_size_x = 64) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer frame_buf { uint frame[]; };
layout(std430, set = 0, binding = 2) writeonly buffer terms_buf { float terms[]; };
layout(std430, set = 0, binding = 3) writeonly buffer bsum_buf { double block_sum[]; };

float next_up(float x) { return uintBitsToFloat(floatBitsToUint(x) + 1u); }    // x >= 0, finite
float next_down(float x) { return uintBitsToFloat(floatBitsToUint(x) - 1u); }  // x > 0

// Correctly rounded a / b for a >= 0, b > 0 normal: a double estimate, then moves of one ulp while a is
// outside (lo·b, hi·b), lo/hi the midpoints around q. The products of 25-bit midpoints by 24-bit b are
// exact in double; a/b is never a midpoint (its significand would need 25+ bits).
float div_rn(float a, float b) {
  if (a == 0.0) return 0.0;
  precise float q = float(double(a) / double(b));
  precise double da = double(a), db = double(b);
  for (int i = 0; i < 4; ++i) {
    precise double lo = (double(q) + double(next_down(q))) * 0.5LF;
    precise double hi = (double(q) + double(next_up(q))) * 0.5LF;
    precise double lob = lo * db;
    precise double hib = hi * db;
    if (da < lob) q = next_down(q);
    else if (da > hib) q = next_up(q);
    else break;
  }
  return q;
}

// Correctly rounded sqrt(x), x >= 0: same scheme with lo² < x < hi².
float sqrt_rn(float x) {
  if (x == 0.0) return 0.0;
  precise float r = float(sqrt(double(x)));
  precise double dx = double(x);
  for (int i = 0; i < 4; ++i) {
    precise double lo = (double(r) + double(next_down(r))) * 0.5LF;
    precise double hi = (double(r) + double(next_up(r))) * 0.5LF;
    precise double lo2 = lo * lo;
    precise double hi2 = hi * hi;
    if (dx < lo2) r = next_down(r);
    else if (dx > hi2) r = next_up(r);
    else break;
  }
  return r;
}

int sample_at(uint byte_off) {
  uint w = frame[byte_off >> 2];
  if (bytes_per_sample == 1u) return int((w >> ((byte_off & 3u) * 8u)) & 0xffu);
  return int((w >> ((byte_off & 2u) * 8u)) & 0xffffu);
}

int hvs_half(int v) { return (v + (v < 0 ? 1 : 0)) >> 1; }
int hvs_mul(int v, int k, int s) { return (v * k + (1 << (s - 1))) >> s; }

void fdct8(inout int x[8]) {
  int t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  t1 = t0 - t1; int h1 = hvs_half(t1); t0 = t0 - h1;
  t4 = t4 + t5; int h4 = hvs_half(t4); t5 = t5 - h4;
  t3 = t2 - t3; t2 = t2 - hvs_half(t3);
  t6 = t6 + t7; int h6 = hvs_half(t6); t7 = h6 - t7;
  t0 = t0 + h6; t6 = t0 - t6; t2 = h4 - t2; t4 = t2 - t4;
  t0 -= hvs_mul(t4, 13573, 15); t4 += hvs_mul(t0, 11585, 14); t0 -= hvs_mul(t4, 13573, 15);
  t6 -= hvs_mul(t2, 21895, 15); t2 += hvs_mul(t6, 15137, 14); t6 -= hvs_mul(t2, 21895, 15);
  t3 += hvs_mul(t5, 19195, 15); t5 += hvs_mul(t3, 11585, 14); t3 -= hvs_mul(t5, 7489, 13);
  t7 = hvs_half(t5) - t7; t5 = t5 - t7; t3 = h1 - t3; t1 = t1 - t3;
  t7 += hvs_mul(t1, 3227, 15); t1 -= hvs_mul(t7, 6393, 15); t7 += hvs_mul(t1, 3227, 15);
  t5 += hvs_mul(t3, 2485, 13); t3 -= hvs_mul(t5, 18205, 15); t5 += hvs_mul(t3, 2485, 13);
  x[0] = t0; x[1] = t1; x[2] = t2; x[3] = t3; x[4] = t4; x[5] = t5; x[6] = t6; x[7] = t7;
}

// In place: v[r*8 + c] samples -> out[u*8 + v] coefficients (columns first, then rows of Z; SPEC §6.4).
void fdct8x8(inout int v[64]) {
  int z[64];
  int col[8];
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = v[r * 8 + c];
    fdct8(col);
    for (int k = 0; k < 8; ++k) z[c * 8 + k] = col[k];
  }
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = z[r * 8 + c];
    fdct8(col);
    for (int k = 0; k < 8; ++k) v[c * 8 + k] = col[k];
  }
}

// Steps 1–4 of SPEC §6.5 on samples: the variance ratio.
float variance_ratio(int v[64]) {
  precise float g = 0.0, q0 = 0.0, q1 = 0.0, q2 = 0.0, q3 = 0.0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      precise float x = float(v[i * 8 + j]);
      g = g + x;
      if (i < 4) { if (j < 4) q0 = q0 + x; else q2 = q2 + x; }
      else { if (j < 4) q1 = q1 + x; else q3 = q3 + x; }
    }
  g = g * 0.015625;  // /64 and /16 are exact power-of-two scalings
  q0 = q0 * 0.0625; q1 = q1 * 0.0625; q2 = q2 * 0.0625; q3 = q3 * 0.0625;
  precise float var = 0.0, v0 = 0.0, v1 = 0.0, v2 = 0.0, v3 = 0.0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      precise float x = float(v[i * 8 + j]);
      precise float dg = x - g;
      var = var + dg * dg;
      if (i < 4) {
        if (j < 4) { precise float d = x - q0; v0 = v0 + d * d; }
        else { precise float d = x - q2; v2 = v2 + d * d; }
      } else {
        if (j < 4) { precise float d = x - q1; v1 = v1 + d * d; }
        else { precise float d = x - q3; v3 = v3 + d * d; }
      }
    }
  var = var * k63;
  v0 = v0 * k15; v1 = v1 * k15; v2 = v2 * k15; v3 = v3 * k15;
  precise float num = ((v0 + v1) + v2) + v3;
  if (var > 0.0) var = div_rn(num, var);
  return var;
}

// Steps 6–7: the mask from the coefficients and the variance ratio.
float block_mask(int d[64], float vr, uint p) {
  precise float e = 0.0;
  for (int k = 1; k < 64; ++k) {
    precise float sq = float(d[k] * d[k]);
    e = e + sq * mask[p * 64u + uint(k)];
  }
  precise float ev = e * vr;
  precise float m = sqrt_rn(ev) * 0.03125;
  return m;
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  if (g >= total_blocks) return;
  uint p = g < plane[1].block_offset ? 0u : (g < plane[2].block_offset ? 1u : 2u);
  uint local = g - plane[p].block_offset;
  uint by = local / plane[p].bx, bx = local - by * plane[p].bx;
  uint x0 = bx * 7u, y0 = by * 7u;
  int a[64], b[64];
  for (uint i = 0u; i < 8u; ++i)
    for (uint j = 0u; j < 8u; ++j) {
      uint off = (y0 + i) * plane[p].stride + (x0 + j) * bytes_per_sample;
      a[i * 8u + j] = sample_at(plane[p].ref_byte + off);
      b[i * 8u + j] = sample_at(plane[p].dis_byte + off);
    }
  float va = variance_ratio(a), vb = variance_ratio(b);
  fdct8x8(a);
  fdct8x8(b);
  float ma = block_mask(a, va, p), mb = block_mask(b, vb, p);
  float m = mb > ma ? mb : ma;
  precise double sum = 0.0LF;
  uint base = g * 64u;
  for (int k = 0; k < 64; ++k) {
    int diff = a[k] - b[k];
    precise float err = float(diff < 0 ? -diff : diff);
    if (k != 0) {
      float t = div_rn(m, mask[p * 64u + uint(k)]);
      err = err < t ? 0.0 : err - t;
    }
    precise float e = err * csf[p * 64u + uint(k)];
    precise float tt = e * e;
    terms[base + uint(k)] = tt;
    sum += double(tt);
  }
  block_sum[g] = sum;
}
