// A downstream program on the core alone (vqm::vqm / vqm.pc): compiles without Vulkan on the include
// path, and sees the package's version in VQM_VERSION_STRING.
#include <cstdio>
#include <cstring>

#include "vqm/vqm.hpp"

#if defined(VK_VERSION_1_0)
#error "vqm/vqm.hpp (the core) pulled in a third-party header"
#endif
static_assert(VQM_VERSION == VQM_VERSION_MAJOR * 10000 + VQM_VERSION_MINOR * 100 + VQM_VERSION_PATCH);

int main() {
  const vqm::picture pic(vqm::picture_format{64, 48, vqm::chroma_format::yuv420, 8});
  std::printf("vqm %s (expected %s), picture %zu bytes\n", VQM_VERSION_STRING, VQM_EXPECTED_VERSION, pic.bytes().size());
  return std::strcmp(VQM_VERSION_STRING, VQM_EXPECTED_VERSION) == 0 && pic.bytes().size() == 64 * 48 * 3 / 2 ? 0 : 1;
}
