// Test shader (tests/vulkan/test_vulkan_adm.cpp): adm_common.glsl's int64 -> binary32 conversion, round to
// nearest even, on partial[0 .. count) into band[0 .. count) (float bits), and the driver's float(int64_t)
// into band[count .. 2·count) for comparison.
#version 450
#include "adm_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform push_t { uint count; } pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  const int64_t x = partial[i];
  band[i] = floatBitsToInt(i64_to_f32_rn(x));
  band[pc.count + i] = floatBitsToInt(float(x));
}
