#version 450
// Run tables of levels 0 and 1: one workgroup per level-1 group of 16 blocks of a plane. For a run of terms
// and the three binades around the estimated running sum at its start, the mantissa increment Q for both
// start parities (docs/psnr_hvs_gpu.md). Each block's table comes from 4 invocations of 16 terms composed in
// order; the group's (level-1) table composes the 16 block tables (hvs_parent_table). The estimate at a
// block = the group's scanned prefix + the block sums before it in the group.
#extension GL_GOOGLE_include_directive : require
layout(std430, set = 0, binding = 3) coherent buffer tables_buf { uint tables[]; };
#define HVS_TABLES_DECLARED 1
#include "hvs_common.glsl"

layout(local_size_x = 64) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer terms_buf { uint terms[]; };
layout(std430, set = 0, binding = 2) readonly buffer bsum_buf { double block_sum[]; };
layout(std430, set = 0, binding = 4) readonly buffer gsum_buf { double group_sum[]; };  // hvs_scan.comp's layout

shared uvec2 sq[3][64];
shared uint sf[64];
shared int sbase[16];

void main() {
  uint t = gl_LocalInvocationID.x, blk = t >> 2, part = t & 3u;
  uint wg = gl_WorkGroupID.x, p = 0u, grp = wg;
  uint g0 = hvs_groups(plane[0].bx * plane[0].by), g1 = hvs_groups(plane[1].bx * plane[1].by);
  if (grp >= g0) {
    grp -= g0;
    p = 1u;
    if (grp >= g1) {
      grp -= g1;
      p = 2u;
    }
  }
  uint nb = plane[p].bx * plane[p].by;
  uint first = grp * HVS_FAN, count = min(HVS_FAN, nb - first);
  if (t < count) {  // binade estimate per block: group prefix + the earlier blocks of the group
    uint total = hvs_groups(plane[0].bx * plane[0].by) + hvs_groups(plane[1].bx * plane[1].by) +
                 hvs_groups(plane[2].bx * plane[2].by);
    double est = group_sum[4u * total + wg];
    for (uint i = 0u; i < t; ++i) est += block_sum[plane[p].block_offset + first + i];
    sbase[t] = hvs_binade_base(est);
  }
  barrier();
  bool valid = blk < count;
  uint g = plane[p].block_offset + first + blk;
  int e_base = valid ? sbase[blk] : HVS_NO_BINADE;
  uvec2 k0 = uvec2(0u), k1 = uvec2(0u), k2 = uvec2(0u);
  uint f = HVS_ALL_ZERO;
  if (valid) {
    uint b = g * 64u + part * 16u;
    for (uint i = 0u; i < 16u; ++i) {
      uint tb = terms[b + i];
      f = hvs_merge_flags(f, hvs_term_flags(tb));
      k0 = hvs_run_add(k0, tb, e_base);
      k1 = hvs_run_add(k1, tb, e_base + 1);
      k2 = hvs_run_add(k2, tb, e_base + 2);
    }
  }
  sq[0][t] = k0; sq[1][t] = k1; sq[2][t] = k2; sf[t] = f;
  barrier();
  if (valid && part == 0u) {  // the block's table: its 4 quarters in order
    uvec2 k[3];
    for (int c = 0; c < 3; ++c)
      k[c] = hvs_compose(hvs_compose(hvs_compose(sq[c][t], sq[c][t + 1u]), sq[c][t + 2u]), sq[c][t + 3u]);
    f = hvs_merge_flags(hvs_merge_flags(sf[t], sf[t + 1u]), hvs_merge_flags(sf[t + 2u], sf[t + 3u]));
    uint w = (plane[p].node_offset[0] + first + blk) * HVS_TABLE_WORDS;
    tables[w] = uint(e_base);
    tables[w + 1u] = f;
    for (int c = 0; c < 3; ++c) {
      uvec2 q = k[c];
      if (e_base == HVS_NO_BINADE || !hvs_binade_valid(e_base + c) || (f & HVS_SERIAL) != 0u) q = uvec2(HVS_SAT);
      tables[w + 2u + 2u * uint(c)] = q.x;
      tables[w + 3u + 2u * uint(c)] = q.y;
    }
  }
  if (plane[p].levels < 2u) return;
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    uint c0 = plane[p].node_offset[0] + first;
    hvs_parent_table(plane[p].node_offset[1] + grp, c0, c0 + count);
  }
}
