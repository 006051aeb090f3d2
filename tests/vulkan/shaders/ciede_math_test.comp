// Test-only: ciede_math.glsl's functions on `count` argument pairs (x, y) from binding 0, function
// `fn` (0 pow, 1 exp, 2 log, 3 sin, 4 cos, 5 atan2 of the floats y, x, 6 division, 7 sqrt).
#version 450
#extension GL_ARB_gpu_shader_fp64 : require

#include "ciede_math.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer in_buf { double args[]; };
layout(std430, set = 0, binding = 1) writeonly buffer out_buf { double results[]; };

layout(push_constant) uniform push_t { uint count; uint fn; } pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  const double x = args[2u * i], y = args[2u * i + 1u];
  double r = 0.0LF;
  switch (pc.fn) {
    case 0u: r = d_pow(x, y); break;
    case 1u: r = d_exp(x); break;
    case 2u: r = d_log(x); break;
    case 3u: r = d_sin(x); break;
    case 4u: r = d_cos(x); break;
    case 5u: r = d_atan2(float(y), float(x)); break;
    case 6u: r = d_div(x, y); break;
    default: r = d_sqrt(x); break;
  }
  results[i] = r;
}
