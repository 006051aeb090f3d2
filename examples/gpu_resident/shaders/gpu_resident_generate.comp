// The example's "decoder": writes frame t of a reference and a distorted NV12 picture into one buffer
// (ref Y, ref CbCr, dis Y, dis CbCr; rows `width` bytes), a 32-bit word (4 samples) per invocation.
// Reference: moving diagonal bands and a square crossing the frame; distorted: quantised, plus noise.
#version 450
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) writeonly buffer frames { uint words[]; };
layout(push_constant) uniform push_block { uint width, height, t, base; } pc;

uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
uint luma(uint x, uint y, uint t) {
  const int cx = int((t * 2u) % pc.width), cy = int(pc.height / 2u);
  if (abs(int(x) - cx) < 20 && abs(int(y) - cy) < 20) return 235u;
  return 16u + (x * 3u + y * 2u + t) % 200u;
}
uint chroma(uint x, uint y, uint t, uint c) { return 96u + (x * (2u + c) + y + t * 3u) % 64u; }
uint noisy(uint v, uint x, uint y, uint t, uint plane) {
  const int n = int(hash(x * 7919u + y * 104729u + t * 1299709u + plane * 15485863u) % 17u) - 8;
  return uint(clamp(int(v & ~7u) + n, 0, 255));  // coarse quantisation plus noise
}

void main() {
  const uint per_row = pc.width / 4u, rows = pc.height + pc.height / 2u;
  const uint wx = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  if (wx >= per_row || row >= rows) return;
  for (uint pic = 0u; pic < 2u; ++pic) {
    uint word = 0u;
    for (uint b = 0u; b < 4u; ++b) {
      const uint x = wx * 4u + b;
      uint v;
      if (row < pc.height) {
        v = luma(x, row, pc.t);
        if (pic == 1u) v = noisy(v, x, row, pc.t, 0u);
      } else {
        const uint cy = row - pc.height, c = x & 1u;  // interleaved Cb, Cr
        v = chroma(x >> 1u, cy, pc.t, c);
        if (pic == 1u) v = noisy(v, x, cy, pc.t, 1u + c);
      }
      word |= v << (8u * b);
    }
    words[pc.base + pic * per_row * rows + row * per_row + wx] = word;
  }
}
