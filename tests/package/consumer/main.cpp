// A downstream program: finds vqm, runs Psnr<Cpu> on a synthetic pair and checks the number.
#include <cmath>
#include <cstdio>

#include "vqm/cpu.hpp"

// The Cpu backend's kernels are hand-written: no third-party header reaches its consumers.
#if defined(EIGEN_WORLD_VERSION) || defined(VK_VERSION_1_0)
#error "vqm/cpu.hpp pulled in a third-party header"
#endif

// Linked with vqm::cpu_compiled: the kernels are declarations here, defined in libvqm_cpu.a.
#if defined(VQM_CONSUMER_EXPECT_COMPILED) && VQM_CPU_KERNEL_BODIES
#error "vqm::cpu_compiled did not pass VQM_CPU_COMPILED: this file compiles the kernels itself"
#endif

int main() {
  vqm::picture ref(vqm::picture_format{64, 48, vqm::chroma_format::yuv420, 8});
  vqm::picture dis(ref.format());
  for (auto& b : dis.bytes()) b = std::byte{2};  // every sample differs by 2: MSE 4
  vqm::Cpu cpu;
  const vqm::Psnr<vqm::Cpu> psnr(ref.format());
  const auto v = vqm::compute(cpu, psnr, ref, dis);
  const double expected = 10.0 * std::log10(255.0 * 255.0 / 4.0);
  std::printf("psnr_y %.17g (expected %.17g)\n", v[0], expected);
  return v.size() == 3 && v[0] == expected && v[1] == expected && v[2] == expected ? 0 : 1;
}
