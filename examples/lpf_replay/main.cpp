// lpf_replay TRACE.bin [--backend cpu|vulkan]: replays a VP9 loop-filter golden trace (SPEC §10)
// and compares every pixel of every tile with libvpx's output. Exit 0 only when nothing differs.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <exception>
#include <string>

#include "vqm/lpf/cpu.hpp"
#include "vqm/lpf/trace.hpp"
#ifdef VQM_LPF_REPLAY_VULKAN
#include "vqm/lpf/vulkan.hpp"
#endif

namespace {

template <class Backend>
int replay(Backend& backend, const std::vector<vqm::lpf::trace_record>& records, bool verbose) {
  using namespace vqm::lpf;
  std::size_t edges = 0, mismatches = 0;
  for (kind k : all_kinds) {
    trace_batch b = layout_trace(records, k);
    if (b.edges.empty()) continue;
    counters c;
    backend.filter(k, plane<std::uint8_t>{b.pixels.data(), b.pixels.size(), b.stride, 8}, b.edges, &c);
    std::size_t m = 0;
    for (std::size_t i = 0; i < b.pixels.size(); ++i) m += b.pixels[i] != b.expected[i];
    if (verbose)
      fmt::print("{:<11} {:5} edges, {:6} mismatching pixels; fm {:5.1f}%, hev|fm {:5.1f}%, flat8|fm {:5.1f}%, flat16|fm {:5.1f}%\n",
                 name(k), b.edges.size(), m, 100 * c.fm_rate(), 100 * c.hev_rate(), 100 * c.flat8_rate(),
                 100 * c.flat16_rate());
    edges += b.edges.size();
    mismatches += m;
  }
  fmt::print("{} edges, {} mismatching pixels\n", edges, mismatches);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Replays a VP9 loop-filter trace (VP9LPFT1) and compares with libvpx's output"};
  std::string path, backend = "cpu";
  bool quiet = false;
  app.add_option("trace", path, "trace file (SPEC §10 format)")->required();
  app.add_option("--backend", backend, "cpu or vulkan")->check(CLI::IsMember({"cpu", "vulkan"}));
  app.add_flag("-q,--quiet", quiet, "print only the summary line");
  CLI11_PARSE(app, argc, argv);

  try {
    const auto records = vqm::lpf::read_trace(path);
    if (backend == "cpu") {
      vqm::lpf::cpu_backend cpu;
      return replay(cpu, records, !quiet);
    }
#ifdef VQM_LPF_REPLAY_VULKAN
    vqm::lpf::vulkan_backend gpu;
    return replay(gpu, records, !quiet);
#else
    fmt::print(stderr, "lpf_replay: this build has no Vulkan backend; configure with -DVQM_VULKAN=ON\n");
    return 2;
#endif
  } catch (const std::exception& e) {
    fmt::print(stderr, "lpf_replay: {}\n", e.what());
    return 1;
  }
}
