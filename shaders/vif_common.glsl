// Shared by the integer VIF shaders (vif_down, vif_stats; SPEC-vmaf Part I): the scale's filter as
// specialization constants (from vqm/tables/vif.hpp, never retyped here), the reflect-101 index folding of
// §4.1, and the reads of a scale's image (scale 0: the luma samples in binding 0; above: the pyramid,
// one uint per sample, in binding 2).

layout(std430, set = 0, binding = 2) buffer pyr_buf { uint pyr[]; };

// The kernel: TAPS[0 .. 2·HALF] (the rest 0). SCALE: the scale whose image the shader reads. Loops over
// taps run to the constant 17 and test k <= 2·HALF, so that the compiler unrolls them with constant taps.
layout(constant_id = 0) const uint C0 = 0u;
layout(constant_id = 1) const uint C1 = 0u;
layout(constant_id = 2) const uint C2 = 0u;
layout(constant_id = 3) const uint C3 = 0u;
layout(constant_id = 4) const uint C4 = 0u;
layout(constant_id = 5) const uint C5 = 0u;
layout(constant_id = 6) const uint C6 = 0u;
layout(constant_id = 7) const uint C7 = 0u;
layout(constant_id = 8) const uint C8 = 0u;
layout(constant_id = 9) const uint C9 = 0u;
layout(constant_id = 10) const uint C10 = 0u;
layout(constant_id = 11) const uint C11 = 0u;
layout(constant_id = 12) const uint C12 = 0u;
layout(constant_id = 13) const uint C13 = 0u;
layout(constant_id = 14) const uint C14 = 0u;
layout(constant_id = 15) const uint C15 = 0u;
layout(constant_id = 16) const uint C16 = 0u;
layout(constant_id = 17) const int HALF = 1;
layout(constant_id = 18) const uint SCALE = 0u;

// The taps as an array (GLSL has no global arrays of specialization constants: `VIF_TAPS;` declares it).
#define VIF_TAPS const uint TAPS[17] = uint[17](C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16)

// §4.1: reflect-101 about the first and last sample, folded again as often as needed (period 2(n−1)).
// n = 1 folds everything to 0 (callers apply §4.3 themselves). GLSL % is undefined for negatives.
uint fold(int p, uint n) {
  if (p >= 0 && p < int(n)) return uint(p);
  if (n <= 1u) return 0u;
  const int period = 2 * (int(n) - 1);
  int m = p >= 0 ? p % period : (period - ((-p) % period)) % period;
  return uint(m <= int(n) - 1 ? m : period - m);
}

// Sample (x, y) of the scale-SCALE image starting at `off` (scale 0: word offset of the luma plane,
// `stride` in words; above: uint offset into the pyramid, `stride` = the image width).
uint image_at(uint off, uint stride, uint x, uint y, uint bpc) {
  if (SCALE == 0u) return fetch_sample(off, stride, x, y, bpc);
  return pyr[off + y * stride + x];
}

// rs(v, n) of the SPEC for 32-bit sums whose rounding add cannot overflow (n ≥ 1).
uint rs32(uint v, uint n) { return (v + (1u << (n - 1u))) >> n; }
