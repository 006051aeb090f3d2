// Shared by the metric shaders (sse, ssim_*, ms_ssim_*): raw picture samples read from a uint[] SSBO
// (binding 0) with bit extraction, so no 8/16-bit storage feature is needed, and the exact helpers.

layout(std430, set = 0, binding = 0) readonly buffer pics_buf { uint pics[]; };

// Sample (x, y) of a plane whose rows start at word `base` + y·`stride` (words); 8-bit samples are bytes,
// deeper ones little-endian 16-bit halves.
uint fetch_sample(uint base, uint stride, uint x, uint y, uint bpc) {
  if (bpc <= 8u) {
    const uint w = pics[base + y * stride + (x >> 2)];
    return bitfieldExtract(w, int((x & 3u) * 8u), 8);
  }
  const uint w = pics[base + y * stride + (x >> 1)];
  return bitfieldExtract(w, int((x & 1u) * 16u), 16);
}

// SPEC §1.2: f32(v) / 2^(bpc−8), as a multiplication by the exact power of two (GPU division is not
// correctly rounded; multiplying by 2^−k is exact and gives the same value).
float normalize_sample(uint v, uint bpc) {
  precise float r = float(v) * ldexp(1.0, 8 - int(bpc));
  return r;
}

// Half-sample symmetric reflection with period 2n (SPEC §4.4); GLSL % is undefined for negatives.
int mirror_index(int i, int n) {
  const int period = 2 * n;
  int m = i >= 0 ? i % period : period - 1 - ((-1 - i) % period);
  return m < n ? m : period - 1 - m;
}
