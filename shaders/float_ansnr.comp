// float_ansnr (libvmaf's ansnr_tools.c), three rounds per frame, in binary32 with no contraction (precise):
//  mode 0: per sample, the reference's 3x3 and the distorted's 5x5 filter (a float sum per filter row, the
//          row sums added; libvmaf's edge rule), and the two terms r·r and (r − d)·(r − d);
//  mode 1: one thread per row: each term summed left to right (ansnr_mse_s's inner sums);
//  mode 2: one thread: the row sums added top to bottom; the floats' bits go into the result block.
#version 450

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer pics_buf { uint pics[]; };
layout(std430, set = 0, binding = 1) buffer scratch_buf { float scratch[]; };
layout(std430, set = 0, binding = 2) buffer result_buf { uint result[]; };

layout(push_constant) uniform push_t {
  uint mode;
  uint off[2];    // words: the reference's and the distorted's luma in the input
  uint stride;    // input words per row
  uint w, h;
  uint bpc;
  uint rows;      // floats: the row sums (2·h); the terms are floats [0, 2·w·h)
  uint out_word;  // uint index into results
  uint k[6];      // the distorted filter's binary32 bits: f32(k/571), k = 2, 7, 12, 31, 52, 127
} pc;

// −t before 0 (no repeat), 2n − 1 − t from n on (the edge sample repeated): libvmaf's rule.
int mirror(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - 1 - t : t); }

float luma(uint off, int y, int x) {
  const uint ux = uint(x);
  const uint word = pics[off + uint(y) * pc.stride + (pc.bpc <= 8u ? (ux >> 2) : (ux >> 1))];
  const uint raw = pc.bpc <= 8u ? bitfieldExtract(word, int((ux & 3u) * 8u), 8)
                                : bitfieldExtract(word, int((ux & 1u) * 16u), 16);
  precise float v = ldexp(float(raw), -int(pc.bpc - 8u)) + (-128.0);  // exact
  return v;
}

// Which of the six distinct taps each of the 5x5 kernel's entries is.
const uint dis_tap[25] = uint[25](0u, 1u, 2u, 1u, 0u, 1u, 3u, 4u, 3u, 1u, 2u, 4u, 5u, 4u, 2u, 1u, 3u, 4u, 3u, 1u,
                                  0u, 1u, 2u, 1u, 0u);
// The 3x3 kernel k/16 (exact binary32 values).
const float ref_tap[9] = float[9](0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625);

void main() {
  const int w = int(pc.w), h = int(pc.h);
  if (pc.mode == 0u) {
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h) return;
    precise float r = 0.0;
    for (int fi = 0; fi < 3; ++fi) {
      const int yy = mirror(y - 1 + fi, h);
      precise float inner = 0.0;
      for (int fj = 0; fj < 3; ++fj) inner += ref_tap[fi * 3 + fj] * luma(pc.off[0], yy, mirror(x - 1 + fj, w));
      r += inner;
    }
    precise float d = 0.0;
    for (int fi = 0; fi < 5; ++fi) {
      const int yy = mirror(y - 2 + fi, h);
      precise float inner = 0.0;
      for (int fj = 0; fj < 5; ++fj)
        inner += uintBitsToFloat(pc.k[dis_tap[fi * 5 + fj]]) * luma(pc.off[1], yy, mirror(x - 2 + fj, w));
      d += inner;
    }
    precise float sig = r * r;
    precise float diff = r - d;
    precise float noise = diff * diff;
    const uint at = uint(y * w + x);
    scratch[at] = sig;
    scratch[pc.w * pc.h + at] = noise;
  } else if (pc.mode == 1u) {
    const uint y = gl_GlobalInvocationID.x;
    if (y >= pc.h) return;
    precise float sig = 0.0, noise = 0.0;
    for (uint x = 0u; x < pc.w; ++x) {
      sig += scratch[y * pc.w + x];
      noise += scratch[pc.w * pc.h + y * pc.w + x];
    }
    scratch[pc.rows + y] = sig;
    scratch[pc.rows + pc.h + y] = noise;
  } else if (gl_GlobalInvocationID.x == 0u) {
    precise float sig = 0.0, noise = 0.0;
    for (uint y = 0u; y < pc.h; ++y) {
      sig += scratch[pc.rows + y];
      noise += scratch[pc.rows + pc.h + y];
    }
    result[pc.out_word] = floatBitsToUint(sig);
    result[pc.out_word + 1u] = floatBitsToUint(noise);
  }
}
