// Test-only: div_rn (vif_div.glsl) on `count` operand pairs (n, d) from binding 0, quotients to binding 1.
#version 450

#include "vif_div.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer in_buf { double operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer out_buf { double quotients[]; };

layout(push_constant) uniform push_t { uint count; } pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  quotients[i] = div_rn(operands[2u * i], operands[2u * i + 1u]);
}
