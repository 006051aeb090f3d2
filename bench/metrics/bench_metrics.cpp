// vqm_bench_metrics: frames per second of every metric on the Cpu backend, at 576x324 (the fixture)
// and 1080p (the fixture mirror-tiled), frames already in memory (compute only).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/cpu.hpp"

namespace {

using vqm::bench::frame_pair;

using vqm::bench::resolution;

// Two frame pairs alternate: distinct data each frame, still cache-resident at 1080p (12 MB).
const std::vector<frame_pair>& frames(const resolution& r) { return vqm::bench::cached_frames(r, 2); }

void report(benchmark::State& state) {
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(state.iterations());
}

// One frame after the other on the caller's thread: begin_frame, record the metrics, submit, wait, scores.
void run_metrics(benchmark::State& state, const resolution& r, const std::vector<std::string>& names) {
  const auto& fr = frames(r);
  vqm::Cpu cpu;
  std::vector<vqm::any_metric<vqm::Cpu>> metrics;
  std::size_t outputs = 0;
  for (const auto& n : names) {
    metrics.push_back(vqm::make_metric<vqm::Cpu>(n, {}, fr.front().ref.format()));
    metrics.back().reserve_slots(1);
    outputs += metrics.back().names().size();
  }
  std::vector<double> out(outputs);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    auto f = cpu.begin_frame(p.ref, p.dis);
    for (auto& m : metrics) m.enqueue(cpu, f, 0);
    cpu.submit(f);
    cpu.wait(f);
    double* o = out.data();
    for (auto& m : metrics) {
      m.scores(0, o);
      o += m.names().size();
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report(state);
}

// Frames in parallel on the Cpu pool through the scorer (depth = threads).
void run_scorer(benchmark::State& state, const resolution& r, const std::vector<std::string>& names, unsigned threads) {
  const auto& fr = frames(r);
  vqm::Cpu cpu(threads);
  std::vector<vqm::any_metric<vqm::Cpu>> metrics;
  for (const auto& n : names) metrics.push_back(vqm::make_metric<vqm::Cpu>(n, {}, fr.front().ref.format()));
  vqm::scorer<vqm::Cpu> s(cpu, std::move(metrics), vqm::compat::none, threads);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    auto res = s.push(p.ref, p.dis);
    benchmark::DoNotOptimize(res);
  }
  while (auto res = s.pop()) benchmark::DoNotOptimize(res);  // drain: every pushed frame is counted
  report(state);
}

const std::vector<std::string> all_five = {"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"};
// libvmaf's float features and ciede (issue #19), one thread through the scorer (float_motion is temporal).
const std::vector<std::string> float_features = {"float_motion", "float_vif", "float_adm", "float_moment", "ciede"};
// VMAF v1's SpEED features (issue #18), one thread through the scorer (speed_temporal is temporal).
const std::vector<std::string> speed_features = {"speed_chroma", "speed_temporal"};

[[maybe_unused]] const bool registered = [] {
  for (const auto& r : vqm::bench::cpu_resolutions) {
    for (const auto& m : all_five)
      benchmark::RegisterBenchmark((m + "/cpu/" + r.name).c_str(), [&r, m](benchmark::State& s) { run_metrics(s, r, {m}); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    for (const auto& m : speed_features)
      benchmark::RegisterBenchmark((m + "/cpu/" + r.name).c_str(), [&r, m](benchmark::State& s) { run_scorer(s, r, {m}, 1); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    for (const auto& m : float_features)
      benchmark::RegisterBenchmark((m + "/cpu/" + r.name).c_str(), [&r, m](benchmark::State& s) { run_scorer(s, r, {m}, 1); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("all5/cpu/") + r.name).c_str(),
                                 [&r](benchmark::State& s) { run_metrics(s, r, all_five); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("all5/cpu/") + r.name + "/threads:2").c_str(),
                                 [&r](benchmark::State& s) { run_scorer(s, r, all_five, 2); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace

int main(int argc, char** argv) { return vqm::bench::main(argc, argv, "vqm_bench_metrics"); }
