// Integer motion SAD (SPEC-vmaf Part A.3 steps 1-4), one workgroup per 64×16 tile of one frame:
//  * the tile's words of this frame's raw reference luma go into its entry of the history ring (the copy
//    the next frames compare with), fused with the filter pass;
//  * when `compute` is set: D = P − C (P: the earlier frame's entry in the ring, C: this frame's luma in
//    the input) over the tile widened by 2 on each side (reflect-101 borders) into shared memory, the
//    vertical 5-tap pass (+2^(bpc−1), >> bpc) into shared memory, the horizontal 5-tap pass (+2^15, >> 16),
//    |E| summed per row. The sums of a tile fit 32 bits (64·16 values ≤ 65535); the tile's total goes to
//    partial[g] as uint64 (motion_reduce adds them), or, on rows wider than 65537 columns where the per-row
//    uint32 sum of the SPEC may wrap, each row's uint32 sum goes to rowpart[row · groups_x + tile column]
//    (motion_reduce adds a row's tiles in wrapping uint32, then the rows in uint64).
// Every product and sum is exact int32: a 5-tap sum of values up to 65535 in magnitude needs 33 bits, so
// it is formed as 256·S_hi + S_lo (taps split into f>>8 and f&255) and the rounding shift is taken in two
// exact steps: floor((256·S_hi + S_lo + 2^(k−1)) / 2^k) = (S_hi + ((S_lo + 2^(k−1)) >> 8)) >> (k − 8),
// k ≥ 8 (arithmetic shifts: floor, as the SPEC's).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer pics_buf { uint pics[]; };
layout(std430, set = 0, binding = 1) buffer ring_buf { uint ring[]; };
layout(std430, set = 0, binding = 2) writeonly buffer partial_buf { uint64_t partial[]; };
layout(std430, set = 0, binding = 2) writeonly buffer rowpart_buf { uint rowpart[]; };

layout(push_constant) uniform push_t {
  uint cur_off;   // words: this frame's reference luma in the input
  uint stride;    // words per row (input and ring entries alike)
  uint w, h;
  uint bpc;
  uint ring_cur;  // words: this frame's entry in the ring (written)
  uint ring_prev; // words: the compared frame's entry (read when compute != 0)
  uint compute;   // 0: the copy only (a frame before the window)
  uint wide;      // w > 65537: per-row uint32 partials
  uint groups_x;
} pc;

const uint TW = 64u, TH = 16u;
const uint DW = TW + 4u, DH = TH + 4u;

shared int d[DH * DW];
shared int v[TH * DW];
shared uint red[256];

// Reflect-101 (SPEC A.3): valid for t in [−(n−1), 2n−2].
int mirror101(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t); }

int fetch(bool from_ring, uint off, uint y, uint x) {
  const uint idx = off + y * pc.stride + (pc.bpc <= 8u ? (x >> 2) : (x >> 1));
  const uint word = from_ring ? ring[idx] : pics[idx];
  return pc.bpc <= 8u ? int(bitfieldExtract(word, int((x & 3u) * 8u), 8)) : int(bitfieldExtract(word, int((x & 1u) * 16u), 16));
}

// floor((Σ f[k]·a[k] + 2^(k−1)) / 2^k) for f = {3571, 16004, 26386, 16004, 3571}, |a| ≤ 65535, 8 ≤ k ≤ 16.
int filter5(int a0, int a1, int a2, int a3, int a4, uint k) {
  const int s04 = a0 + a4, s13 = a1 + a3;
  const int hi = 13 * s04 + 62 * s13 + 103 * a2;   // Σ (f >> 8)·a,  |.| < 2^24
  const int lo = 243 * s04 + 132 * s13 + 18 * a2;  // Σ (f & 255)·a, |.| < 2^26
  return (hi + ((lo + (1 << (k - 1u))) >> 8)) >> (k - 8u);
}

// The interior path's load: word k of d's row rr (P and C words alike), its samples into d.
void load_words(uint rr, uint k, uint spw, uint wx0, int first) {
  const int yy = int(gl_WorkGroupID.y * TH) - 2 + int(rr);
  if (yy > int(pc.h) + 1) return;
  const uint row = uint(mirror101(yy, int(pc.h))) * pc.stride + wx0 + k;
  const uint a = ring[pc.ring_prev + row], b = pics[pc.cur_off + row];
  const uint bits = 32u / spw;
  const int c0 = first + int(k * spw);
  for (uint q = 0u; q < spw; ++q) {
    const int c = c0 + int(q);
    if (c >= 0 && c < int(DW))
      d[rr * DW + uint(c)] = int(bitfieldExtract(a, int(q * bits), int(bits))) - int(bitfieldExtract(b, int(q * bits), int(bits)));
  }
}

void main() {
  const uint t = gl_LocalInvocationIndex;
  const uint gx = gl_WorkGroupID.x, gy = gl_WorkGroupID.y;
  const uint x0 = gx * TW, y0 = gy * TH;
  const int w = int(pc.w), h = int(pc.h);

  // This frame's luma into its ring entry: the tile's rows, its words (the last tile column: to the row end).
  {
    const uint spw = pc.bpc <= 8u ? 4u : 2u;
    const uint wx0 = x0 / spw;
    const uint wx1 = gx + 1u == pc.groups_x ? pc.stride : min(wx0 + TW / spw, pc.stride);
    const uint nw = wx1 - wx0;  // ≤ 32
    const uint k = t & 31u;
    if (k < nw)
      for (uint y = y0 + (t >> 5); y < min(y0 + TH, pc.h); y += 8u) {
        const uint o = y * pc.stride + wx0 + k;
        ring[pc.ring_cur + o] = pics[pc.cur_off + o];
      }
  }
  if (pc.compute == 0u) return;

  // D = P − C over rows y0−2 .. y0+TH+1 and columns x0−2 .. x0+TW+1 (0 outside [−2, n+1]: never used).
  const int xl = int(x0) - 2;
  if (x0 >= 4u && int(x0 + TW + 3u) < w) {
    // Columns inside the picture (no column mirrored): whole words, the 4 (8-bit) or 2 samples of each.
    const uint spw = pc.bpc <= 8u ? 4u : 2u;
    const uint wx0 = (x0 - 4u) / spw;    // the words of columns x0 − 4 .. x0 + TW + 3
    // 18 words a row (8-bit) or 36, constants so that the divisions are multiplications
    const int first = int(wx0 * spw) - xl;  // d's column of the first word's first sample: −2
    if (spw == 4u) {
      for (uint i = t; i < 18u * DH; i += 256u) load_words(i / 18u, i % 18u, 4u, wx0, first);
    } else {
      for (uint i = t; i < 36u * DH; i += 256u) load_words(i / 36u, i % 36u, 2u, wx0, first);
    }
  } else {
    for (uint i = t; i < DH * DW; i += 256u) {
      const int yy = int(y0) - 2 + int(i / DW);
      const int xx = xl + int(i % DW);
      int dv = 0;
      if (yy <= h + 1 && xx <= w + 1) {
        const uint y = uint(mirror101(yy, h)), x = uint(mirror101(xx, w));
        dv = fetch(true, pc.ring_prev, y, x) - fetch(false, pc.cur_off, y, x);
      }
      d[i] = dv;
    }
  }
  barrier();

  // Vertical pass: V for the tile's rows over the widened columns, 4 rows of one column per item.
  for (uint i = t; i < DW * (TH / 4u); i += 256u) {
    const uint c = i % DW, r0 = (i / DW) * 4u;
    int a[8];
    for (uint k = 0u; k < 8u; ++k) a[k] = d[(r0 + k) * DW + c];
    for (uint k = 0u; k < 4u; ++k) v[(r0 + k) * DW + c] = filter5(a[k], a[k + 1u], a[k + 2u], a[k + 3u], a[k + 4u], pc.bpc);
  }
  barrier();

  // Horizontal pass: thread t covers row t / 16, columns 4·(t % 16) .. +3.
  const uint r = t >> 4, c0 = (t & 15u) * 4u;
  uint s = 0u;
  if (int(y0 + r) < h) {
    int a[8];
    for (uint k = 0u; k < 8u; ++k) a[k] = v[r * DW + c0 + k];
    for (uint k = 0u; k < 4u; ++k) {
      const int e = filter5(a[k], a[k + 1u], a[k + 2u], a[k + 3u], a[k + 4u], 16u);
      if (int(x0 + c0 + k) < w) s += uint(abs(e));
    }
  }
  red[t] = s;
  barrier();
  for (uint k = 8u; k > 0u; k >>= 1) {  // the 16 threads of a row
    if ((t & 15u) < k) red[t] += red[t + k];
    barrier();
  }
  if (pc.wide != 0u) {
    if (t < TH && int(y0 + t) < h) rowpart[(y0 + t) * pc.groups_x + gx] = red[t * 16u];
  } else if (t == 0u) {
    uint total = 0u;  // ≤ 64·16·65535 < 2^32
    for (uint k = 0u; k < TH; ++k) total += red[k * 16u];
    partial[gy * pc.groups_x + gx] = uint64_t(total);
  }
}
