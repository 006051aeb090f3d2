// Test-only: div_exact_from (fadm_div.glsl) on `count` binary32 operand pairs (n, x) from binding 0, each
// with its candidate moved `off` ulps from the device's quotient (the accuracy a driver may have).
#version 450

#include "fadm_div.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer in_buf { float operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer out_buf { float quotients[]; };

layout(push_constant) uniform push_t { uint count; int off; } pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  const float n = operands[2u * i], x = operands[2u * i + 1u];
  float q = float(abs(double(n)) / abs(double(x)));
  const int b = int(floatBitsToUint(q)) + pc.off;
  if (q != 0.0 && b > 0) q = uintBitsToFloat(uint(b));
  quotients[i] = div_exact_from(n, x, q);
}
