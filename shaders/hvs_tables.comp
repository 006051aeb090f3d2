#version 450
// Run tables of every level of every plane: for a run of terms and the three binades around the estimated
// running sum at its start, the mantissa increment Q for both start parities (SPEC-free: docs/psnr_hvs_gpu.md).
// mode 0: one invocation per level-0 run (a block's 64 terms), sequentially. mode 1: one workgroup per run of
// the levels above (grid-stride); each invocation composes a contiguous slice, then an ordered tree.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

layout(local_size_x = 64) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer terms_buf { uint terms[]; };
layout(std430, set = 0, binding = 2) readonly buffer prefix_buf { double block_prefix[]; };
layout(std430, set = 0, binding = 3) writeonly buffer tables_buf { uint tables[]; };

layout(push_constant) uniform push_block { uint mode; };

shared uvec2 sq[3][64];

void write_table(uint node, int e_base, uint f, uvec2 k[3]) {
  uint w = node * HVS_TABLE_WORDS;
  tables[w] = uint(e_base);
  tables[w + 1u] = f;
  for (int c = 0; c < 3; ++c) {
    uvec2 q = k[c];
    if (e_base == HVS_NO_BINADE || !hvs_binade_valid(e_base + c) || (f & HVS_SERIAL) != 0u) q = uvec2(HVS_SAT);
    tables[w + 2u + 2u * uint(c)] = q.x;
    tables[w + 3u + 2u * uint(c)] = q.y;
  }
}

void leaf_tables() {
  uint g = gl_GlobalInvocationID.x;
  if (g >= total_blocks) return;
  uint p = g < plane[1].block_offset ? 0u : (g < plane[2].block_offset ? 1u : 2u);
  int e_base = hvs_binade_base(block_prefix[g]);
  uvec2 k[3] = uvec2[3](uvec2(0u), uvec2(0u), uvec2(0u));
  uint f = HVS_ALL_ZERO;
  for (uint i = 0u; i < 64u; ++i) {
    uint tb = terms[g * 64u + i];
    f = hvs_merge_flags(f, hvs_term_flags(tb));
    for (int c = 0; c < 3; ++c) k[c] = hvs_run_add(k[c], tb, e_base + c);
  }
  write_table(plane[p].node_offset[0] + (g - plane[p].block_offset), e_base, f, k);
}

shared uint sf[64];

void main() {
  if (mode == 0u) {
    leaf_tables();
    return;
  }
  uint t = gl_LocalInvocationID.x;
  for (uint u = gl_WorkGroupID.x;; u += gl_NumWorkGroups.x) {
    // u-th run above level 0, in (plane, level) order.
    uint p = 0u, l = 0u, node = 0u, v = u;
    bool found = false;
    for (uint pp = 0u; pp < 3u && !found; ++pp)
      for (uint ll = 1u; ll < plane[pp].levels; ++ll) {
        if (v < plane[pp].node_count[ll]) {
          p = pp; l = ll; node = plane[pp].node_offset[ll] + v; found = true;
          break;
        }
        v -= plane[pp].node_count[ll];
      }
    if (!found) break;  // uniform per workgroup
    uint nb = plane[p].bx * plane[p].by, rb = plane[p].run_blocks[l];
    uint b0 = (node - plane[p].node_offset[l]) * rb, b1 = min(nb, b0 + rb);
    int e_base = hvs_binade_base(block_prefix[plane[p].block_offset + b0]);
    uint first = (plane[p].block_offset + b0) * 64u, n = (b1 - b0) * 64u;
    uint per = (n + 63u) / 64u;
    uint i0 = min(n, t * per), i1 = min(n, i0 + per);
    uvec2 k0 = uvec2(0u), k1 = uvec2(0u), k2 = uvec2(0u);
    uint f = HVS_ALL_ZERO;
    for (uint i = i0; i < i1; ++i) {
      uint tb = terms[first + i];
      f = hvs_merge_flags(f, hvs_term_flags(tb));
      k0 = hvs_run_add(k0, tb, e_base);
      k1 = hvs_run_add(k1, tb, e_base + 1);
      k2 = hvs_run_add(k2, tb, e_base + 2);
    }
    sq[0][t] = k0; sq[1][t] = k1; sq[2][t] = k2; sf[t] = f;
    barrier();
    for (uint s = 1u; s < 64u; s <<= 1) {
      if ((t & (2u * s - 1u)) == 0u) {
        for (int c = 0; c < 3; ++c) sq[c][t] = hvs_compose(sq[c][t], sq[c][t + s]);
        sf[t] = hvs_merge_flags(sf[t], sf[t + s]);
      }
      barrier();
    }
    if (t == 0u) write_table(node, e_base, sf[0], uvec2[3](sq[0][0], sq[1][0], sq[2][0]));
    barrier();
  }
}
