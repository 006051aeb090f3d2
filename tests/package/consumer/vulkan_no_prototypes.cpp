// The same headers in a translation unit that hides the Vulkan prototypes itself (as volk users do):
// vqm calls every Vulkan function through its dispatch table, so it compiles either way.
#define VK_NO_PROTOTYPES
#include "vqm/lpf/vulkan.hpp"
#include "vqm/vulkan.hpp"

int no_prototypes_tu() { return sizeof(vqm::vulkan::dispatch) > 0 ? 0 : 1; }
