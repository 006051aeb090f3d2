// Integer VIF statistics of one scale (SPEC-vmaf Part I §7, §8): one workgroup per 32×8 tile. Phase 0 copies
// the tile's input samples (widened by HALF on every side, folded per §4.1, or the one-row rule of §4.3) to
// shared memory; phase 1 runs the vertical pass (§7.1) for the tile's rows over its columns widened by HALF
// (or the one-column values of §4.3), rounded to the per-scale formats; phase 2 runs the horizontal pass
// (§7.2), the moments (§7.3) and the per-pixel contribution (§8) with its double arithmetic (every operation
// rounded on its own, a correctly rounded division), and the four exact integer sums of the tile go to
// `partial` (reduce_u64 adds the tiles). With `two`, NL at a second gain limit is a fifth sum (VMAF and NEG
// in one pass: nothing else depends on the limit).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require

#include "metrics_common.glsl"
#include "vif_common.glsl"
#include "vif_div.glsl"

layout(local_size_x = 32, local_size_y = 8) in;

layout(std430, set = 0, binding = 1) writeonly buffer partial_buf { uint64_t partial[]; };
layout(std430, set = 0, binding = 3) readonly buffer table_buf { uint log_table[]; };  // T[32768..65535], uint16 pairs

layout(constant_id = 19) const double EPS = 0.0;  // tables::vif_eps
layout(constant_id = 20) const int NSQ = 0;       // tables::vif_sigma_nsq

layout(push_constant) uniform push_t {
  double limit;          // vif_enhn_gain_limit
  double limit2;         // the second gain limit, with `two`
  uint in_off[2];        // this scale's images (see image_at)
  uint stride;
  uint w, h;
  uint bpc;
  uint prev_off[2];      // §4.3 one row: the scale-(SCALE−1) images in the pyramid, row length prev_w
  uint prev_w;
  uint stale_off;        // §4.3 one column: [scale][quantity][column 0..3] last-row vertical values
  uint partial_base;
  uint groups;
  uint two;              // 1: also NL at limit2
} pc;

const uint TW = 32u, TH = 8u, NCOL = TW + 16u, NROW = TH + 16u;  // tile, its widest input (± 8)

shared uint tile[NROW * NCOL];   // input samples ref | dis << 16 (folded, §4.1 / §4.3 one row)
shared uint line[5][NCOL * TH];  // vertical-pass lines; reused by the reduction

// §9: LOG(x) = T[x >> k] + 2048·k, k = bit length − 16, for x ≥ 2^17.
int log2_q11(uint64_t x) {
  const uint hi = uint(x >> 32);
  const int bits = hi != 0u ? 33 + findMSB(hi) : 1 + findMSB(uint(x));
  const int k = bits - 16;
  const uint e = uint(x >> k) - 32768u;
  return int(bitfieldExtract(log_table[e >> 1], int((e & 1u) * 16u), 16)) + 2048 * k;
}

// rs(Σ c·v, sh) for a sum kept as two 32-bit halves, Σ c·(v >> 16) and Σ c·(v & 0xffff) (each < 2^32),
// when the result fits in 32 bits (§7.1, §7.2): the 64-bit sum is never formed.
uint rs_split(uint hi, uint lo, uint sh) {
  if (sh == 0u) return (hi << 16) + lo;
  return (hi << (16u - sh)) + ((lo + (1u << (sh - 1u))) >> sh);
}

void main() {
  VIF_TAPS;
  const uint lid = gl_LocalInvocationIndex;
  const uint x0 = gl_WorkGroupID.x * TW, y0 = gl_WorkGroupID.y * TH;
  const uint w = pc.w, h = pc.h;
  const uint ncol = TW + 2u * uint(HALF);
  const uint sh_mean = SCALE == 0u ? pc.bpc : 16u;
  const uint sh_sq = SCALE == 0u ? 2u * (pc.bpc - 8u) : 16u;

  // Phase 0: the input samples of rows y0 − HALF .., columns x0 − HALF .. (unfolded), both pictures.
  const uint nrow = TH + 2u * uint(HALF);
  for (uint idx = lid; idx < nrow * ncol; idx += TW * TH) {
    const int rr = int(y0) - HALF + int(idx / ncol);
    const uint j = fold(int(x0) - HALF + int(idx % ncol), w);
    uint a, b;
    if (h >= 2u || rr == 0) {
      const uint row = fold(rr, h);
      a = image_at(pc.in_off[0], pc.stride, j, row, pc.bpc);
      b = image_at(pc.in_off[1], pc.stride, j, row, pc.bpc);
    } else {  // §4.3 one row: rows ±1 are row 1 of the previous scale's image
      a = pyr[pc.prev_off[0] + pc.prev_w + j];
      b = pyr[pc.prev_off[1] + pc.prev_w + j];
    }
    tile[idx] = a | (b << 16);
  }
  barrier();

  // Phase 1: the vertical pass, rows y0.., columns x0 − HALF .. x0 + TW + HALF − 1 (unfolded positions).
  for (uint idx = lid; idx < ncol * TH; idx += TW * TH) {
    const uint r = idx / ncol, cc = idx % ncol;
    const uint i = y0 + r;
    const int p = int(x0) - HALF + int(cc);
    uint v[5] = uint[5](0u, 0u, 0u, 0u, 0u);
    if (i < h) {
      if (w == 1u && p != 0) {
        // §4.3 one column: positions ±f take the last-row line of the previous scale at position f.
        const uint col = fold(abs(p), pc.prev_w);
        [[unroll]] for (uint q = 0u; q < 5u; ++q) v[q] = pyr[pc.stale_off + ((SCALE - 1u) * 5u + q) * 4u + col];
      } else {
        uint am = 0u, an = 0u, xxh = 0u, xxl = 0u, yyh = 0u, yyl = 0u, xyh = 0u, xyl = 0u;
        if (SCALE == 0u && pc.bpc == 8u) {  // squares < 2^16: one 32-bit sum each (≤ 65536·255² < 2^32)
          [[unroll]] for (int k = 0; k < 17; ++k) {
            if (k > 2 * HALF) break;
            const uint ab2 = tile[(r + uint(k)) * ncol + cc];
            const uint a = ab2 & 0xffffu, b = ab2 >> 16;
            const uint c = TAPS[k];
            am += c * a;
            an += c * b;
            xxl += c * (a * a);
            yyl += c * (b * b);
            xyl += c * (a * b);
          }
        } else {
          [[unroll]] for (int k = 0; k < 17; ++k) {
            if (k > 2 * HALF) break;
            const uint ab2 = tile[(r + uint(k)) * ncol + cc];
            const uint a = ab2 & 0xffffu, b = ab2 >> 16;
            const uint c = TAPS[k];
            am += c * a;
            an += c * b;
            const uint aa = a * a, bb = b * b, ab = a * b;  // < 2^32
            xxh += c * (aa >> 16);
            xxl += c * (aa & 0xffffu);
            yyh += c * (bb >> 16);
            yyl += c * (bb & 0xffffu);
            xyh += c * (ab >> 16);
            xyl += c * (ab & 0xffffu);
          }
        }
        v[0] = rs32(am, sh_mean);
        v[1] = rs32(an, sh_mean);
        v[2] = rs_split(xxh, xxl, sh_sq);
        v[3] = rs_split(yyh, yyl, sh_sq);
        v[4] = rs_split(xyh, xyl, sh_sq);
        // What the next scale's §4.3 one-column rule reads: this scale's last-row line, columns 0..3.
        if (SCALE < 3u && i == h - 1u && p >= 0 && p < 4)
          [[unroll]] for (uint q = 0u; q < 5u; ++q) pyr[pc.stale_off + (SCALE * 5u + q) * 4u + uint(p)] = v[q];
      }
    }
    [[unroll]] for (uint q = 0u; q < 5u; ++q) line[q][r * ncol + cc] = v[q];
  }
  barrier();

  // Phase 2: one output position per thread.
  uint64_t nl = 0ul, dl = 0ul, nn = 0ul, dn = 0ul, nl2 = 0ul;
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  if (x0 + tx < w && y0 + ty < h) {
    uint mu1 = 0u, mu2 = 0u, xxh = 0u, xxl = 0u, yyh = 0u, yyl = 0u, xyh = 0u, xyl = 0u;
    [[unroll]] for (int k = 0; k < 17; ++k) {
      if (k > 2 * HALF) break;
      const uint at = ty * ncol + tx + uint(k);
      const uint c = TAPS[k];
      mu1 += c * line[0][at];
      mu2 += c * line[1][at];
      const uint xxv = line[2][at], yyv = line[3][at], xyv = line[4][at];
      xxh += c * (xxv >> 16);
      xxl += c * (xxv & 0xffffu);
      yyh += c * (yyv >> 16);
      yyl += c * (yyv & 0xffffu);
      xyh += c * (xyv >> 16);
      xyl += c * (xyv & 0xffffu);
    }
    const uint xx = rs_split(xxh, xxl, 16u), yy = rs_split(yyh, yyl, 16u), xy = rs_split(xyh, xyl, 16u);
    // §7.3: (a·b + 2^31) >> 32 of the full 64-bit products; wrap32 differences.
    uint hi, lo;
    umulExtended(mu1, mu1, hi, lo);
    const uint mu1_sq = hi + (lo >> 31);
    umulExtended(mu2, mu2, hi, lo);
    const uint mu2_sq = hi + (lo >> 31);
    umulExtended(mu1, mu2, hi, lo);
    const uint mu1_mu2 = hi + (lo >> 31);
    const int s1 = int(xx - mu1_sq);
    const int s2 = max(int(yy - mu2_sq), 0);
    const int s12 = int(xy - mu1_mu2);
    // §8
    if (s1 >= NSQ) {
      dl = uint64_t(log2_q11(uint64_t(NSQ + s1)) - 17 * 2048);
      if (s12 > 0 && s2 > 0) {
        precise double den = double(s1) + EPS;
        double g = div_rn(double(s12), den);
        precise double gs = g * double(s12);
        precise double t = double(s2) - gs;
        const int sv = t < 0.0 ? 0 : int(t);  // max(trunc(t), 0), defined for any t
        const int64_t n1 = int64_t(sv) + int64_t(NSQ);
        const int log_n1 = log2_q11(uint64_t(n1));
        const double ga = g < pc.limit ? g : pc.limit;
        precise double gg = ga * ga;
        precise double ggs = gg * double(s1);
        nl = uint64_t(log2_q11(uint64_t(int64_t(ggs) + n1)) - log_n1);
        if (pc.two != 0u) {
          const double gb = g < pc.limit2 ? g : pc.limit2;
          precise double gg2 = gb * gb;
          precise double ggs2 = gg2 * double(s1);
          nl2 = uint64_t(log2_q11(uint64_t(int64_t(ggs2) + n1)) - log_n1);
        }
      }
    } else {
      nn = uint64_t(s2);
      dn = 1ul;
    }
  }

  // The tile's four sums (exact in any order), in the lines' memory: NL, DL and DN of a tile fit in 32 bits
  // (per position < 2^17, < 2^16, 1), NN is kept as two halves; NL at the second limit in the tile's.
  barrier();
  line[0][lid] = uint(nl);
  line[1][lid] = uint(dl);
  line[2][lid] = uint(dn);
  line[3][lid] = uint(nn);
  line[4][lid] = uint(nn >> 32);
  tile[lid] = uint(nl2);
  barrier();
  for (uint s = TW * TH / 2u; s > 0u; s >>= 1) {
    if (lid < s) {
      [[unroll]] for (uint q = 0u; q < 3u; ++q) line[q][lid] += line[q][lid + s];
      tile[lid] += tile[lid + s];
      const uint64_t t = packUint2x32(uvec2(line[3][lid], line[4][lid])) + packUint2x32(uvec2(line[3][lid + s], line[4][lid + s]));
      const uvec2 u = unpackUint2x32(t);
      line[3][lid] = u.x;
      line[4][lid] = u.y;
    }
    barrier();
  }
  if (lid == 0u) {
    const uint base = pc.partial_base + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    partial[base] = uint64_t(line[0][0]);
    partial[base + pc.groups] = uint64_t(line[1][0]);
    partial[base + 2u * pc.groups] = packUint2x32(uvec2(line[3][0], line[4][0]));
    partial[base + 3u * pc.groups] = uint64_t(line[2][0]);
    if (pc.two != 0u) partial[base + 4u * pc.groups] = uint64_t(tile[0]);
  }
}
