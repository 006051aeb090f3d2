// vqm_bench_vmaf_kernels: VMAF's integer ADM and VIF (SPEC-vmaf Parts I and II) and cambi (SPEC-vmaf-v1 Part A,
// default options) per frame, single thread, on the Cpu kernels: the scalar reference (none for cambi) and the
// optimised kernel at each instruction-set level
// (baseline, avx2, avx512, avx512vnni: cpu::set_max_isa; a level this machine lacks is skipped with a message).
// 576x324 (the astronaut fixture pair) and 1080p (mirror-tiled), 8-bit, frames in memory; Time = ms per
// frame, counter fps. The whole model through a session: vqm_bench_vmaf.
//
//   vqm_bench_vmaf_kernels [--fixtures DIR] [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/cambi.hpp"
#include "vqm/cpu/reference/adm.hpp"
#include "vqm/cpu/reference/vif.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/vif.hpp"
#include "vqm/metrics/adm.hpp"
#include "vqm/metrics/cambi.hpp"
#include "vqm/metrics/vif.hpp"

namespace {

using vqm::bench::resolution;

// reference: the scalar reference kernel; otherwise the optimised kernel capped at that level.
struct variant {
  bool reference = false;
  vqm::cpu::isa level = vqm::cpu::isa::baseline;
};

// One feature's algorithm and its two kernels.
struct adm_feature {
  using algorithm = vqm::adm_algorithm;
  static auto reference(const vqm::plane_view& a, const vqm::plane_view& b, const algorithm& alg) {
    return vqm::cpu::reference::adm(a, b, 8, alg.request());
  }
  static auto optimised(const vqm::plane_view& a, const vqm::plane_view& b, const algorithm& alg) {
    return vqm::cpu::adm(a, b, 8, alg.request());
  }
};
struct vif_feature {
  using algorithm = vqm::vif_algorithm;
  static auto reference(const vqm::plane_view& a, const vqm::plane_view& b, const algorithm& alg) {
    return vqm::cpu::reference::vif(a, b, 8, alg.request());
  }
  static auto optimised(const vqm::plane_view& a, const vqm::plane_view& b, const algorithm& alg) {
    return vqm::cpu::vif(a, b, 8, alg.request());
  }
};

template <class Feature>
void bench_kernel(benchmark::State& state, resolution r, variant v) {
  const auto& fr = vqm::bench::cached_frames(r, 2);
  const typename Feature::algorithm alg(fr[0].ref.format());
  if (v.level > vqm::cpu::detected_isa()) {
    state.SkipWithError("this machine lacks the instruction-set level");
    return;
  }
  const auto cap = vqm::cpu::max_isa();
  vqm::cpu::set_max_isa(v.level);
  std::size_t i = 0;
  std::vector<double> out(alg.names().size());
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    const auto a = p.ref.view().planes[0];
    const auto b = p.dis.view().planes[0];
    const auto part = v.reference ? Feature::reference(a, b, alg) : Feature::optimised(a, b, alg);
    alg.scores(part, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  vqm::cpu::set_max_isa(cap);
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

template <class Feature>
void register_feature(const char* name) {
  using vqm::cpu::isa;
  std::vector<variant> variants{variant{true}};
  for (const isa level : vqm::cpu::all_isas) variants.push_back(variant{false, level});
  for (const auto& r : vqm::bench::cpu_resolutions)
    for (const variant v : variants) {
      const std::string label = v.reference ? "reference" : std::string(vqm::cpu::isa_name(v.level));
      benchmark::RegisterBenchmark((std::string(name) + "/" + label + "/" + r.name).c_str(), bench_kernel<Feature>, r, v)
          ->Unit(benchmark::kMillisecond);
    }
}

// cambi: the distorted luma's score (its c-value pass over five scales and the pooling).
void bench_cambi(benchmark::State& state, resolution r, vqm::cpu::isa level) {
  const auto& fr = vqm::bench::cached_frames(r, 2);
  const vqm::cambi_algorithm alg(fr[0].ref.format());
  if (level > vqm::cpu::detected_isa()) {
    state.SkipWithError("this machine lacks the instruction-set level");
    return;
  }
  const auto cap = vqm::cpu::max_isa();
  vqm::cpu::set_max_isa(level);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    const auto part = vqm::cpu::cambi(p.ref.view(), p.dis.view(), alg.request());
    benchmark::DoNotOptimize(part);
  }
  vqm::cpu::set_max_isa(cap);
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

[[maybe_unused]] const bool registered = [] {
  register_feature<adm_feature>("adm");
  register_feature<vif_feature>("vif");
  using vqm::cpu::isa;
  for (const auto& r : vqm::bench::cpu_resolutions)
    for (const isa level : vqm::cpu::all_isas)
      benchmark::RegisterBenchmark(("cambi/" + std::string(vqm::cpu::isa_name(level)) + "/" + r.name).c_str(),
                                   bench_cambi, r, level)
          ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

int main(int argc, char** argv) { return vqm::bench::main(argc, argv, "vqm_bench_vmaf_kernels"); }
