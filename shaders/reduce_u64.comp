// Pass 2 of the exact sums: workgroup z adds `count` uint64 partials into results[out_base + z].
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 1) readonly buffer partial_buf { uint64_t partial[]; };
layout(std430, set = 0, binding = 2) buffer result_buf { uint64_t result[]; };

layout(push_constant) uniform push_t {
  uint count;
  uint in_base;
  uint out_base;
} pc;

shared uint64_t red[256];

void main() {
  const uint seg = gl_WorkGroupID.z;
  const uint t = gl_LocalInvocationIndex;
  uint64_t acc = 0ul;
  for (uint i = t; i < pc.count; i += 256u) acc += partial[pc.in_base + seg * pc.count + i];
  red[t] = acc;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    barrier();
  }
  if (t == 0u) result[pc.out_base + seg] = red[0];
}
