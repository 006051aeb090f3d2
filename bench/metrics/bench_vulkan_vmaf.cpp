// VMAF on the Vulkan backend (Google Benchmark): frames per second of the vmaf_v0.6.1 model (adm + vif +
// motion on the GPU, the SVM on the host), of vmaf_float_v0.6.1 and vmaf_v1.0.16_3d0h, of each feature
// alone (float_adm, cambi, speed_chroma, float_ansnr too), and of vmaf_v0.6.1 next to the five other
// metrics in the same submit, at 1080p and 2160p 8-bit 4:2:0 from host memory (the astronaut fixture
// mirror-tiled); frames_in_flight() frames in flight.
//
//   vqm_bench_vulkan_vmaf [--fixtures DIR] [--benchmark_filter=...]   (VQM_BENCH_GPU=N picks the device)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "vqm/vulkan.hpp"

namespace {

using namespace vqm;

using vqm::bench::resolution;
constexpr resolution resolutions[] = {{"1080p", 1920, 1080}, {"2160p", 3840, 2160}};

const std::vector<bench::frame_pair>& frames(const resolution& r) { return bench::cached_frames(r, 4); }

Vulkan& backend() {
  static Vulkan v = [] {
    vulkan::context_options o;
    if (const char* g = std::getenv("VQM_BENCH_GPU")) o.device_index = std::atoi(g);
    return Vulkan(std::make_shared<vulkan::context>(o));
  }();
  return v;
}

// Frames through one session; the counter is frames per second.
// `models`: load_model specs ("version=vmaf_v0.6.1", ...).
void run(benchmark::State& state, const resolution& r, std::vector<const char*> models,
         std::vector<feature_request> features) {
  std::vector<std::string> needed;
  for (const auto& f : features) needed.push_back(f.name);
  for (const char* model : models) {
    const auto m = vmaf::load_model(model);
    for (const auto& f : m.features()) needed.push_back(f.extractor);
  }
  for (const auto& f : needed)
    if (!runs_on<Vulkan>(f)) {
      state.SkipWithError(("the Vulkan backend has no " + f + " engine in this build").c_str());
      return;
    }
  auto& v = backend();
  const auto& fr = frames(r);
  session_config cfg;
  for (const char* model : models) cfg.models.push_back(vmaf::load_model(model));
  cfg.features = std::move(features);
  cfg.depth = v.frames_in_flight();
  // One session for the whole run (as a stream): its programs are built, and a first frame run, before
  // timing starts, so the figure is the steady state; each iteration pushes `batch` frames.
  constexpr std::size_t batch = 64;
  session<Vulkan> s(v, fr.front().ref.format(), cfg);
  std::size_t next = 0;
  auto push = [&] {
    s.push(fr[next % fr.size()].ref, fr[next % fr.size()].dis);
    ++next;
  };
  for (std::size_t i = 0; i < 2 * cfg.depth; ++i) push();
  std::size_t done = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < batch; ++i) push();
    done += batch;
  }
  auto t = s.finish();  // the last depth() frames drain after the timed loop (a few of thousands)
  benchmark::DoNotOptimize(t.rows.data());
  state.counters["fps"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
  state.SetLabel(v.context().name());
}

const std::vector<feature_request> five = {{"psnr", {}}, {"float_psnr", {}}, {"float_ssim", {}}, {"float_ms_ssim", {}},
                                           {"psnr_hvs", {}}};

[[maybe_unused]] const bool registered = [] {
  for (const auto& r : resolutions) {
    const std::string res = r.name;
    benchmark::RegisterBenchmark(("vmaf_v0.6.1/" + res).c_str(), [r](benchmark::State& s) { run(s, r, {"vmaf_v0.6.1"}, {}); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    // VMAF and NEG in one run: adm's DWT and vif's filtering shared between the two gain limits
    benchmark::RegisterBenchmark(("vmaf_v0.6.1+neg/" + res).c_str(), [r](benchmark::State& s) {
      run(s, r, {"vmaf_v0.6.1", "version=vmaf_v0.6.1neg:name=vmaf_neg"}, {});
    })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("vmaf_v0.6.1+five/" + res).c_str(), [r](benchmark::State& s) { run(s, r, {"vmaf_v0.6.1"}, five); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    // libvmaf 3.2's other models: the float family and VMAF v1 (cambi and SpEED beside adm and motion)
    for (const char* m : {"vmaf_float_v0.6.1", "vmaf_v1.0.16_3d0h"})
      benchmark::RegisterBenchmark((std::string(m) + "/" + res).c_str(), [r, m](benchmark::State& s) { run(s, r, {m}, {}); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    for (const char* f : {"adm", "vif", "motion", "float_adm", "cambi", "speed_chroma", "float_ansnr"})
      benchmark::RegisterBenchmark((std::string(f) + "/" + res).c_str(),
                                   [r, f](benchmark::State& s) { run(s, r, {}, {{f, {}}}); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

int main(int argc, char** argv) { return bench::main(argc, argv, "vqm_bench_vulkan_vmaf"); }
