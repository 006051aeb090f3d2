// vqm_bench_vmaf: VMAF on the Cpu backend — the vmaf_v0.6.1 model end to end (adm + vif + motion, the
// flush and the SVM), with vmaf_v0.6.1neg beside it (one run of both models) and each feature alone, at 576x324 (the fixture) and 1080p (mirror-tiled), on one
// thread and on every hardware thread; plus the scalar reference kernels, to show what the vectorised
// ones buy. Frames are already in memory (compute only).
#include <benchmark/benchmark.h>

#include <string>
#include <thread>
#include <vector>

#include "frames.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu/reference/adm.hpp"
#include "vqm/cpu/reference/motion.hpp"
#include "vqm/cpu/reference/vif.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace {

using vqm::bench::frame_pair;

using vqm::bench::resolution;

const std::vector<frame_pair>& frames(const resolution& r) { return vqm::bench::cached_frames(r, 4); }

void report(benchmark::State& state, std::size_t frames_done) {
  state.counters["fps"] = benchmark::Counter(static_cast<double>(frames_done), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(static_cast<std::int64_t>(frames_done));
}

unsigned all_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// A session over `frames_per_iteration` frames per benchmark iteration: model or features, `threads`.
void run_session(benchmark::State& state, const resolution& r, unsigned threads, std::vector<const char*> models,
                 std::vector<vqm::feature_request> features) {
  const auto& fr = frames(r);
  vqm::Cpu cpu(threads);
  vqm::session_config cfg;
  for (const char* m : models) cfg.models.push_back(vqm::vmaf::load_model(m));
  cfg.features = std::move(features);
  cfg.depth = threads;
  constexpr std::size_t frames_per_iteration = 16;
  std::size_t done = 0;
  for (auto _ : state) {
    vqm::session<vqm::Cpu> s(cpu, fr.front().ref.format(), cfg);
    for (std::size_t i = 0; i < frames_per_iteration; ++i) s.push(fr[i % fr.size()].ref, fr[i % fr.size()].dis);
    auto t = s.finish();
    benchmark::DoNotOptimize(t.rows.data());
    done += frames_per_iteration;
  }
  report(state, done);
}

// The scalar reference kernels, one frame pair per iteration (the oracle the tests compare against).
template <class F>
void run_reference(benchmark::State& state, const resolution& r, F kernel) {
  const auto& fr = frames(r);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = fr[i++ % fr.size()];
    auto out = kernel(p.ref.view().planes[0], p.dis.view().planes[0], p.ref.format().bit_depth);
    benchmark::DoNotOptimize(out);
  }
  report(state, i);
}

vqm::picture_format luma_format(const vqm::plane_view& a, unsigned bpc) {
  return {a.width, a.height, vqm::chroma_format::yuv400, bpc};
}

[[maybe_unused]] const bool registered = [] {
  for (const auto& r : vqm::bench::cpu_resolutions) {
    for (unsigned threads : {1u, all_threads()}) {
      const std::string t = "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark((std::string("vmaf_v0.6.1/") + r.name + t).c_str(),
                                   [r, threads](benchmark::State& s) {
                                     run_session(s, r, threads, {"version=vmaf_v0.6.1"}, {});
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark((std::string("vmaf_v0.6.1+neg/") + r.name + t).c_str(),
                                   [r, threads](benchmark::State& s) {
                                     run_session(s, r, threads, {"version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg:name=vmaf_neg"}, {});
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      if (threads != 1) continue;
      for (const char* f : {"adm", "vif", "motion"})
        benchmark::RegisterBenchmark((std::string(f) + "/" + r.name + t).c_str(),
                                     [r, f](benchmark::State& s) { run_session(s, r, 1, {}, {{f, {}}}); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    benchmark::RegisterBenchmark((std::string("reference_kernel/adm/") + r.name).c_str(), [r](benchmark::State& s) {
      run_reference(s, r, [](const vqm::plane_view& a, const vqm::plane_view& b, unsigned bpc) {
        return vqm::cpu::reference::adm(a, b, bpc, vqm::adm_algorithm(luma_format(a, bpc)).request());
      });
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("reference_kernel/vif/") + r.name).c_str(), [r](benchmark::State& s) {
      run_reference(s, r, [](const vqm::plane_view& a, const vqm::plane_view& b, unsigned bpc) {
        return vqm::cpu::reference::vif(a, b, bpc, vqm::vif_algorithm(luma_format(a, bpc)).request());
      });
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("reference_kernel/motion/") + r.name).c_str(), [r](benchmark::State& s) {
      run_reference(s, r, [](const vqm::plane_view& a, const vqm::plane_view& b, unsigned bpc) {
        return vqm::cpu::reference::motion_sad(a, b, bpc);
      });
    })->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

int main(int argc, char** argv) { return vqm::bench::main(argc, argv, "vqm_bench_vmaf"); }
