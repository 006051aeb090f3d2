// Integer ADM, the last pass: for scale z and accumulator x (0..2 DLM, 3..5 AIM, 6..8 denominator, bands
// h, v, d), the exact row sums of adm_score.comp's tile rows, each row's rounding shift (§9.4: subband
// height r; §10: z of the denominator, uint64), and their int64 sum, into the result block in the order
// of adm_partials (den[4][3], dlm[4][3], aim[4][3]). A scale that is not computed gives 0.
#version 450
#include "adm_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform push_t {
  uint base[4], rows[4], tiles_x[4];
  uint num_shift[4];  // r = ceil_log2(subband height)
  uint den_shift[4];  // z of §10
  uint computed;      // bit s: scale s is scored
  uint out_base;      // int64 index of the program's slice
} pc;

shared int64_t red[256];

void main() {
  const uint acc = gl_WorkGroupID.x, s = gl_WorkGroupID.z;
  const uint t = gl_LocalInvocationIndex;
  int64_t total = 0l;
  if ((pc.computed & (1u << s)) != 0u) {
    const uint rows = pc.rows[s], tiles = pc.tiles_x[s];
    const int r = int(pc.num_shift[s]), z = int(pc.den_shift[s]);
    for (uint row = t; row < rows; row += 256u) {
      const uint at = pc.base[s] + (acc * rows + row) * tiles;
      int64_t sum = 0l;
      for (uint k = 0u; k < tiles; ++k) sum += partial[at + k];
      if (acc < 6u) {
        total += (sum + (1l << (r - 1))) >> r;
      } else {
        const uint64_t rnd = z > 0 ? 1ul << (z - 1) : 0ul;
        total += int64_t((uint64_t(sum) + rnd) >> z);
      }
    }
  }
  red[t] = total;
  barrier();
  for (uint k = 128u; k > 0u; k >>= 1) {
    if (t < k) red[t] += red[t + k];
    barrier();
  }
  if (t == 0u) {
    const uint b = acc % 3u, kind = acc / 3u;  // 0 DLM, 1 AIM, 2 den
    const uint slot = kind == 2u ? 0u : (kind == 0u ? 12u : 24u);
    result[pc.out_base + slot + s * 3u + b] = red[0];
  }
}
