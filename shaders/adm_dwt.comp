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

  // Vertical pass: tile row r (output row i0 + r), virtual column u (input column 2·j0 − 1 + u).
  for (int e = t; e < 16 * 34; e += 256) {
    const int r = e / 34, u = e - r * 34;
    const int i = i0 + r, p = 2 * j0 - 1 + u;
    int l = 0, h = 0;
    if (i < int(pc.out_h) && p <= 2 * int(pc.out_w)) {
      const int x = src(p, n);
      const int y0 = src(2 * i - 1, m), y1 = src(2 * i, m), y2 = src(2 * i + 1, m), y3 = src(2 * i + 2, m);
      if (SCALE == 0) {
        const int v0 = int(sample_in(pic, x, y0)), v1 = int(sample_in(pic, x, y1));
        const int v2 = int(sample_in(pic, x, y2)), v3 = int(sample_in(pic, x, y3));
        const int sl = LO0 * v0 + LO1 * v1 + LO2 * v2 + LO3 * v3;  // int32, wrapping (§4.3)
        const int sh = HI0 * v0 + HI1 * v1 + HI2 * v2 + HI3 * v3;
        const int S = int(pc.bpc), R = 1 << (S - 1);
        l = wrap16(((sl - LO_SUM * R) + R) >> S);
        h = wrap16((sh + R) >> S);
      } else {
        const int64_t v0 = sample_in(pic, x, y0), v1 = sample_in(pic, x, y1);
        const int64_t v2 = sample_in(pic, x, y2), v3 = sample_in(pic, x, y3);
        const int64_t sl = int64_t(LO0) * v0 + int64_t(LO1) * v1 + int64_t(LO2) * v2 + int64_t(LO3) * v3;
        const int64_t sh = int64_t(HI0) * v0 + int64_t(HI1) * v1 + int64_t(HI2) * v2 + int64_t(HI3) * v3;
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
  const int c = 2 * tx;
  int a, v, h, d;
  if (SCALE == 0) {
    const int L0 = vlo[ty][c], L1 = vlo[ty][c + 1], L2 = vlo[ty][c + 2], L3 = vlo[ty][c + 3];
    const int H0 = vhi[ty][c], H1 = vhi[ty][c + 1], H2 = vhi[ty][c + 2], H3 = vhi[ty][c + 3];
    a = wrap16((LO0 * L0 + LO1 * L1 + LO2 * L2 + LO3 * L3 + 32768) >> 16);
    v = wrap16((HI0 * L0 + HI1 * L1 + HI2 * L2 + HI3 * L3 + 32768) >> 16);
    h = wrap16((LO0 * H0 + LO1 * H1 + LO2 * H2 + LO3 * H3 + 32768) >> 16);
    d = wrap16((HI0 * H0 + HI1 * H1 + HI2 * H2 + HI3 * H3 + 32768) >> 16);
  } else {
    const int64_t L0 = vlo[ty][c], L1 = vlo[ty][c + 1], L2 = vlo[ty][c + 2], L3 = vlo[ty][c + 3];
    const int64_t H0 = vhi[ty][c], H1 = vhi[ty][c + 1], H2 = vhi[ty][c + 2], H3 = vhi[ty][c + 3];
    const int64_t l0 = LO0, l1 = LO1, l2 = LO2, l3 = LO3, h0 = HI0, h1 = HI1, h2 = HI2, h3 = HI3;
    a = wrap32((l0 * L0 + l1 * L1 + l2 * L2 + l3 * L3 + H_ROUND) >> H_SHIFT);
    v = wrap32((h0 * L0 + h1 * L1 + h2 * L2 + h3 * L3 + H_ROUND) >> H_SHIFT);
    h = wrap32((l0 * H0 + l1 * H1 + l2 * H2 + l3 * H3 + H_ROUND) >> H_SHIFT);
    d = wrap32((h0 * H0 + h1 * H1 + h2 * H2 + h3 * H3 + H_ROUND) >> H_SHIFT);
  }
  band[o] = a;
  if (pc.lo_only != 0u) return;
  band[o + plane] = h;
  band[o + 2u * plane] = v;
  band[o + 3u * plane] = d;
}
