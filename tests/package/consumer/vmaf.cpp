// A downstream program computing VMAF (vmaf_v0.6.1) on the Cpu backend: the heaviest header-only use, built
// with the consumer's warning flags (-Wall -Wextra -Wpedantic -Werror in CI) and -Wshadow through every way
// of finding vqm, so a flag the CMake target carries but a .pc file lacks (-Wno-psabi) fails the build. It
// includes the umbrella headers (vqm.hpp, cpu.hpp, session.hpp, multi_session.hpp) and streams its rows;
// the readers, writers and the loop filter's headers are included for -Wshadow's sake (both compilers).
#include <cmath>
#include <cstdio>
#include <vector>

#include "vqm/cpu.hpp"
#include "vqm/io/open.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"
#include "vqm/lpf/cpu.hpp"
#include "vqm/lpf/kernels.hpp"
#include "vqm/multi_session.hpp"
#include "vqm/output/writers.hpp"
#include "vqm/session.hpp"
#include "vqm/thread_pool.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "vqm/vqm.hpp"

int main() {
  const vqm::picture_format f{64, 48, vqm::chroma_format::yuv420, 8};
  vqm::picture ref(f), dis(f);
  auto rb = ref.bytes();
  auto db = dis.bytes();
  for (std::size_t i = 0; i < rb.size(); ++i) {
    rb[i] = std::byte(static_cast<unsigned char>((i * 37 + i / 64 * 11) % 251));
    db[i] = std::byte(static_cast<unsigned char>((i * 37 + i / 64 * 11 + i % 3) % 251));
  }
  vqm::Cpu cpu;
  // Designated initialisers leaving members out, as the docs write them: no -Wmissing-field-initializers.
  const vqm::session_config cfg{.models = {vqm::vmaf::builtin_model("vmaf_v0.6.1")}};
  std::vector<double> streamed;
  const auto run = [&] {
    vqm::session<vqm::Cpu> s(cpu, f, cfg);
    streamed.clear();
    s.on_frame([&streamed](const vqm::frame_scores& r) { streamed.push_back(r.at("vmaf")); });
    s.push(ref, dis);
    s.push(ref, ref);
    return s.finish();
  };
  const auto table = run();
  const auto vmaf = table.column("vmaf");
  const auto pooled = table.pooled("vmaf");
  std::printf("vmaf %.6f %.6f, mean %.6f\n", vmaf.at(0), vmaf.at(1), pooled.mean);
  // The identical pair scores higher than the distorted one, and both are scores; the streamed rows are
  // the table's; and the machine's best kernels give the portable ones' values (in this build's
  // optimisation level: a Debug consumer once got other numbers from the AVX2 ADM).
  bool ok = vmaf.size() == 2 && std::isfinite(vmaf[0]) && vmaf[0] >= 0 && vmaf[1] <= 100 && vmaf[1] > vmaf[0] &&
            streamed == vmaf && pooled.min == vmaf[0] && pooled.max == vmaf[1];
  vqm::cpu::set_max_isa(vqm::cpu::isa::baseline);
  const auto portable = run().column("vmaf");
  if (portable != vmaf) {
    std::printf("portable kernels: vmaf %.6f %.6f\n", portable.at(0), portable.at(1));
    ok = false;
  }
  return ok ? 0 : 1;
}
