// cambi (SPEC-vmaf-v1 A.5–A.8), integer work and the binary32 c-values; the top-k pooling is the host's.
// Five modes: 0 convert (nearest-sample resize through the host's index maps, 10 bits, the anti-dithering
// mean), 1 range (the first sample above the input's bit depth, libvmaf's frame error), 4 flat rows (each
// sample's count of flat samples among the 7 of its row around it), 2 down (decimate when asked, mode
// filter; the mask travels in bit 16 of each sample: at scale 0 the 7 rows' flat counts above the mask
// index, later the decimated one), 3 c-values (one thread per column and band of rows: libvmaf's sliding
// column histograms, two 16-bit counts a word, restarted at the band's first row and emptied after its
// last, so they are all 0 again for the next scale or frame).
#version 450

#include "metrics_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 1) buffer scratch_buf { uint scratch[]; };
// The reciprocal table (floats as bits) at 0, tvi at lut_size, the contrast weights after, the index maps.
layout(std430, set = 0, binding = 2) readonly buffer consts_buf { uint consts[]; };
layout(std430, set = 0, binding = 3) writeonly buffer cvalue_buf { float cvals[]; };
layout(std430, set = 0, binding = 4) buffer result_buf { uint res[]; };

const uint lut_size = 4226u;

layout(push_constant) uniform push_t {
  uint mode;
  uint w, h;        // the pass's output size (range: the input plane's)
  uint in_w, in_h;  // down: the input image's size
  uint src;         // convert, range: the plane's first word; down, c-values: the input image
  uint dst;         // convert, down: the output image; c-values: the first c-value
  uint stride;      // convert, range: words per row of the plane
  uint bpc;
  uint flag;        // convert: anti-dither; down: decimate
  uint xmap, ymap;  // convert: the index maps
  uint hist;        // c-values: the histograms' first word; down at scale 0: the flat rows
  uint rows;        // c-values: rows per band
  uint pad;         // c-values: half the window
  uint base, band;  // c-values: the histogram band [base, base + band)
  uint diffs, vlt;
  uint res_word;    // the result block's first word (slot, then the first bad sample per image)
  uint slot;
  int mask_index;   // down at scale 0: the mask keeps counts above it; −1000: not scale 0
} pc;

uint convert10(uint v) {
  if (pc.bpc <= 10u) return v << (10u - pc.bpc);
  return (v + (1u << (pc.bpc - 11u))) >> (pc.bpc - 10u);
}

uint converted(uint x, uint y) {
  return convert10(fetch_sample(pc.src, pc.stride, consts[pc.xmap + x], consts[pc.ymap + y], pc.bpc));
}

void convert_pass(uint x, uint y) {
  if (x == 0u && y == 0u) {
    res[pc.res_word] = pc.slot;
    res[pc.res_word + 1u] = 0xFFFFFFFFu;
    res[pc.res_word + 2u] = 0xFFFFFFFFu;
  }
  uint v = converted(x, y);
  if (pc.flag != 0u) {  // A.5 step 3, from the unfiltered values
    const bool right = x + 1u < pc.w, below = y + 1u < pc.h;
    if (right && below)
      v = (v + converted(x + 1u, y) + converted(x, y + 1u) + converted(x + 1u, y + 1u)) >> 2;
    else if (below)
      v = (v + converted(x, y + 1u)) >> 1;
    else if (right)
      v = (v + converted(x + 1u, y)) >> 1;
  }
  scratch[pc.dst + y * pc.w + x] = v;
}

void range_pass(uint x, uint y) {
  if (fetch_sample(pc.src, pc.stride, x, y, pc.bpc) > (1u << pc.bpc) - 1u)
    atomicMin(res[pc.res_word + pc.flag], y * pc.w + x);
}

// The input image's sample before the mode filter: decimated or not, value bits only.
uint plain(uint x, uint y) {
  const uint s = pc.flag != 0u ? 2u : 1u;
  return scratch[pc.src + (s * y) * pc.in_w + s * x] & 0xFFFFu;
}

uint mode3(uint a, uint b, uint c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return min(min(a, b), c);
}

uint horizontal(uint x, uint y) {
  if (x == 0u || x + 1u == pc.w) return plain(x, y);
  return mode3(plain(x - 1u, y), plain(x, y), plain(x + 1u, y));
}

// A.6 on the converted image (w × h at src): flat where equal to the right and lower neighbours.
bool is_flat(int x, int y) {
  const int w = int(pc.w), h = int(pc.h);
  const uint v = scratch[pc.src + uint(y * w + x)];
  const bool r = x + 1 >= w || scratch[pc.src + uint(y * w + x + 1)] == v;
  const bool d = y + 1 >= h || scratch[pc.src + uint((y + 1) * w + x)] == v;
  return r && d;
}

uint mask_at(uint x, uint y) {
  const uint s = pc.flag != 0u ? 2u : 1u;
  if (pc.mask_index < -999) return (scratch[pc.src + (s * y) * pc.in_w + s * x] >> 16) & 1u;
  const int cx = int(s * x), cy = int(s * y);
  uint count = 0u;
  for (int j = max(0, cy - 3); j <= min(int(pc.in_h) - 1, cy + 3); ++j) count += scratch[pc.hist + uint(j) * pc.in_w + uint(cx)];
  return int(count) > pc.mask_index ? 1u : 0u;
}

void flat_rows_pass(uint x, uint y) {
  uint count = 0u;
  for (int i = max(0, int(x) - 3); i <= min(int(pc.w) - 1, int(x) + 3); ++i) count += is_flat(i, int(y)) ? 1u : 0u;
  scratch[pc.dst + y * pc.w + x] = count;
}

void down_pass(uint x, uint y) {
  uint v;
  if (pc.h < 3u || y == 0u || y + 1u == pc.h)
    v = plain(x, y);
  else
    v = mode3(horizontal(x, y - 1u), horizontal(x, y), horizontal(x, y + 1u));
  scratch[pc.dst + y * pc.w + x] = v | (mask_at(x, y) << 16);
}

// c-values: the counts of column x's window, two values a word, words (band + 1) / 2 rows of w.
uint words() { return (pc.band + 1u) >> 1; }

void update_row(uint hist0, int x, uint r, bool add) {
  const int lo = max(0, x - int(pc.pad)), hi = min(int(pc.w) - 1, x + int(pc.pad));
  for (int c = lo; c <= hi; ++c) {
    const uint e = scratch[pc.src + r * pc.w + uint(c)];
    const uint v = e & 0xFFFFu;
    if ((e & 0x10000u) == 0u || v < pc.base || v >= pc.base + pc.band) continue;
    const uint k = v - pc.base;
    const uint i = hist0 + (k >> 1) * pc.w;
    const uint one = (k & 1u) != 0u ? 0x10000u : 1u;
    scratch[i] = add ? scratch[i] + one : scratch[i] - one;
  }
}

uint count_of(uint hist0, uint v) {
  if (v < pc.base || v >= pc.base + pc.band) return 0u;
  const uint k = v - pc.base;
  return bitfieldExtract(scratch[hist0 + (k >> 1) * pc.w], int((k & 1u) * 16u), 16);
}

// f32(n) correctly rounded (to nearest, ties to even) whatever the device's conversion does: n < 2^31.
float to_float_rn(uint n) {
  const int bits = findMSB(n) + 1;
  if (bits <= 24) return float(n);
  const uint s = uint(bits - 24);
  uint m = n >> s;
  const uint rem = n & ((1u << s) - 1u), mid = 1u << (s - 1u);
  if (rem > mid || (rem == mid && (m & 1u) != 0u)) ++m;
  return ldexp(float(m), int(s));
}

void cvalue_pass(uint x, uint band_index) {
  const uint y0 = band_index * pc.rows;
  if (y0 >= pc.h) return;
  const uint y1 = min(y0 + pc.rows, pc.h);
  const uint hist0 = pc.hist + band_index * words() * pc.w + x;  // all 0 (zeroed once, emptied after use)
  const int pad = int(pc.pad), xi = int(x);
  for (int r = max(0, int(y0) - pad); r < min(int(pc.h), int(y0) + pad); ++r) update_row(hist0, xi, uint(r), true);
  for (uint y = y0; y < y1; ++y) {
    if (y + pc.pad < pc.h) update_row(hist0, xi, y + pc.pad, true);
    if (y > y0 && int(y) - pad - 1 >= 0) update_row(hist0, xi, y - pc.pad - 1u, false);
    const uint e = scratch[pc.src + y * pc.w + x];
    const uint v = e & 0xFFFFu;
    float c = 0.0;
    if ((e & 0x10000u) != 0u && v >= pc.base && v < pc.base + pc.band) {
      const uint adjusted = v + pc.diffs;
      const uint p0 = count_of(hist0, v);
      for (uint d = 0u; d < pc.diffs; ++d) {
        if (adjusted > consts[lut_size + d] || adjusted + d + 1u <= pc.vlt) continue;
        const uint pm = max(count_of(hist0, v + d + 1u), v >= d + 1u ? count_of(hist0, v - d - 1u) : 0u);
        precise float val = to_float_rn(consts[lut_size + 32u + d] * p0 * pm) * uintBitsToFloat(consts[pm + p0]);
        if (val > c) c = val;
      }
    }
    cvals[pc.dst + y * pc.w + x] = c;
  }
  for (int r = max(0, int(y1) - 1 - pad); r <= min(int(pc.h) - 1, int(y1) - 1 + pad); ++r)
    update_row(hist0, xi, uint(r), false);
}

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (pc.mode == 3u) {
    if (x < pc.w) cvalue_pass(x, y);
    return;
  }
  if (x >= pc.w || y >= pc.h) return;
  if (pc.mode == 0u)
    convert_pass(x, y);
  else if (pc.mode == 1u)
    range_pass(x, y);
  else if (pc.mode == 4u)
    flat_rows_pass(x, y);
  else
    down_pass(x, y);
}
