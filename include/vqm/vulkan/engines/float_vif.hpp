// Vulkan engine of float_vif: not implemented yet. Without a float_vif() member the backend refuses the
// feature at run time ("the Vulkan backend does not implement float_vif").
#pragma once

namespace vqm::vulkan {

struct float_vif_engine {};

}  // namespace vqm::vulkan
