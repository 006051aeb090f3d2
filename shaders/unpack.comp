// Semi-planar and MSB-aligned input to the planar, LSB-aligned planes the metric shaders read, in the
// slot's input buffer, before the metrics' dispatches (vulkan/detail/unpack.hpp).
// z = 2·picture + part. Part 0: luma shifted right in place (P010, P012). Part 1: the interleaved chroma
// rows (uploaded as they are to src) split into the Cb and Cr planes, shifted likewise (planar
// MSB-aligned chroma: shifted in place). Invocation (x, y) writes output word x of row y: 4 samples at
// 8 bits, 2 above, read from input words 2x and 2x + 1.
#version 450

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer pics_buf { uint pics[]; };

layout(push_constant) uniform push_t {
  uint luma[2];      // word offset of each picture's luma
  uint src[2];       // word offset of each picture's interleaved chroma
  uint cb[2];        // word offsets of the planar Cb and Cr planes
  uint cr[2];
  uint flags[2];     // per picture: bit 0 interleaved chroma, bit 1 Cr first, bits 8.. the MSB shift
  uint luma_stride;  // words per row
  uint luma_words;   // words to shift per row
  uint luma_rows;
  uint src_stride;   // words per interleaved row
  uint chroma_stride;
  uint chroma_words;  // output words per chroma row
  uint chroma_rows;
  uint wide;  // 16-bit samples
} pc;

// Both 16-bit halves of w shifted right by s.
uint shift_halves(uint w, uint s) {
  return (w >> s) & ((0xFFFFu >> s) * 0x10001u);
}

void main() {
  const uint pic = gl_WorkGroupID.z >> 1;
  const uint part = gl_WorkGroupID.z & 1u;
  const uint x = gl_GlobalInvocationID.x;
  const uint y = gl_GlobalInvocationID.y;
  const uint flags = pc.flags[pic];
  const uint shift = flags >> 8;
  if (part == 0u) {
    if (shift == 0u || x >= pc.luma_words || y >= pc.luma_rows) return;
    const uint i = pc.luma[pic] + y * pc.luma_stride + x;
    pics[i] = shift_halves(pics[i], shift);
    return;
  }
  if (x >= pc.chroma_words || y >= pc.chroma_rows) return;
  const uint o = y * pc.chroma_stride + x;
  if ((flags & 1u) == 0u) {  // planar chroma: only MSB-aligned samples to shift, in place
    if (shift == 0u) return;
    pics[pc.cb[pic] + o] = shift_halves(pics[pc.cb[pic] + o], shift);
    pics[pc.cr[pic] + o] = shift_halves(pics[pc.cr[pic] + o], shift);
    return;
  }
  const uint s = pc.src[pic] + y * pc.src_stride + 2u * x;
  const uint a = pics[s];
  const uint b = pics[s + 1u];
  uint u, v;
  if (pc.wide != 0u) {
    u = (a & 0xFFFFu) | (b << 16);
    v = (a >> 16) | (b & 0xFFFF0000u);
    u = shift_halves(u, shift);
    v = shift_halves(v, shift);
  } else {  // bytes u0 v0 u1 v1 | u2 v2 u3 v3
    u = (a & 0xFFu) | ((a >> 8) & 0xFF00u) | ((b & 0xFFu) << 16) | ((b << 8) & 0xFF000000u);
    v = ((a >> 8) & 0xFFu) | ((a >> 16) & 0xFF00u) | ((b << 8) & 0xFF0000u) | (b & 0xFF000000u);
  }
  if ((flags & 2u) != 0u) {
    const uint t = u;
    u = v;
    v = t;
  }
  pics[pc.cb[pic] + o] = u;
  pics[pc.cr[pic] + o] = v;
}
