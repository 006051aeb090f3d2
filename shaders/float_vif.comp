// float_vif (docs/spec-float-features.md), libvmaf's binary32 order in every step. One shader, five
// modes: 0 load (the float luma, v − 128), 1 down (filter + keep even rows/columns), 2 stats (the five
// filtered moments and the statistic per pixel: num/den terms), 3 rows (each row's terms added left to
// right), 4 total (the rows added top to bottom, into the result block). Each pixel recomputes the
// vertical sums its horizontal taps need: the same operations, so the same values as libvmaf's tmp row.
#version 450

#include "metrics_common.glsl"
#include "vif_div.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 1) buffer scratch_buf { float scratch[]; };
layout(std430, set = 0, binding = 2) buffer result_buf { float res[]; };

layout(push_constant) uniform push_t {
  double nsq;    // σ_nsq (double in libvmaf's quotients)
  uint mode;
  uint n;        // taps
  uint w, h;     // the size this pass works on (its output)
  uint in_w, in_h;  // down: the input's size; load: words per row, bits per sample
  uint src[2];   // float offsets of the input images (load: word offsets of the lumas)
  uint dst[2];   // down: the output images; stats: terms; rows: row sums; total: result float index
  float egl;     // f32(vif_enhn_gain_limit)
  float smi;     // σ_max_inv
  float taps[17];
} pc;

int mirror(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

float at(uint img, int x, int y, int w) { return scratch[img + uint(y * w + x)]; }

// f32(a / b), correctly rounded (b > 0): the correctly rounded double quotient rounds to it.
float fdiv(float a, float b) {
  const double q = div_rn(double(abs(a)), double(b));
  return float(a < 0.0 ? -q : q);
}

float log2_approx(float x) {
  if (x == 0.0) return uintBitsToFloat(0xFF800000u);
  if (x < 0.0) return uintBitsToFloat(0x7FC00000u);
  const uint u = floatBitsToUint(x);
  const float r = uintBitsToFloat((u & 0x007FFFFFu) | 0x3F800000u);
  const float base = float(int((u & 0x7F800000u) >> 23) - 127);
  // libvmaf's coefficients as binary32 (its double literals rounded once), bit for bit.
  const uint c[9] = uint[9](0xBC4F9CB1u, 0x3D84CB74u, 0xBE20D169u, 0x3E83AB7Du, 0xBEB52559u, 0x3EF5D3C9u,
                            0xBF38A80Eu, 0x3FB8AA39u, 0x00000000u);
  precise float t = r - 1.0;
  precise float v = 0.0;
  for (int i = 0; i < 9; ++i) v = v * t + uintBitsToFloat(c[i]);
  precise float out_v = base + v;
  return out_v;
}

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  const int n = int(pc.n), half_n = int(pc.n) / 2;
  if (pc.mode == 0u) {
    if (x >= pc.w || y >= pc.h) return;
    for (uint k = 0u; k < 2u; ++k) {
      precise float v = normalize_sample(fetch_sample(pc.src[k], pc.in_w, x, y, pc.in_h), pc.in_h) - 128.0;
      scratch[pc.dst[k] + y * pc.w + x] = v;
    }
  } else if (pc.mode == 1u) {
    if (x >= pc.w || y >= pc.h) return;
    const int iw = int(pc.in_w), ih = int(pc.in_h);
    for (uint k = 0u; k < 2u; ++k) {
      precise float acc = 0.0;
      for (int j = 0; j < n; ++j) {
        const int cx = mirror(2 * int(x) - half_n + j, iw);
        precise float col = 0.0;
        for (int i = 0; i < n; ++i) col += pc.taps[i] * at(pc.src[k], cx, mirror(2 * int(y) - half_n + i, ih), iw);
        acc += pc.taps[j] * col;
      }
      scratch[pc.dst[k] + y * pc.w + x] = acc;
    }
  } else if (pc.mode == 2u) {
    if (x >= pc.w || y >= pc.h) return;
    const int w = int(pc.w), h = int(pc.h);
    precise float m[5] = float[5](0.0, 0.0, 0.0, 0.0, 0.0);
    for (int j = 0; j < n; ++j) {
      const int cx = mirror(int(x) - half_n + j, w);
      precise float c[5] = float[5](0.0, 0.0, 0.0, 0.0, 0.0);
      for (int i = 0; i < n; ++i) {
        const int cy = mirror(int(y) - half_n + i, h);
        const float f = pc.taps[i];
        const float a = at(pc.src[0], cx, cy, w), b = at(pc.src[1], cx, cy, w);
        precise float aa = a * a, bb = b * b, ab = a * b;
        c[0] += f * a;
        c[1] += f * b;
        c[2] += f * aa;
        c[3] += f * bb;
        c[4] += f * ab;
      }
      for (int q = 0; q < 5; ++q) m[q] += pc.taps[j] * c[q];
    }
    const float eps = 1.0e-10;
    precise float s1 = m[2] - m[0] * m[0];
    precise float s2 = m[3] - m[1] * m[1];
    precise float s12 = m[4] - m[0] * m[1];
    s1 = s1 > 0.0 ? s1 : 0.0;
    s2 = s2 > 0.0 ? s2 : 0.0;
    precise float s1e = s1 + eps;
    float g = fdiv(s12, s1e);
    precise float gs = g * s12;
    precise float sv = s2 - gs;
    if (s1 < eps) {
      g = 0.0;
      sv = s2;
      s1 = 0.0;
    }
    if (s2 < eps) {
      g = 0.0;
      sv = 0.0;
    }
    if (g < 0.0) {
      sv = s2;
      g = 0.0;
    }
    sv = sv > eps ? sv : eps;
    g = g < pc.egl ? g : pc.egl;
    precise float ggs = (g * g) * s1;
    precise double dn = double(sv) + pc.nsq;
    precise double an = 1.0lf + div_rn(double(ggs), dn);
    precise double ad = 1.0lf + div_rn(double(s1), pc.nsq);
    precise float num = log2_approx(float(an));
    precise float den = log2_approx(float(ad));
    if (s12 < 0.0) num = 0.0;
    if (double(s1) < pc.nsq) {
      precise float t = s2 * pc.smi;
      num = 1.0 - t;
      den = 1.0;
    }
    const uint o = pc.dst[0] + 2u * (y * pc.w + x);
    scratch[o] = num;
    scratch[o + 1u] = den;
  } else if (pc.mode == 3u) {
    if (gl_LocalInvocationID.y != 0u || x >= pc.h) return;
    precise float sn = 0.0, sd = 0.0;
    const uint row = pc.src[0] + 2u * x * pc.w;
    for (uint i = 0u; i < pc.w; ++i) {
      sn += scratch[row + 2u * i];
      sd += scratch[row + 2u * i + 1u];
    }
    scratch[pc.dst[0] + 2u * x] = sn;
    scratch[pc.dst[0] + 2u * x + 1u] = sd;
  } else {
    if (x != 0u || y != 0u) return;
    precise float sn = 0.0, sd = 0.0;
    for (uint i = 0u; i < pc.h; ++i) {
      sn += scratch[pc.src[0] + 2u * i];
      sd += scratch[pc.src[0] + 2u * i + 1u];
    }
    res[pc.dst[0]] = sn;
    res[pc.dst[0] + 1u] = sd;
  }
}
