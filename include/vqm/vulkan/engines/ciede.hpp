// Vulkan engine of ciede: none yet (no kernel method), so the Vulkan backend refuses ciede at run time.
// Exactness there needs shaderFloat64 and glibc-equal powf/atan2f/sinf/cosf/pow/exp/sin in GLSL
// (docs/spec-float-features.md).
#pragma once

namespace vqm::vulkan {

struct ciede_engine {};

}  // namespace vqm::vulkan
