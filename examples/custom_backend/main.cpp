// Psnr on a backend written outside the library: it prints the same numbers as the Cpu backend.
#include <cstdio>

#include "my_backend.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/y4m.hpp"

int main(int argc, char** argv) try {
  if (argc != 3) return std::fprintf(stderr, "usage: vqm_custom_backend REF.y4m DIS.y4m\n"), 2;
  vqm::io::y4m_reader ref(argv[1]), dis(argv[2]);
  MyBackend mine;
  vqm::Cpu cpu;
  const vqm::Psnr<MyBackend> psnr_mine(ref.format());
  const vqm::Psnr<vqm::Cpu> psnr_cpu(ref.format());
  int differ = 0;
  vqm::picture r, d;
  for (int i = 0; ref.read(r) && dis.read(d); ++i) {
    const auto a = vqm::compute(mine, psnr_mine, r, d), b = vqm::compute(cpu, psnr_cpu, r, d);
    for (std::size_t k = 0; k < a.size(); ++k) differ += a[k] != b[k];
    std::printf("frame %d: MyBackend psnr_y %.17g, Cpu psnr_y %.17g\n", i, a[0], b[0]);
  }
  // At run time, a metric the backend lacks is an error, not a crash.
  try {
    (void)vqm::make_metric<MyBackend>("float_ssim", {}, ref.format());
  } catch (const vqm::error& e) {
    std::printf("as expected: %s\n", e.what());
  }
  std::printf(differ ? "MISMATCH with Cpu\n" : "MyBackend == Cpu\n");
  return differ ? 1 : 0;
} catch (const vqm::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
