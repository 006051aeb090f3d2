#version 450
// The ordered walk (one invocation per plane): libvmaf's serial binary32 sum ret = fl(ret + t) over the
// plane's terms, jumping over every run whose table covers the current binade, descending a level when
// it does not, and adding term by term only at the leaves.
#extension GL_GOOGLE_include_directive : require
#include "hvs_common.glsl"

layout(local_size_x = 1) in;
HVS_PARAMS_BLOCK(0);
layout(std430, set = 0, binding = 1) readonly buffer terms_buf { float terms[]; };
layout(std430, set = 0, binding = 2) readonly buffer tables_buf { uint tables[]; };
layout(std430, set = 0, binding = 3) writeonly buffer result_buf { float ret[]; };

bool try_jump(inout float s, uint w) {
  uint flags = tables[w + 1u];
  if ((flags & HVS_ALL_ZERO) != 0u) return true;
  if ((flags & HVS_SERIAL) != 0u) return false;
  uint bits = floatBitsToUint(s);
  int e = int((bits >> 23) & 0xffu);
  if ((bits >> 31) != 0u || e == 0 || e == 255) return false;
  int e_base = int(tables[w]);
  int c = e - e_base;
  if (e_base == HVS_NO_BINADE || c < 0 || c >= 3) return false;
  uint m = (bits & 0x7fffffu) | 0x800000u;
  uint q = tables[w + 2u + 2u * uint(c) + (m & 1u)];
  if (m + q >= HVS_MLIMIT) return false;
  s = uintBitsToFloat(bits + q);
  return true;
}

void main() {
  uint p = gl_WorkGroupID.x;
  uint nb = plane[p].bx * plane[p].by;
  int levels = int(plane[p].levels);
  precise float s = 0.0;
  uint pos = 0u;
  int l = levels - 1;
  while (pos < nb) {
    uint rb = plane[p].run_blocks[l];
    uint len = min(rb, nb - pos);
    if (try_jump(s, (plane[p].node_offset[l] + pos / rb) * HVS_TABLE_WORDS)) {
    } else if (l > 0) {
      --l;
      continue;
    } else {
      uint first = (plane[p].block_offset + pos) * 64u;
      for (uint i = 0u; i < 64u; ++i) s = s + terms[first + i];
    }
    pos += len;
    while (l + 1 < levels && pos % plane[p].run_blocks[l + 1] == 0u) ++l;
  }
  ret[p] = s;
}
