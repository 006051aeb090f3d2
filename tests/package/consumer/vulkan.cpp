// A downstream program on vqm::vulkan: builds and starts without libvulkan (vqm opens the loader at run
// time; check_no_libvulkan.cmake checks the binary), and keeps the Vulkan prototypes visible: vqm does not
// force VK_NO_PROTOTYPES on its includers. With a device, it runs Psnr<Vulkan> and checks the number.
#include <cmath>
#include <cstdio>

#include "vqm/vulkan.hpp"

using create_instance_prototype = decltype(&vkCreateInstance);  // unevaluated: declared, not linked

int no_prototypes_tu();  // vulkan_no_prototypes.cpp

int main() {
  if (no_prototypes_tu() != 0) return 1;
  if (!vqm::vulkan::available()) {
    std::printf("no usable Vulkan device: built and started without libvulkan, nothing to run\n");
    return 0;
  }
  vqm::picture ref(vqm::picture_format{64, 48, vqm::chroma_format::yuv420, 8});
  vqm::picture dis(ref.format());
  for (auto& b : dis.bytes()) b = std::byte{2};  // every sample differs by 2: MSE 4
  vqm::Vulkan gpu;
  const vqm::Psnr<vqm::Vulkan> psnr(ref.format());
  const auto v = vqm::compute(gpu, psnr, ref, dis);
  const double expected = 10.0 * std::log10(255.0 * 255.0 / 4.0);
  std::printf("vulkan psnr_y %.17g (expected %.17g)\n", v[0], expected);
  return v.size() == 3 && v[0] == expected && v[1] == expected && v[2] == expected ? 0 : 1;
}
