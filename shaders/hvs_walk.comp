#version 450
// The ordered walk (one workgroup per plane): first the run tables of levels >= 2 (composed from the level
// below, hvs_parent_table), then libvmaf's serial binary32 sum ret = fl(ret + t) over the plane's terms,
// jumping over every run whose table covers the current binade, descending a level when it does not, and
// adding term by term only at the leaves. Every invocation runs the same (uniform) walk; they only share
// the memory traffic: the 16 sibling tables of a level, and a leaf's 64 terms, are loaded into shared
// memory at once instead of one dependent load at a time.
// Two dispatches (phase 0, 1), so that each can run beside another metric's heavy stage: phase 0 composes
// the tables and walks the first 1/16 of the plane's blocks (the start, where the sum is small and crosses
// binades often, is the slow part; why 1/16: docs/performance.md), then leaves the
// walk's state (sum, position, level) after the tables; phase 1 takes it up and finishes. The operations,
// and so the sum, are the same.
#extension GL_GOOGLE_include_directive : require
layout(std430, set = 0, binding = 2) coherent buffer tables_buf { uint tables[]; };
#define HVS_TABLES_DECLARED 1
#include "hvs_common.glsl"

layout(local_size_x = 64) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer terms_buf { float terms[]; };
layout(std430, set = 0, binding = 3) writeonly buffer result_buf { float ret[]; };
layout(push_constant) uniform push_block {
  uint out_word;
  uint phase;
};

shared uint tcache[HVS_MAX_LEVELS][HVS_FAN * HVS_TABLE_WORDS];
shared float leaf[64];

bool try_jump(inout float s, uint l, uint w) {
  uint flags = tcache[l][w + 1u];
  if ((flags & HVS_ALL_ZERO) != 0u) return true;
  if ((flags & HVS_SERIAL) != 0u) return false;
  uint bits = floatBitsToUint(s);
  int e = int((bits >> 23) & 0xffu);
  if ((bits >> 31) != 0u || e == 0 || e == 255) return false;
  int e_base = int(tcache[l][w]);
  int c = e - e_base;
  if (e_base == HVS_NO_BINADE || c < 0 || c >= 3) return false;
  uint m = (bits & 0x7fffffu) | 0x800000u;
  uint q = tcache[l][w + 2u + 2u * uint(c) + (m & 1u)];
  if (m + q >= HVS_MLIMIT) return false;
  s = uintBitsToFloat(bits + q);
  return true;
}

void main() {
  uint p = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
  uint nb = plane[p].bx * plane[p].by;
  int levels = int(plane[p].levels);
  const uint state = total_nodes * HVS_TABLE_WORDS + 4u * p;  // s, pos, l after the tables
  for (int lv = 2; lv < levels && phase == 0u; ++lv) {
    uint n = plane[p].node_count[lv], below = plane[p].node_count[lv - 1];
    for (uint i = t; i < n; i += 64u) {
      uint c0 = plane[p].node_offset[lv - 1] + i * HVS_FAN;
      hvs_parent_table(plane[p].node_offset[lv] + i, c0, c0 + min(HVS_FAN, below - i * HVS_FAN));
    }
    memoryBarrierBuffer();
    barrier();
  }
  uint cached[HVS_MAX_LEVELS];
  for (int i = 0; i < HVS_MAX_LEVELS; ++i) cached[i] = 0xffffffffu;
  precise float s = 0.0;
  uint pos = 0u;
  int l = levels - 1;
  if (phase == 1u) {
    s = uintBitsToFloat(tables[state]);
    pos = tables[state + 1u];
    l = int(tables[state + 2u]);
  }
  const uint stop = phase == 0u ? nb / 16u : nb;
  while (pos < stop) {
    uint rb = plane[p].run_blocks[l];
    uint len = min(rb, nb - pos);
    uint idx = pos / rb, grp = idx / HVS_FAN;
    if (cached[l] != grp) {  // uniform: every invocation walks the same path
      uint first = plane[p].node_offset[l] + grp * HVS_FAN;
      uint words = min(HVS_FAN, plane[p].node_count[l] - grp * HVS_FAN) * HVS_TABLE_WORDS;
      barrier();
      for (uint w = t; w < words; w += 64u) tcache[l][w] = tables[first * HVS_TABLE_WORDS + w];
      barrier();
      cached[l] = grp;
    }
    if (try_jump(s, uint(l), (idx % HVS_FAN) * HVS_TABLE_WORDS)) {
    } else if (l > 0) {
      --l;
      continue;
    } else {
      barrier();
      leaf[t] = terms[(plane[p].block_offset + pos) * 64u + t];
      barrier();
      for (uint i = 0u; i < 64u; ++i) s = s + leaf[i];
    }
    pos += len;
    while (l + 1 < levels && pos % plane[p].run_blocks[l + 1] == 0u) ++l;
  }
  if (t == 0u && phase == 0u) {
    tables[state] = floatBitsToUint(s);
    tables[state + 1u] = pos;
    tables[state + 2u] = uint(l);
  }
  if (t == 0u && phase == 1u) ret[out_word + p] = s;
}
