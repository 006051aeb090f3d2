// bench/compile: the README's "library in ten lines" (PSNR on the Cpu backend). measure.sh times compiling it.
#include <cstdio>
#include "vqm/cpu.hpp"
#include "vqm/io/y4m.hpp"

int main() {
  vqm::io::y4m_reader ref("ref.y4m"), dis("dis.y4m");
  vqm::Cpu cpu;                                           // or vqm::Vulkan gpu; (vqm/vulkan.hpp)
  const vqm::Psnr<vqm::Cpu> psnr(ref.format());           // validates the format, throws vqm::error
  for (vqm::picture r, d; ref.read(r) && dis.read(d);) {
    const auto v = vqm::compute(cpu, psnr, r, d);         // psnr_y, psnr_cb, psnr_cr
    std::printf("%.6f %.6f %.6f\n", v[0], v[1], v[2]);
  }
}
