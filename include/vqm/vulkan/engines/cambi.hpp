// Vulkan engine of cambi: none yet (no kernel method), so the Vulkan backend refuses cambi at run time.
// A kernel must reproduce the Cpu one exactly (sliding histograms, libvmaf's quickselect order).
#pragma once

namespace vqm::vulkan {

struct cambi_engine {};

}  // namespace vqm::vulkan
