// float_motion (libvmaf's float_motion.c), four rounds per frame, in binary32 with no contraction (precise):
//  mode 0: the float luma less 128, vertical 5-tap pass (reflect-101 rows) into the scratch plane;
//  mode 1: horizontal 5-tap pass (reflect-101 columns) into this frame's ring entry (the blurred frame);
//  mode 2: one thread per row: |previous − current| summed left to right (libvmaf's row sum);
//  mode 3: one thread: the row sums added top to bottom; the float's bits go into the result block.
#version 450

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer pics_buf { uint pics[]; };
layout(std430, set = 0, binding = 1) buffer ring_buf { float ring[]; };
layout(std430, set = 0, binding = 2) buffer result_buf { uint result[]; };

layout(push_constant) uniform push_t {
  uint mode;
  uint in_off;   // words: this frame's reference luma in the input
  uint stride;   // input words per row
  uint w, h;
  uint bpc;
  uint cur;      // floats: this frame's ring entry
  uint prev;     // floats: the previous frame's entry
  uint tmp;      // floats: the scratch plane
  uint rows;     // floats: the row sums
  uint out_word; // uint index into results
  uint f0, f1, f2;  // FILTER_5_s's binary32 bits (the host rounds libvmaf's double constants)
} pc;

int mirror101(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t); }

float luma(uint y, uint x) {
  const uint word = pics[pc.in_off + y * pc.stride + (pc.bpc <= 8u ? (x >> 2) : (x >> 1))];
  const uint raw = pc.bpc <= 8u ? bitfieldExtract(word, int((x & 3u) * 8u), 8) : bitfieldExtract(word, int((x & 1u) * 16u), 16);
  precise float v = ldexp(float(raw), -int(pc.bpc - 8u)) + (-128.0);  // exact
  return v;
}

void main() {
  const float f0 = uintBitsToFloat(pc.f0), f1 = uintBitsToFloat(pc.f1), f2 = uintBitsToFloat(pc.f2);
  const int w = int(pc.w), h = int(pc.h);
  if (pc.mode <= 1u) {
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h) return;
    precise float a = 0.0;
    if (pc.mode == 0u) {
      a += f0 * luma(uint(mirror101(y - 2, h)), uint(x));
      a += f1 * luma(uint(mirror101(y - 1, h)), uint(x));
      a += f2 * luma(uint(y), uint(x));
      a += f1 * luma(uint(mirror101(y + 1, h)), uint(x));
      a += f0 * luma(uint(mirror101(y + 2, h)), uint(x));
      ring[pc.tmp + uint(y * w + x)] = a;
    } else {
      const uint r = pc.tmp + uint(y * w);
      a += f0 * ring[r + uint(mirror101(x - 2, w))];
      a += f1 * ring[r + uint(mirror101(x - 1, w))];
      a += f2 * ring[r + uint(x)];
      a += f1 * ring[r + uint(mirror101(x + 1, w))];
      a += f0 * ring[r + uint(mirror101(x + 2, w))];
      ring[pc.cur + uint(y * w + x)] = a;
    }
  } else if (pc.mode == 2u) {
    const uint y = gl_GlobalInvocationID.x;
    if (y >= pc.h) return;
    precise float line = 0.0;
    for (uint x = 0u; x < pc.w; ++x) line += abs(ring[pc.prev + y * pc.w + x] - ring[pc.cur + y * pc.w + x]);
    ring[pc.rows + y] = line;
  } else if (gl_GlobalInvocationID.x == 0u) {
    precise float acc = 0.0;
    for (uint y = 0u; y < pc.h; ++y) acc += ring[pc.rows + y];
    result[pc.out_word] = floatBitsToUint(acc);
  }
}
