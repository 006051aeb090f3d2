// Integer ADM, the scoring of scale SCALE (SPEC-vmaf Part II §7–§10) on a 32×8 tile of the inner region:
//  1. decoupling (angle test §7.1, gain §7.2, restored/additive parts §7.3–§7.5) and CSF (§8) of every
//     position of the tile and of its one-sample ring (positions remapped as the §9.1 stencil reads
//     them); the 1/30-filtered values of add (DLM masker) and of rst (AIM masker) go to shared memory;
//  2. per position, the 3×3 thresholds (§9.1), the masking values of the three bands for DLM (y = rst)
//     and AIM (y = add) (§9.2/§9.3) and the denominator values (§10);
//  3. the exact int64 sums of each tile row for the 9 accumulators, written to
//     partial[base + (acc·rows + row)·tiles_x + tile column]; adm_reduce.comp applies the per-row
//     rounding shifts (§9.4, §10) across the tiles of a row.
// Accumulators: 0..2 DLM h, v, d; 3..5 AIM h, v, d; 6..8 denominator h, v, d (uint64 bits).
#version 450
#include "adm_common.glsl"

layout(local_size_x = 32, local_size_y = 8) in;

layout(push_constant) uniform push_t {
  double egl;        // adm_enhn_gain_limit
  uint ref_off[3];   // reference bands h, v, d
  uint dis_off[3];   // distorted bands h, v, d
  uint w, h;         // subband size
  uint L, T, R, B;   // inner region: columns [L, R), rows [T, B)
  uint irf[3];       // IRF0 (scale 0) or IRF_s, bands h, v, d
  int cb[3];         // numerator shift per band: cb (scale 0) or cs (scales 1–3)
  uint den_c;        // scales 1–3: the denominator's per-position shift c
  uint partial_base, tiles_x, rows;
  uint skip_aim;
  uint pad;
} pc;

shared int fa_s[3][10][34];  // F of add (DLM masker)
shared int fr_s[3][10][34];  // F of rst (AIM masker)
shared int64_t red[9][256];

int rho(int p, int n) { return p < 0 ? 1 : min(p, n - 1); }

// §7.1 angle flag.
bool angle_flag(int oh, int ov, int th, int tv) {
  const int64_t P = int64_t(oh) * int64_t(th) + int64_t(ov) * int64_t(tv);
  const int64_t O = int64_t(oh) * int64_t(oh) + int64_t(ov) * int64_t(ov);
  const int64_t Tm = int64_t(th) * int64_t(th) + int64_t(tv) * int64_t(tv);
  const double q = 1.0lf / 4096.0lf;  // exact scaling by 2^-12
  precise double p = double(i64_to_f32_rn(P)) * q;
  precise double o = double(i64_to_f32_rn(O)) * q;
  precise double t = double(i64_to_f32_rn(Tm)) * q;
  precise double pp = p * p;
  precise double co = COS1_SQ * o;
  precise double rhs = co * t;
  return p >= 0.0lf && pp >= rhs;
}

// trunc(d) toward zero for |d| < 2^63, through the magnitude (a negative double -> int64 conversion is not
// reliable on every driver: lavapipe gave 0 for int64_t(-59.0)).
int64_t trunc_i64(double d) {
  const int64_t m = int64_t(abs(d));
  return d < 0.0lf ? -m : m;
}

int wrap_s(int64_t x) { return SCALE == 0 ? wrap16(int(x)) : wrap32(x); }

// §7.2–§7.5 for one band value. Signs and magnitudes are tested on the int32 values (lavapipe mis-evaluates
// int64 comparisons of sign-extended int32 values: int64_t(-59) < 0 gave false), and the int64 gain is
// clamped through its high and low words.
void decouple(int o, int t32, bool flag, out int rst, out int add) {
  const int64_t t = int64_t(t32);
  int64_t k64;
  if (o == 0) {
    k64 = 32768l;
  } else if (SCALE == 0) {
    const int64_t d = int64_t(recip_d[abs(o)]);  // |o| <= 32768 (int16)
    k64 = ((o < 0 ? -d : d) * t + 16384l) >> 15;
  } else {
    const uint ab = o < 0 ? uint(-o) : uint(o);  // |o| as uint (2^31 for INT_MIN)
    int e = 0;
    uint m = ab;
    if (ab >= 32768u) {
      e = findMSB(ab) + 1 - 15;
      m = uint((uint64_t(ab) + (1ul << (e - 1))) >> e);
    }
    const int64_t d = int64_t(recip_d[m]);
    k64 = ((d * t) * (o < 0 ? -1l : 1l) + (1l << (14 + e))) >> (15 + e);
  }
  const int khi = int(k64 >> 32);
  const uint klo = uint(k64);
  const int k = khi < 0 ? 0 : (khi > 0 ? 32768 : int(min(klo, 32768u)));
  int r = wrap_s((int64_t(k) * int64_t(o) + 16384l) >> 15);
  if (flag && k > 0) {
    precise double x = double(r) * pc.egl;
    const double tf = double(t32);
    if (o > 0) r = wrap_s(trunc_i64(x < tf ? x : tf));
    else if (o < 0) r = wrap_s(trunc_i64(x > tf ? x : tf));
  }
  rst = r;
  add = wrap_s(int64_t(t32) - int64_t(r));
}

// §8: CSF value c and 1/30-filtered value f of band b.
void csf(int b, int x, out int c, out int f) {
  if (SCALE == 0) {
    const int sh = b == 0 ? CSF0_SHIFT0 : (b == 1 ? CSF0_SHIFT1 : CSF0_SHIFT2);
    const int rn = b == 0 ? CSF0_ROUND0 : (b == 1 ? CSF0_ROUND1 : CSF0_ROUND2);
    c = wrap16((int(pc.irf[b]) * x + rn) >> sh);
    f = wrap16((F30_S0 * abs(c) + 2048) >> 12);
  } else {
    c = wrap32((int64_t(pc.irf[b]) * int64_t(x) + (1l << 27)) >> 28);
    const int64_t ac = c < 0 ? -int64_t(c) : int64_t(c);
    f = wrap32((F30_S * ac + QUIRK_ROUND) >> 32);
  }
}

// §9.1 centre term of a CSF value.
int centre(int c) {
  if (SCALE == 0) return wrap16((F15_S0 * abs(c) + 2048) >> 12);
  const int64_t ac = c < 0 ? -int64_t(c) : int64_t(c);
  return wrap32((F15_S * ac + QUIRK_ROUND) >> 32);
}

// §9.2 / §9.3 per-position value of band b for the masked value y and threshold thr.
int64_t mask_value(int b, int y, int thr) {
  int x;
  int64_t x2;
  if (SCALE == 0) {
    const bool d = b == 2;
    const int sub = d ? 12 : 10, sq = d ? 30 : 29;
    const int64_t rsq = 1l << (d ? 29 : 28);
    const int x0 = wrap32(int64_t(y) * int64_t(pc.irf[b]));
    const int64_t ax = x0 < 0 ? -int64_t(x0) : int64_t(x0);
    x = wrap32(ax - int64_t(thr << sub));
    x = max(x, 0);
    x2 = int64_t(wrap32((int64_t(x) * int64_t(x) + rsq) >> sq));
  } else {
    const int x0 = wrap32((int64_t(y) * int64_t(pc.irf[b]) + (1l << 27)) >> 28);
    const int64_t ax = x0 < 0 ? -int64_t(x0) : int64_t(x0);
    x = wrap32(ax - int64_t(thr));
    x = max(x, 0);
    x2 = int64_t(wrap32((int64_t(x) * int64_t(x) + (1l << 29)) >> 30));
  }
  const int s = pc.cb[b];
  return (x2 * int64_t(x) + (1l << (s - 1))) >> s;
}

// §10 per-position denominator value of a reference band value.
int64_t den_value(int o) {
  if (SCALE == 0) {
    const uint64_t m = uint64_t(abs(o));  // |o| of an int16 as uint16
    return int64_t(m * m * m);
  }
  const uint64_t m = o < 0 ? uint64_t(-int64_t(o)) : uint64_t(o);
  const int qs = SCALE == 2 ? 30 : 31;
  const int c = int(pc.den_c);
  return int64_t((((m * m + (1ul << qs)) >> qs) * m + (1ul << (c - 1))) >> c);
}

// Decoupling and CSF of subband position (i, j) (inside the subband).
void position(int i, int j, out int rst[3], out int add[3], out int ca[3], out int fa[3], out int cr[3],
              out int fr[3], out int o[3]) {
  const uint at = uint(i) * pc.w + uint(j);
  int t[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = band[pc.ref_off[b] + at];
    t[b] = band[pc.dis_off[b] + at];
  }
  const bool flag = angle_flag(o[0], o[1], t[0], t[1]);
  for (int b = 0; b < 3; ++b) {
    decouple(o[b], t[b], flag, rst[b], add[b]);
    csf(b, add[b], ca[b], fa[b]);
    csf(b, rst[b], cr[b], fr[b]);
  }
}

void main() {
  const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
  const int tid = int(gl_LocalInvocationIndex);
  const int gx = int(gl_WorkGroupID.x), gy = int(gl_WorkGroupID.y);
  const int W = int(pc.w), H = int(pc.h);
  const int j0 = int(pc.L) + 32 * gx, i0 = int(pc.T) + 8 * gy;
  const int i = i0 + ly, j = j0 + lx;
  const bool inside = i < int(pc.B) && j < int(pc.R);

  // 1. This thread's position (kept in registers), then the ring.
  int rst[3], add[3], ca[3], fa[3], cr[3], fr[3], o[3];
  position(min(i, H - 1), min(j, W - 1), rst, add, ca, fa, cr, fr, o);
  for (int b = 0; b < 3; ++b) {
    fa_s[b][ly + 1][lx + 1] = fa[b];
    fr_s[b][ly + 1][lx + 1] = fr[b];
  }
  if (tid < 84) {
    int hr, hc;
    if (tid < 34) {
      hr = 0;
      hc = tid;
    } else if (tid < 68) {
      hr = 9;
      hc = tid - 34;
    } else if (tid < 76) {
      hr = 1 + tid - 68;
      hc = 0;
    } else {
      hr = 1 + tid - 76;
      hc = 33;
    }
    int r2[3], a2[3], ca2[3], fa2[3], cr2[3], fr2[3], o2[3];
    position(rho(i0 - 1 + hr, H), rho(j0 - 1 + hc, W), r2, a2, ca2, fa2, cr2, fr2, o2);
    for (int b = 0; b < 3; ++b) {
      fa_s[b][hr][hc] = fa2[b];
      fr_s[b][hr][hc] = fr2[b];
    }
  }
  barrier();

  // 2. Thresholds and per-position values.
  int64_t v[9];
  for (int k = 0; k < 9; ++k) v[k] = 0l;
  if (inside) {
    int thr_a = 0, thr_r = 0;  // int32, wrapping
    for (int b = 0; b < 3; ++b) {
      thr_a += centre(ca[b]);
      thr_r += centre(cr[b]);
      for (int di = 0; di < 3; ++di)
        for (int dj = 0; dj < 3; ++dj)
          if (di != 1 || dj != 1) {
            thr_a += fa_s[b][ly + di][lx + dj];
            thr_r += fr_s[b][ly + di][lx + dj];
          }
    }
    for (int b = 0; b < 3; ++b) {
      v[b] = mask_value(b, rst[b], thr_a);
      if (pc.skip_aim == 0u) v[3 + b] = mask_value(b, add[b], thr_r);
      v[6 + b] = den_value(o[b]);
    }
  }
  for (int k = 0; k < 9; ++k) red[k][tid] = v[k];
  barrier();

  // 3. Row sums of the tile.
  if (tid < 72) {
    const int acc = tid >> 3, row = tid & 7;
    const int ri = 8 * gy + row;
    if (ri < int(pc.rows)) {
      int64_t s = 0l;
      for (int x = 0; x < 32; ++x) s += red[acc][row * 32 + x];
      partial[pc.partial_base + (uint(acc) * pc.rows + uint(ri)) * pc.tiles_x + uint(gx)] = s;
    }
  }
}
