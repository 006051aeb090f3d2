// vqm_bench_adm: integer ADM (SPEC-vmaf Part II) accumulators per frame, single thread, on the Cpu kernels:
// the scalar reference, the optimised kernel on the baseline path and on AVX2. 576x324 (the astronaut
// fixture pair) and 1080p (mirror-tiled), 8-bit, frames in memory; Time = ms per frame, counter fps.
//
//   vqm_bench_adm [--fixtures DIR] [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/reference/adm.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/metrics/adm.hpp"

namespace {

using vqm::bench::frame_pair;

struct resolution {
  const char* name;
  std::uint32_t width, height;
};
constexpr resolution resolutions[] = {{"576x324", 576, 324}, {"1080p", 1920, 1080}};

const std::vector<frame_pair>& frames(const resolution& r) {
  static std::map<std::string, std::vector<frame_pair>> cache;
  auto it = cache.find(r.name);
  if (it == cache.end()) it = cache.emplace(r.name, vqm::bench::bench_frames(r.width, r.height, 2)).first;
  return it->second;
}

enum class variant { reference, baseline, avx2 };

void bench_adm(benchmark::State& state, resolution r, variant v) {
  const auto& fr = frames(r);
  const vqm::adm_algorithm alg(fr[0].ref.format());
  if (v == variant::avx2 && vqm::cpu::detected_isa() != vqm::cpu::isa::avx2) {
    state.SkipWithError("no AVX2 on this machine");
    return;
  }
  vqm::cpu::set_max_isa(v == variant::avx2 ? vqm::cpu::isa::avx2 : vqm::cpu::isa::baseline);
  std::size_t i = 0;
  std::vector<double> out(alg.names().size());
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    const auto a = p.ref.view().planes[0], b = p.dis.view().planes[0];
    const auto part = v == variant::reference ? vqm::cpu::reference::adm(a, b, 8, alg.request())
                                              : vqm::cpu::adm(a, b, 8, alg.request());
    alg.scores(part, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  vqm::cpu::set_max_isa(vqm::cpu::isa::avx2);
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

[[maybe_unused]] const bool registered = [] {
  for (const auto& r : resolutions) {
    const std::string res = r.name;
    benchmark::RegisterBenchmark(("adm/reference/" + res).c_str(), bench_adm, r, variant::reference)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("adm/baseline/" + res).c_str(), bench_adm, r, variant::baseline)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("adm/avx2/" + res).c_str(), bench_adm, r, variant::avx2)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

int main(int argc, char** argv) { return vqm::bench::main(argc, argv, "vqm_bench_adm"); }
