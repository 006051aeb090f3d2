// bench/compile: vmaf.cpp's program on the compiled library's light API (vqm/cpu_session.hpp, linked with
// libvqm_cpu.a): no engine, kernel or model parsing in the file. measure.sh times compiling it.
#include <cmath>
#include <cstdio>

#include "vqm/cpu_session.hpp"

int main() {
  const vqm::picture_format f{64, 48, vqm::chroma_format::yuv420, 8};
  vqm::picture ref(f), dis(f);
  auto rb = ref.bytes();
  auto db = dis.bytes();
  for (std::size_t i = 0; i < rb.size(); ++i) {
    rb[i] = std::byte(static_cast<unsigned char>((i * 37 + i / 64 * 11) % 251));
    db[i] = std::byte(static_cast<unsigned char>((i * 37 + i / 64 * 11 + i % 3) % 251));
  }
  vqm::cpu_session s(f, {.models = {"vmaf_v0.6.1"}});
  s.push(ref, dis);
  s.push(ref, ref);
  const auto table = s.finish();
  const auto vmaf = table.column("vmaf");
  std::printf("vmaf %.6f %.6f\n", vmaf.at(0), vmaf.at(1));
  // The identical pair scores higher than the distorted one, and both are scores.
  const bool ok = vmaf.size() == 2 && std::isfinite(vmaf[0]) && vmaf[0] >= 0 && vmaf[1] <= 100 && vmaf[1] > vmaf[0];
  return ok ? 0 : 1;
}
