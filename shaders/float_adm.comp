// float_adm (docs/spec-float-features.md, "float_adm"), libvmaf's binary32 order in every step
// (adm_tools.c). One shader, five modes, one scale per dispatch: 0 dwt (the db2 DWT of both pictures:
// each output recomputes the vertical sums its horizontal taps read, the same operations as libvmaf's
// tmp rows; scale 0 reads the luma, v − 128), 1 decouple (restored r and additive a over the filter
// region, DIVS through the RCPSS table or a correctly rounded division), 2 terms (per pixel of the border
// region the nine cubes: num = r masked by a, aim = a masked by r, den = the reference), 3 rows (each
// row's terms added left to right), 4 total (the rows added top to bottom, into the result block).
#version 450

#include "fadm_div.glsl"
#include "metrics_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 1) buffer scratch_buf { float scratch[]; };
layout(std430, set = 0, binding = 2) buffer result_buf { float res[]; };
layout(std430, set = 0, binding = 3) readonly buffer rcp_buf { uint rcp_tab[]; };

layout(push_constant) uniform push_t {
  double egl;        // adm_enhn_gain_limit (a double in the decoupling)
  double by30, by15;  // FLOAT_ONE_BY_30, FLOAT_ONE_BY_15 (double literals)
  uint mode;
  uint w, h;         // the subband size
  uint in_w, in_h, in_stride, bpc;  // dwt: its input (scale 0: the luma, stride in words)
  uint src[2];       // dwt: input of ref / dis; decouple: bands of ref / dis; terms: r|a, ref bands
  uint dst[2];       // dwt: bands of ref / dis; decouple: r|a; terms, rows: output; total: result index
  int l, t, r, b;    // decouple: the filter region; terms, rows, total: the border region
  float factor[3];   // CSF weights h, v, d
  float cos1_sq;     // f32(cos²(1°))
  uint flags;        // 1: band a only, 2: bypass contrast masking, 4: exact division (no table)
  float lo[4];       // libvmaf's db2 low-pass taps (binary32)
  float eps;         // 1e−30f, the decoupling's guard
} pc;

float lo(int k) { return pc.lo[k]; }
float hi(int k) {  // libvmaf's hi = {lo[3], −lo[2], lo[1], −lo[0]} (sign flips are exact)
  return k == 0 ? pc.lo[3] : (k == 1 ? -pc.lo[2] : (k == 2 ? pc.lo[1] : -pc.lo[0]));
}

int mirror(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - t - 1 : t); }

float pix(uint img, int x, int y) {  // dwt input sample (x, y)
  if (img >= 0x80000000u) {  // scale 0: the luma at word img & 0x7FFFFFFF
    precise float v = normalize_sample(fetch_sample(img & 0x7FFFFFFFu, pc.in_stride, uint(x), uint(y), pc.bpc),
                                       pc.bpc) + -128.0;
    return v;
  }
  return scratch[img + uint(y) * pc.in_stride + uint(x)];
}

// RCPSS(x) from the table (vqm/metrics/float_adm_rcp.hpp, fadm::rcp): sign, exponent and the top 12
// mantissa bits; ±inf for zero or denormal x, ±0 past the normal range, NaN quieted.
float rcp(float x) {
  const uint u = floatBitsToUint(x);
  const uint sign = u & 0x80000000u;
  const int e = int((u >> 23) & 0xFFu);
  uint r;
  if (e == 0xFF) {
    r = (u & 0x007FFFFFu) != 0u ? (u | 0x00400000u) : sign;
  } else if (e == 0) {
    r = sign | 0x7F800000u;
  } else {
    const uint m = rcp_tab[(u >> 11) & 0xFFFu];
    const int re = int((m >> 23) & 0xFFu) - (e - 127);
    r = re <= 0 ? sign : (re >= 0xFF ? (sign | 0x7F800000u) : (sign | (uint(re) << 23) | (m & 0x007FFFFFu)));
  }
  return uintBitsToFloat(r);
}

// libvmaf's DIVS(n, d): n · rcp_s(d), rcp_s(x) = xi + xi·(1 − x·xi); or n / d exactly.
float divs(float n, float d) {
  if ((pc.flags & 4u) != 0u) return div_exact(n, d);
  const float xi = rcp(d);
  precise float e = 1.0 - d * xi;
  precise float s = xi + xi * e;
  precise float v = n * s;
  return v;
}

float at(uint base, int x, int y) { return scratch[base + uint(y) * pc.w + uint(x)]; }

// The masking threshold of a pixel: per band the 3×3 of f32(1/30·|factor·m|) with 1/15·|factor·m| at the
// centre (added in double), the bands added h + v + d (adm_cm_s).
float threshold(uint masker, int x, int y) {
  if ((pc.flags & 2u) != 0u) return 0.0;
  const int w = int(pc.w), h = int(pc.h);
  const uint plane = pc.w * pc.h;
  precise float thr = 0.0;
  for (int k = 0; k < 3; ++k) {
    const uint m = masker + uint(k) * plane;
    precise float sum = 0.0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        precise float v = pc.factor[k] * at(m, mirror(x + dx, w), mirror(y + dy, h));
        if (dx == 0 && dy == 0) {
          precise double c = double(sum) + pc.by15 * double(abs(v));
          sum = float(c);
        } else {
          sum += float(pc.by30 * double(abs(v)));
        }
      }
    thr += sum;
  }
  return thr;
}

// The three cubes max(|factor·src| − thr, 0)³ of a pixel, from term index `first` on.
void masked(uint src, uint masker, int x, int y, uint dst, uint first, uint count) {
  const float thr = threshold(masker, x, y);
  const uint plane = pc.w * pc.h;
  for (int k = 0; k < 3; ++k) {
    precise float v = abs(at(src + uint(k) * plane, x, y) * pc.factor[k]) - thr;
    v = v < 0.0 ? 0.0 : v;
    precise float c = v * v * v;
    scratch[dst + (first + uint(k)) * count] = c;
  }
}

void main() {
  const uint gx = gl_GlobalInvocationID.x, gy = gl_GlobalInvocationID.y;
  if (pc.mode == 0u) {
    if (gx >= pc.w || gy >= pc.h) return;
    const int x = int(gx), y = int(gy), iw = int(pc.in_w), ih = int(pc.in_h);
    const uint img = pc.src[gl_GlobalInvocationID.z];
    const bool lo_only = (pc.flags & 1u) != 0u;
    precise float oa = 0.0, ov = 0.0, oh = 0.0, od = 0.0;
    for (int k = 0; k < 4; ++k) {
      const int cx = mirror(2 * x - 1 + k, iw);
      precise float tl = 0.0, th = 0.0;
      for (int i = 0; i < 4; ++i) {
        const float s = pix(img, cx, mirror(2 * y - 1 + i, ih));
        tl += lo(i) * s;
        th += hi(i) * s;
      }
      oa += lo(k) * tl;
      ov += hi(k) * tl;
      oh += lo(k) * th;
      od += hi(k) * th;
    }
    const uint o = pc.dst[gl_GlobalInvocationID.z] + gy * pc.w + gx, plane = pc.w * pc.h;
    scratch[o] = oa;
    if (lo_only) return;
    scratch[o + plane] = oh;
    scratch[o + 2u * plane] = ov;
    scratch[o + 3u * plane] = od;
  } else if (pc.mode == 1u) {
    const int x = pc.l + int(gx), y = pc.t + int(gy);
    if (x >= pc.r || y >= pc.b) return;
    const uint plane = pc.w * pc.h, p = uint(y) * pc.w + uint(x);
    float o[3], d[3], rst[3];
    for (uint k = 0u; k < 3u; ++k) {
      o[k] = scratch[pc.src[0] + (k + 1u) * plane + p];
      d[k] = scratch[pc.src[1] + (k + 1u) * plane + p];
    }
    for (int k = 0; k < 3; ++k) {
      precise float den = o[k] + pc.eps;
      float kk = divs(d[k], den);
      kk = kk < 0.0 ? 0.0 : (kk > 1.0 ? 1.0 : kk);
      precise float rk = kk * o[k];
      rst[k] = rk;
    }
    precise float ot_dp = o[0] * d[0] + o[1] * d[1];
    precise float o_mag_sq = o[0] * o[0] + o[1] * o[1];
    precise float t_mag_sq = d[0] * d[0] + d[1] * d[1];
    precise float lhs = ot_dp * ot_dp;
    precise float rhs = pc.cos1_sq * o_mag_sq * t_mag_sq;
    const bool angle = ot_dp >= 0.0 && lhs >= rhs;
    for (uint k = 0u; k < 3u; ++k) {
      if (angle && rst[k] > 0.0) {
        precise double g2 = double(rst[k]) * pc.egl;
        rst[k] = float(g2 < double(d[k]) ? g2 : double(d[k]));
      }
      if (angle && rst[k] < 0.0) {
        precise double g2 = double(rst[k]) * pc.egl;
        rst[k] = float(g2 > double(d[k]) ? g2 : double(d[k]));
      }
      precise float ak = d[k] - rst[k];
      scratch[pc.dst[0] + k * plane + p] = rst[k];
      scratch[pc.dst[0] + (3u + k) * plane + p] = ak;
    }
  } else if (pc.mode == 2u) {
    const uint rw = uint(pc.r - pc.l), rh = uint(pc.b - pc.t);
    if (gx >= rw || gy >= rh) return;
    const int x = pc.l + int(gx), y = pc.t + int(gy);
    const uint plane = pc.w * pc.h, count = rw * rh, o = pc.dst[0] + gy * rw + gx;
    const uint r = pc.src[0], a = pc.src[0] + 3u * plane;
    masked(r, a, x, y, o, 0u, count);  // num: the restored part, masked by the additive part
    masked(a, r, x, y, o, 3u, count);  // aim: the additive part, masked by the restored part
    for (uint k = 0u; k < 3u; ++k) {     // den: the reference bands
      precise float v = abs(pc.factor[k] * at(pc.src[1] + (k + 1u) * plane, x, y));
      precise float c = v * v * v;
      scratch[o + (6u + k) * count] = c;
    }
  } else if (pc.mode == 3u) {
    const uint rw = uint(pc.r - pc.l), rh = uint(pc.b - pc.t);
    if (gx >= rh || gy >= 9u) return;
    const uint count = rw * rh, row = pc.src[0] + gy * count + gx * rw;
    precise float s = 0.0;
    for (uint i = 0u; i < rw; ++i) s += scratch[row + i];
    scratch[pc.dst[0] + gy * rh + gx] = s;
  } else {
    const uint rh = uint(pc.b - pc.t);
    if (gx >= 9u || gy != 0u) return;
    precise float s = 0.0;
    for (uint i = 0u; i < rh; ++i) s += scratch[pc.src[0] + gx * rh + i];
    res[pc.dst[0] + gx] = s;
  }
}
