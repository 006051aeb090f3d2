// Integer ADM, one DWT level of scale SCALE (SPEC-vmaf Part II §4) for one picture (z = 0 ref, 1 dis):
// a 16×16 tile of subband samples. The vertical pass (rounded and stored as int16 at scale 0 / int32 at
// scales 1–3, §4.3/§4.4) fills shared memory for the 16 output rows and the 34 input columns the tile
// reads; the horizontal pass gives a, h, v, d. Input: luma (scale 0) or band a of the previous scale.
// Output per picture: a at out_off, then h, v, d one plane apart (the hvd order of the scoring).
#version 450
#include "adm_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform push_t {
  uint in_off[2];   // words of the luma (scale 0) or ints of band a (scales 1–3)
  uint in_stride;   // words per row (scale 0) or ints per row
  uint in_w, in_h;  // input size n × m (>= 5)
  uint bpc;
  uint out_off[2];
  uint out_w, out_h;  // ⌈n/2⌉ × ⌈m/2⌉
  uint lo_only;       // skip_scale0: band a only
} pc;

shared int vlo[16][34];
shared int vhi[16][34];

// §4.2 source position p of an input of length n: −1 → 1, p >= n → 2n − 1 − p.
int src(int p, int n) { return p < 0 ? 1 : (p >= n ? 2 * n - 1 - p : p); }

int64_t sample_in(uint pic, int x, int y) {
  if (SCALE == 0) return int64_t(fetch_sample(pc.in_off[pic], pc.in_stride, uint(x), uint(y), pc.bpc));
  return int64_t(band[pc.in_off[pic] + uint(y) * pc.in_stride + uint(x)]);
}

void main() {
  const uint pic = gl_WorkGroupID.z;
  const int j0 = int(gl_WorkGroupID.x) * 16, i0 = int(gl_WorkGroupID.y) * 16;
  const int n = int(pc.in_w), m = int(pc.in_h);
  const int t = int(gl_LocalInvocationIndex);
  const int lo[4] = int[4](LO0, LO1, LO2, LO3);
  const int hi[4] = int[4](HI0, HI1, HI2, HI3);

  // Vertical pass: tile row r (output row i0 + r), virtual column u (input column 2·j0 − 1 + u).
  for (int e = t; e < 16 * 34; e += 256) {
    const int r = e / 34, u = e - r * 34;
    const int i = i0 + r, p = 2 * j0 - 1 + u;
    int l = 0, h = 0;
    if (i < int(pc.out_h) && p <= 2 * int(pc.out_w)) {
      const int x = src(p, n);
      if (SCALE == 0) {
        int sl = 0, sh = 0;  // int32, wrapping (§4.3)
        for (int k = 0; k < 4; ++k) {
          const int v = int(sample_in(pic, x, src(2 * i - 1 + k, m)));
          sl += lo[k] * v;
          sh += hi[k] * v;
        }
        const int S = int(pc.bpc), R = 1 << (S - 1);
        l = wrap16(((sl - LO_SUM * R) + R) >> S);
        h = wrap16((sh + R) >> S);
      } else {
        int64_t sl = 0l, sh = 0l;
        for (int k = 0; k < 4; ++k) {
          const int64_t v = sample_in(pic, x, src(2 * i - 1 + k, m));
          sl += int64_t(lo[k]) * v;
          sh += int64_t(hi[k]) * v;
        }
        l = wrap32((sl + V_ROUND) >> V_SHIFT);
        h = wrap32((sh + V_ROUND) >> V_SHIFT);
      }
    }
    vlo[r][u] = l;
    vhi[r][u] = h;
  }
  barrier();

  const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
  const int j = j0 + tx, i = i0 + ty;
  if (j >= int(pc.out_w) || i >= int(pc.out_h)) return;
  const uint plane = pc.out_w * pc.out_h;
  const uint o = pc.out_off[pic] + uint(i) * pc.out_w + uint(j);
  int a, v, h, d;
  if (SCALE == 0) {
    int sa = 0, sv = 0, sh = 0, sd = 0;
    for (int k = 0; k < 4; ++k) {
      const int L = vlo[ty][2 * tx + k], H = vhi[ty][2 * tx + k];
      sa += lo[k] * L;
      sv += hi[k] * L;
      sh += lo[k] * H;
      sd += hi[k] * H;
    }
    a = wrap16((sa + 32768) >> 16);
    v = wrap16((sv + 32768) >> 16);
    h = wrap16((sh + 32768) >> 16);
    d = wrap16((sd + 32768) >> 16);
  } else {
    int64_t sa = 0l, sv = 0l, sh = 0l, sd = 0l;
    for (int k = 0; k < 4; ++k) {
      const int64_t L = int64_t(vlo[ty][2 * tx + k]), H = int64_t(vhi[ty][2 * tx + k]);
      sa += int64_t(lo[k]) * L;
      sv += int64_t(hi[k]) * L;
      sh += int64_t(lo[k]) * H;
      sd += int64_t(hi[k]) * H;
    }
    a = wrap32((sa + H_ROUND) >> H_SHIFT);
    v = wrap32((sv + H_ROUND) >> H_SHIFT);
    h = wrap32((sh + H_ROUND) >> H_SHIFT);
    d = wrap32((sd + H_ROUND) >> H_SHIFT);
  }
  band[o] = a;
  if (pc.lo_only != 0u) return;
  band[o + plane] = h;
  band[o + 2u * plane] = v;
  band[o + 3u * plane] = d;
}
