// PSNR-HVS GPU path, shared declarations: the parameter block (mirrors vqm::vulkan::detail::hvs_params in
// include/vqm/vulkan/engines/psnr_hvs_kernel.hpp) and the binade-skipping primitives (mirror
// include/vqm/detail/serial_float_sum.hpp function by function; docs/psnr_hvs_gpu.md).

#define HVS_MAX_LEVELS 8
#define HVS_FAN 16u
#define HVS_SAT 33554432u      // 2^25: saturated increment
#define HVS_MLIMIT 16777216u   // 2^24: m + q reaching it leaves the binade
#define HVS_NO_BINADE (-1000)
#define HVS_ALL_ZERO 1u
#define HVS_SERIAL 2u

struct hvs_plane {
  uint width, height, bx, by;
  uint block_offset, ref_byte, dis_byte, stride;
  uint levels, pad0, pad1, pad2;
  uint node_offset[HVS_MAX_LEVELS];
  uint node_count[HVS_MAX_LEVELS];
  uint run_blocks[HVS_MAX_LEVELS];
};

#define HVS_PARAMS_BLOCK(binding_)                                  \
  layout(std430, set = 0, binding = binding_) readonly buffer hvs_params_buf { \
    float csf[192];                                                 \
    float mask[192];                                                \
    uint bytes_per_sample, total_blocks, total_nodes;               \
    float k63, k15;                                                 \
    uint pad0_, pad1_, pad2_;                                       \
    hvs_plane plane[3];                                             \
  }

// One run table: e_base, flags, q[3][2] (8 words).
#define HVS_TABLE_WORDS 8u

uint hvs_sat_add(uint a, uint b) { return min(a + b, HVS_SAT); }

uvec2 hvs_compose(uvec2 a, uvec2 b) {
  return uvec2(hvs_sat_add(a.x, ((a.x & 1u) == 0u) ? b.x : b.y),
               hvs_sat_add(a.y, (((1u + a.y) & 1u) == 0u) ? b.x : b.y));
}

// floor(t/u) and the class of the fraction (0 < 1/2, 1 == 1/2, 2 > 1/2) for binade e.
uvec2 hvs_split(uint tb, int e) {
  int et = int((tb >> 23) & 0xffu);
  uint frac = tb & 0x7fffffu;
  uint mt = et == 0 ? frac : (frac | 0x800000u);
  int sh = (et == 0 ? 1 : et) - e;
  if (mt == 0u) return uvec2(0u, 0u);
  if (sh >= 2) return uvec2(HVS_SAT, 0u);
  if (sh >= 0) return uvec2(mt << uint(sh), 0u);
  int d = -sh;
  if (d >= 25) return uvec2(0u, 0u);
  uint rem = mt & ((1u << uint(d)) - 1u), half_ = 1u << uint(d - 1);
  return uvec2(mt >> uint(d), rem < half_ ? 0u : (rem == half_ ? 1u : 2u));
}

uint hvs_term_q(uvec2 x, uint par) {
  return x.x + (x.y == 2u ? 1u : 0u) + (x.y == 1u ? ((par + x.x) & 1u) : 0u);
}

// Adds one term to a run's (q0, q1) for binade e.
uvec2 hvs_run_add(uvec2 k, uint tb, int e) {
  uvec2 x = hvs_split(tb, e);
  return uvec2(hvs_sat_add(k.x, hvs_term_q(x, k.x & 1u)), hvs_sat_add(k.y, hvs_term_q(x, (1u + k.y) & 1u)));
}

uint hvs_term_flags(uint tb) {
  if (tb == 0u) return HVS_ALL_ZERO;
  if ((tb >> 31) != 0u || ((tb >> 23) & 0xffu) == 0xffu) return HVS_SERIAL;
  return 0u;
}

uint hvs_merge_flags(uint a, uint b) { return (a & b & HVS_ALL_ZERO) | ((a | b) & HVS_SERIAL); }

int hvs_binade_base(double est) {
  if (!(est > 0.0LF) || est > 3.0e38LF) return HVS_NO_BINADE;
  uvec2 w = unpackDouble2x32(est);
  int de = int((w.y >> 20) & 0x7ffu);
  return de - 1023 + 127 - 1;
}

bool hvs_binade_valid(int e) { return e >= 1 && e <= 254; }

// The table of a parent run for binade base `e_parent` from its children's tables (nodes c0..c1-1,
// already written): for each of the 3 binades E, the children's Q_E composed in order. A child that lacks
// binade E (or is flagged serial) makes the parent's Q_E saturated: it only costs a descent in the walk,
// never a wrong jump, since every composed Q is the exact one. All-zero children are the identity.
// Needs `tables[]` declared by the including shader (HVS_TABLES_DECLARED).
#ifdef HVS_TABLES_DECLARED
void hvs_parent_table(uint node, uint c0, uint c1) {
  int e_parent = int(tables[c0 * HVS_TABLE_WORDS]);
  uvec2 acc[3] = uvec2[3](uvec2(0u), uvec2(0u), uvec2(0u));
  bool bad[3] = bool[3](false, false, false);
  uint f = HVS_ALL_ZERO;
  for (uint i = c0; i < c1; ++i) {
    uint w = i * HVS_TABLE_WORDS;
    uint fi = tables[w + 1u];
    f = hvs_merge_flags(f, fi);
    if ((fi & HVS_ALL_ZERO) != 0u) continue;
    int ei = int(tables[w]);
    for (int c = 0; c < 3; ++c) {
      int idx = e_parent + c - ei;
      if (ei == HVS_NO_BINADE || idx < 0 || idx > 2) {
        bad[c] = true;
      } else {
        acc[c] = hvs_compose(acc[c], uvec2(tables[w + 2u + 2u * uint(idx)], tables[w + 3u + 2u * uint(idx)]));
      }
    }
  }
  uint w = node * HVS_TABLE_WORDS;
  tables[w] = uint(e_parent);
  tables[w + 1u] = f;
  for (int c = 0; c < 3; ++c) {
    uvec2 q = acc[c];
    if (bad[c] || e_parent == HVS_NO_BINADE || !hvs_binade_valid(e_parent + c) || (f & HVS_SERIAL) != 0u) q = uvec2(HVS_SAT);
    tables[w + 2u + 2u * uint(c)] = q.x;
    tables[w + 3u + 2u * uint(c)] = q.y;
  }
}
#endif

// Level-1 groups (16 blocks, the tables dispatch's workgroups) of plane p: first group index and count.
uint hvs_groups(uint nb) { return (nb + HVS_FAN - 1u) / HVS_FAN; }
