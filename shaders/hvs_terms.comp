#version 450
// PSNR-HVS terms (SPEC §6.5), cooperatively: a workgroup of 64 invocations handles a quarter (4 blocks) of a
// level-1 group of 16 blocks of a plane, 16 lanes per block (8 per picture, one per column). Writes the
// block's 64 terms e·e in coefficient raster order at term index 64·(global block), the block's double sum
// and the quarter's (scan estimates: any order will do). Small workgroups keep more of them resident
// (measured in docs/performance.md). Every float
// op is binary32 and `precise` (no contraction), and every serial float sum keeps libvmaf's order (one lane
// runs it); the two operations Vulkan does not round correctly (division, sqrt) are corrected to the
// correctly rounded binary32 result.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

#define HVS_BLOCKS 4u  // a quarter of a level-1 group (HVS_FAN)
layout(local_size_x = 64) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer ref_buf { uint ref_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer dis_buf { uint dis_words[]; };
layout(std430, set = 0, binding = 3) writeonly buffer terms_buf { float terms[]; };
layout(std430, set = 0, binding = 4) writeonly buffer bsum_buf { double block_sum[]; };
layout(std430, set = 0, binding = 5) writeonly buffer gsum_buf { double quarter_sum[]; };
// Where the planes lie in the two bound buffers (bytes): read in place, no copy.
layout(push_constant) uniform push_block {
  uint ref_byte[3];
  uint dis_byte[3];
  uint ref_stride[3];
  uint dis_stride[3];
};

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

int sample_at(uint pic, uint byte_off) {
  uint w = pic == 0u ? ref_words[byte_off >> 2] : dis_words[byte_off >> 2];
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

shared int smp[HVS_BLOCKS][2][64];   // samples, then (after the row pass) DCT coefficients
shared int zt[HVS_BLOCKS][2][64];    // column-pass output
shared float prod[HVS_BLOCKS][2][64];  // f32(d²)·mask[k], rounded per element as in libvmaf's loop
shared float vquad[HVS_BLOCKS][2][4];
shared float bmask[HVS_BLOCKS][2];
shared double psum[HVS_BLOCKS][16];
shared double bsum[HVS_BLOCKS];

void main() {
  uint t = gl_LocalInvocationID.x;
  uint blk = t >> 4, lane = t & 15u, pic = lane >> 3, c = lane & 7u;
  uint wg = gl_WorkGroupID.x, p = 0u, grp = wg;
  // Quarters of plane p: 4 per level-1 group, so quarter wg of the frame is quarter 4·G + j of group G.
  uint g0 = 4u * hvs_groups(plane[0].bx * plane[0].by), g1 = 4u * hvs_groups(plane[1].bx * plane[1].by);
  if (grp >= g0) {
    grp -= g0;
    p = 1u;
    if (grp >= g1) {
      grp -= g1;
      p = 2u;
    }
  }
  uint lb = grp * HVS_BLOCKS + blk;
  bool valid = lb < plane[p].bx * plane[p].by;
  uint g = plane[p].block_offset + lb;

  // Load column c of the block and run the column pass of the 2-D DCT (SPEC §6.4) in registers.
  int col[8];
  if (valid) {
    uint by = lb / plane[p].bx, bx = lb - by * plane[p].bx;
    uint stride = pic == 0u ? ref_stride[p] : dis_stride[p];
    uint base = (pic == 0u ? ref_byte[p] : dis_byte[p]) + (by * 7u) * stride + (bx * 7u + c) * bytes_per_sample;
    for (uint r = 0u; r < 8u; ++r) {
      col[r] = sample_at(pic, base + r * stride);
      smp[blk][pic][r * 8u + c] = col[r];
    }
  } else {
    for (uint r = 0u; r < 8u; ++r) col[r] = 0;
  }
  fdct8(col);  // column c of the samples -> z[c*8 + k]
  for (uint k = 0u; k < 8u; ++k) zt[blk][pic][c * 8u + k] = col[k];
  barrier();

  // Steps 1–4 of SPEC §6.5: lane 0 the whole-block variance, lanes 1–4 the quadrant variances, each in
  // libvmaf's raster order (the sums of samples are integers < 2^24: exact in any order).
  precise float var = 0.0;
  if (valid && c == 0u) {
    precise float gm = 0.0;
    for (uint i = 0u; i < 64u; ++i) gm = gm + float(smp[blk][pic][i]);
    gm = gm * 0.015625;
    for (uint i = 0u; i < 64u; ++i) {
      precise float dg = float(smp[blk][pic][i]) - gm;
      var = var + dg * dg;
    }
    var = var * k63;
  } else if (valid && c <= 4u) {
    // quadrant c-1: q0 = (i<4, j<4), q1 = (i>=4, j<4), q2 = (i<4, j>=4), q3 = (i>=4, j>=4)
    uint qd = c - 1u, i0 = (qd & 1u) * 4u, j0 = (qd >> 1) * 4u;
    precise float qm = 0.0;
    for (uint i = i0; i < i0 + 4u; ++i)
      for (uint j = j0; j < j0 + 4u; ++j) qm = qm + float(smp[blk][pic][i * 8u + j]);
    qm = qm * 0.0625;
    precise float v = 0.0;
    for (uint i = i0; i < i0 + 4u; ++i)
      for (uint j = j0; j < j0 + 4u; ++j) {
        precise float d = float(smp[blk][pic][i * 8u + j]) - qm;
        v = v + d * d;
      }
    vquad[blk][pic][qd] = v * k15;
  }
  barrier();

  // Row pass: lane c takes column c of z and writes coefficients v[c*8 + k]; then the mask products.
  for (uint r = 0u; r < 8u; ++r) col[r] = zt[blk][pic][r * 8u + c];
  fdct8(col);
  for (uint k = 0u; k < 8u; ++k) {
    uint idx = c * 8u + k;
    smp[blk][pic][idx] = col[k];
    precise float sq = float(col[k] * col[k]);
    precise float pr = sq * mask[p * 64u + idx];
    prod[blk][pic][idx] = pr;
  }
  barrier();

  // Steps 6–7 on lane 0 of each picture: variance ratio, then the serial mask sum over k = 1..63.
  if (valid && c == 0u) {
    precise float num = ((vquad[blk][pic][0] + vquad[blk][pic][1]) + vquad[blk][pic][2]) + vquad[blk][pic][3];
    if (var > 0.0) var = div_rn(num, var);
    precise float e = 0.0;
    for (uint k = 1u; k < 64u; ++k) e = e + prod[blk][pic][k];
    precise float ev = e * var;
    precise float m = sqrt_rn(ev) * 0.03125;
    bmask[blk][pic] = m;
  }
  barrier();

  // The 64 terms, 4 per lane.
  precise double part = 0.0LF;
  if (valid) {
    float ma = bmask[blk][0], mb = bmask[blk][1];
    float m = mb > ma ? mb : ma;
    for (uint j = 0u; j < 4u; ++j) {
      uint k = lane + 16u * j;
      int diff = smp[blk][0][k] - smp[blk][1][k];
      precise float err = float(diff < 0 ? -diff : diff);
      if (k != 0u) {
        float th = div_rn(m, mask[p * 64u + k]);
        err = err < th ? 0.0 : err - th;
      }
      precise float e = err * csf[p * 64u + k];
      precise float tt = e * e;
      terms[g * 64u + k] = tt;
      part += double(tt);
    }
  }
  psum[blk][lane] = part;
  barrier();
  if (lane == 0u) {
    double s = 0.0LF;
    for (uint i = 0u; i < 16u; ++i) s += psum[blk][i];
    if (valid) block_sum[g] = s;
    bsum[blk] = s;  // 0 for blocks past the plane's end
  }
  barrier();
  if (t == 0u) {
    double s = 0.0LF;
    for (uint i = 0u; i < HVS_BLOCKS; ++i) s += bsum[i];
    quarter_sum[wg] = s;
  }
}
