// Vulkan engine of speed_chroma: none yet (no kernel method), so the Vulkan backend refuses speed_chroma at run time.
// SpEED's 25x25 eigen/QR solver per image is binary32 with double promotions (SPEC-vmaf-v1 §B.9-B.10).
#pragma once

namespace vqm::vulkan {

struct speed_chroma_engine {};

}  // namespace vqm::vulkan
