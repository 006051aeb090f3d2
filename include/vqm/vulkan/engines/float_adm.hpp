// Vulkan engine of float_adm: none yet (no kernel method), so the Vulkan backend refuses float_adm at run
// time. An exact one needs libvmaf's binary32 order and its RCPSS division from the same table as the Cpu
// backend, passed as a buffer (docs/spec-float-features.md, "float_adm").
#pragma once

namespace vqm::vulkan {

struct float_adm_engine {};

}  // namespace vqm::vulkan
