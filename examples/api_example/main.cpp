// The library in a few lines: read two Y4M files, measure PSNR and SSIM per frame on the CPU.
#include <cstdio>

#include "vqm/cpu.hpp"
#include "vqm/io/y4m.hpp"

int main(int argc, char** argv) try {
  if (argc != 3) return std::fprintf(stderr, "usage: vqm_api_example REF.y4m DIS.y4m\n"), 2;
  vqm::io::y4m_reader ref(argv[1]), dis(argv[2]);
  vqm::Cpu cpu;
  const vqm::Psnr<vqm::Cpu> psnr(ref.format());
  const vqm::Ssim<vqm::Cpu> ssim(ref.format());
  vqm::picture r, d;
  for (int i = 0; ref.read(r) && dis.read(d); ++i) {
    const auto p = vqm::compute(cpu, psnr, r, d);  // psnr_y, psnr_cb, psnr_cr
    const auto s = vqm::compute(cpu, ssim, r, d);  // float_ssim
    std::printf("frame %d: psnr_y %.6f psnr_cb %.6f psnr_cr %.6f float_ssim %.6f\n", i, p[0], p[1], p[2], s[0]);
  }
} catch (const vqm::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
