// VP9 loop filter, one invocation per line (SPEC §3–§6, §11). Integer-only: int32 everywhere, `>>` on int
// is arithmetic in GLSL, so the arithmetic is the scalar reference's, bit for bit.
// The includer defines PIXEL_T (uint8_t / uint16_t) after enabling the matching storage extension.

layout(local_size_x = 64) in;

layout(constant_id = 0) const int WD = 4;      // 4, 8, 16
layout(constant_id = 1) const int DIR = 0;     // 0: h (taps along x), 1: v (taps along y)
layout(constant_id = 2) const int BD = 8;      // 8, 10, 12
layout(constant_id = 3) const bool COUNT = false;  // SPEC §8 counters; off by default (atomics perturb timing)
// Lane -> (edge, line): 0 = edge-major (lanes 8e..8e+7 = lines of edge e); 1 = line-major: each group of 64
// lanes takes 8 consecutive edges, lane = 8 * line + edge, so neighbouring lanes read the same row of
// neighbouring edges (SPEC §7 coalescing hint for h; for v it scatters, edge-major is already coalesced).
layout(constant_id = 4) const int MAP = 0;

layout(std430, binding = 0) buffer Pixels { PIXEL_T px[]; };
layout(std430, binding = 1) readonly buffer Edges { uvec2 edges[]; };  // (offset, E | I << 8 | H << 16)
layout(std430, binding = 2) buffer Counters { uint cnt[16]; };

layout(push_constant) uniform Push {
  uint n_edges;     // edges in this dispatch
  uint first_edge;  // index of its first edge
  uint stride;      // pixels per row
} pc;

// Counter slots, in the order of vqm::lpf::counters.
const uint C_FM = 0u, C_HEV = 1u, C_FLAT8 = 2u, C_FLAT16 = 3u, C_SKIP = 4u, C_F16 = 5u, C_F8 = 6u, C_F4_2 = 7u, C_F4_4 = 8u;

void main() {
  const uint gid = gl_GlobalInvocationID.x;
  const uint local_edge = MAP == 0 ? gid >> 3 : ((gid >> 6) << 3) | (gid & 7u);
  const uint line = MAP == 0 ? gid & 7u : (gid >> 3) & 7u;
  if (local_edge >= pc.n_edges) return;
  const uint e = pc.first_edge + local_edge;
  const uvec2 rec = edges[e];
  const int s = BD - 8;
  const int E = int(rec.y & 255u) << s, I = int((rec.y >> 8) & 255u) << s, H = int((rec.y >> 16) & 255u) << s;
  const int F = 1 << s, pmax = (1 << BD) - 1, smax = (1 << (BD - 1)) - 1, smin = -(1 << (BD - 1));
  const uint o = rec.x + (DIR == 0 ? line * pc.stride : line);
  const uint step = DIR == 0 ? 1u : pc.stride;
  const int R = WD == 16 ? 8 : 4;

  int x[16];
  for (int k = -R; k < R; ++k) x[8 + k] = int(px[o + uint(k) * step]);
  const int p3 = x[4], p2 = x[5], p1 = x[6], p0 = x[7], q0 = x[8], q1 = x[9], q2 = x[10], q3 = x[11];

  const bool fm = abs(p3 - p2) <= I && abs(p2 - p1) <= I && abs(p1 - p0) <= I && abs(q1 - q0) <= I &&
                  abs(q2 - q1) <= I && abs(q3 - q2) <= I && 2 * abs(p0 - q0) + (abs(p1 - q1) >> 1) <= E;
  const bool hev = abs(p1 - p0) > H || abs(q1 - q0) > H;
  bool flat8 = false, flat16 = false;
  if (WD >= 8)
    flat8 = abs(p1 - p0) <= F && abs(q1 - q0) <= F && abs(p2 - p0) <= F && abs(q2 - q0) <= F &&
            abs(p3 - p0) <= F && abs(q3 - q0) <= F;
  if (WD == 16) {
    flat16 = flat8;
    for (int i = 4; i < 8; ++i) flat16 = flat16 && abs(x[7 - i] - p0) <= F && abs(x[8 + i] - q0) <= F;
  }

  uint branch;
  if (!fm) {
    branch = C_SKIP;
  } else if (WD == 16 && flat16) {
    branch = C_F16;
    int y[16];
    for (int k = -7; k <= 6; ++k) {
      int sum = x[8 + k] + 8;
      for (int j = -7; j <= 7; ++j) sum += x[8 + clamp(k + j, -8, 7)];
      y[8 + k] = sum >> 4;
    }
    for (int k = -7; k <= 6; ++k) px[o + uint(k) * step] = PIXEL_T(y[8 + k]);
  } else if (WD >= 8 && flat8) {
    branch = C_F8;
    int y[16];
    for (int k = -3; k <= 2; ++k) {
      int sum = x[8 + k] + 4;
      for (int j = -3; j <= 3; ++j) sum += x[8 + clamp(k + j, -4, 3)];
      y[8 + k] = sum >> 3;
    }
    for (int k = -3; k <= 2; ++k) px[o + uint(k) * step] = PIXEL_T(y[8 + k]);
  } else {
    branch = hev ? C_F4_2 : C_F4_4;
    const int a = hev ? clamp(p1 - q1, smin, smax) : 0;
    const int f = clamp(a + 3 * (q0 - p0), smin, smax);
    const int f1 = min(f + 4, smax) >> 3;
    const int f2 = min(f + 3, smax) >> 3;
    px[o] = PIXEL_T(clamp(q0 - f1, 0, pmax));
    px[o - step] = PIXEL_T(clamp(p0 + f2, 0, pmax));
    if (!hev) {
      const int g = (f1 + 1) >> 1;
      px[o + step] = PIXEL_T(clamp(q1 - g, 0, pmax));
      px[o - 2u * step] = PIXEL_T(clamp(p1 + g, 0, pmax));
    }
  }

  if (COUNT) {
    if (fm) {
      atomicAdd(cnt[C_FM], 1u);
      if (hev) atomicAdd(cnt[C_HEV], 1u);
      if (flat8) atomicAdd(cnt[C_FLAT8], 1u);
      if (flat16) atomicAdd(cnt[C_FLAT16], 1u);
    }
    atomicAdd(cnt[branch], 1u);
  }
}
