// Infrastructure self-test (tests/vulkan, docs/vulkan.md "Internals for kernel authors"):
// out[i] = in[i] * SCALE + push.offset, exercising a specialization constant, a push constant and two
// storage buffers.
#version 450

layout(local_size_x = 64) in;

layout(constant_id = 0) const uint SCALE = 1u;

layout(push_constant) uniform push_t {
  uint count;
  uint offset;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer in_t { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer out_t { uint dst[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < pc.count) dst[i] = src[i] * SCALE + pc.offset;
}
