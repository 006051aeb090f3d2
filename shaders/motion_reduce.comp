// Integer motion SAD, pass 2: the frame's SAD into results[out_base] (uint64). Rows up to 65537 columns:
// the sum of the `count` tile totals (uint64). Wider rows (`rows` != 0): row r's uint32 sum is the wrapping
// uint32 sum of its `count` tile partials rowpart[r·count + t] (the SPEC's per-row accumulator), and the
// frame's SAD the uint64 sum of the rows.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 2) readonly buffer partial_buf { uint64_t partial[]; };
layout(std430, set = 0, binding = 2) readonly buffer rowpart_buf { uint rowpart[]; };
layout(std430, set = 0, binding = 3) buffer result_buf { uint64_t result[]; };

layout(push_constant) uniform push_t {
  uint count;     // tiles (rows == 0), or tiles per row
  uint rows;      // 0, or the rows of the wide layout
  uint out_base;  // uint64 index into results
} pc;

shared uint64_t red[256];

void main() {
  const uint t = gl_LocalInvocationIndex;
  uint64_t acc = 0ul;
  if (pc.rows == 0u) {
    for (uint i = t; i < pc.count; i += 256u) acc += partial[i];
  } else {
    for (uint r = t; r < pc.rows; r += 256u) {
      uint row = 0u;  // wraps modulo 2^32, as libvmaf's row accumulator
      for (uint i = 0u; i < pc.count; ++i) row += rowpart[r * pc.count + i];
      acc += uint64_t(row);
    }
  }
  red[t] = acc;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    barrier();
  }
  if (t == 0u) result[pc.out_base] = red[0];
}
