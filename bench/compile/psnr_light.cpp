// bench/compile: the README's ten-line PSNR program on the compiled library's light API (vqm/cpu_session.hpp,
// linked with libvqm_cpu.a). measure.sh times compiling it.
#include <cstdio>
#include "vqm/cpu_session.hpp"
#include "vqm/io/y4m.hpp"

int main() {
  vqm::io::y4m_reader ref("ref.y4m"), dis("dis.y4m");
  vqm::cpu_metric psnr("psnr", ref.format());             // validates the format, throws vqm::error
  for (vqm::picture r, d; ref.read(r) && dis.read(d);) {
    const auto v = psnr.compute(r, d);                    // psnr_y, psnr_cb, psnr_cr
    std::printf("%.6f %.6f %.6f\n", v[0], v[1], v[2]);
  }
}
