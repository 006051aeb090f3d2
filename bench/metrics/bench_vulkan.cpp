// Vulkan backend throughput (Google Benchmark): 1080p 8-bit 4:2:0 frames from host memory (the astronaut
// fixture mirror-tiled), fps per metric and all five together (counter "fps"), the host->device upload
// alone, and start-up to the first frame with a cold and a warm pipeline cache.
//
//   vqm_bench_vulkan [--benchmark_filter=...]    (VQM_BENCH_GPU=N picks the device, default: best)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/vulkan.hpp"

namespace {

using namespace vqm;

constexpr std::uint32_t bench_w = 1920, bench_h = 1080;
constexpr std::size_t pool_frames = 4;  // distinct pairs cycled through, so no cache holds a whole stream

const std::vector<bench::frame_pair>& frames_1080p() {
  static const std::vector<bench::frame_pair> frames = [] {
    std::vector<bench::frame_pair> out;
    for (auto& p : bench::load_pair(bench::fixture_path(bench::bench_ref), bench::fixture_path(bench::bench_dis), pool_frames))
      out.push_back({bench::mirror_tile(p.ref, bench_w, bench_h), bench::mirror_tile(p.dis, bench_w, bench_h)});
    return out;
  }();
  return frames;
}

vulkan::context_options bench_options() {
  vulkan::context_options o;
  if (const char* g = std::getenv("VQM_BENCH_GPU")) o.device_index = std::atoi(g);
  return o;
}

Vulkan& backend() {
  static Vulkan v(bench_options());
  return v;
}

// The metrics by libvmaf name, with default options (float_ssim at 1080p decimates by 4).
std::vector<any_metric<Vulkan>> metrics(const std::vector<std::string>& names) {
  std::vector<any_metric<Vulkan>> m;
  const auto fmt = frames_1080p().front().ref.format();
  for (const auto& n : names) m.push_back(make_metric<Vulkan>(n, option_map{}, fmt));
  return m;
}

void run_stream(benchmark::State& state, const std::vector<std::string>& names) {
  auto& v = backend();
  const auto& frames = frames_1080p();
  scorer<Vulkan> s(v, metrics(names), compat::none, v.frames_in_flight());
  for (std::size_t i = 0; i < 2 * v.frames_in_flight(); ++i) s.push(frames[i % frames.size()].ref, frames[i % frames.size()].dis);
  while (s.pop()) {
  }
  std::size_t i = 0, n = 0;
  for (auto _ : state) {
    const auto& f = frames[i++ % frames.size()];
    if (auto r = s.push(f.ref, f.dis)) {
      benchmark::DoNotOptimize(r->values.data());
      ++n;
    }
  }
  while (s.pop()) ++n;
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(v.context().name());
}

void BM_psnr(benchmark::State& s) { run_stream(s, {"psnr"}); }
void BM_float_psnr(benchmark::State& s) { run_stream(s, {"float_psnr"}); }
void BM_float_ssim(benchmark::State& s) { run_stream(s, {"float_ssim"}); }
void BM_float_ms_ssim(benchmark::State& s) { run_stream(s, {"float_ms_ssim"}); }
void BM_psnr_hvs(benchmark::State& s) { run_stream(s, {"psnr_hvs"}); }
void BM_all_five(benchmark::State& s) { run_stream(s, {"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"}); }

// Host memcpy into the upload buffers + the device copy of all three planes of both pictures, no kernel.
void BM_upload_only(benchmark::State& state) {
  auto& v = backend();
  const auto& frames = frames_1080p();
  std::vector<Vulkan::frame> ring(v.frames_in_flight() + 1);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i % ring.size();
    if (i >= ring.size()) v.wait(ring[k]);
    const auto& p = frames[i % frames.size()];
    ring[k] = v.begin_frame(p.ref, p.dis);
    v.upload_only(ring[k], 3);
    v.submit(ring[k]);
    ++i;
  }
  for (auto& f : ring) v.wait(f);
  const double bytes = 2.0 * static_cast<double>(frames.front().ref.bytes().size());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes * static_cast<double>(state.iterations())));
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Context + backend creation and one 1080p frame of all five metrics, with the pipeline cache in a
// fresh directory (cold) or one a previous run populated (warm).
void startup(benchmark::State& state, bool warm) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / (std::string("vqm-bench-pcache-") + (warm ? "warm" : "cold"));
  const auto& p = frames_1080p().front();
  auto one_frame = [&] {
    Vulkan v(bench_options());
    auto m = metrics({"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"});
    scorer<Vulkan> s(v, std::move(m));
    s.push(p.ref, p.dis);
    auto r = s.pop();
    benchmark::DoNotOptimize(r);
  };
  ::setenv("VQM_VULKAN_PIPELINE_CACHE", dir.c_str(), 1);
  if (warm) {
    fs::remove_all(dir);
    one_frame();  // populate
  }
  for (auto _ : state) {
    if (!warm) {
      state.PauseTiming();
      fs::remove_all(dir);
      state.ResumeTiming();
    }
    one_frame();
  }
  ::unsetenv("VQM_VULKAN_PIPELINE_CACHE");
  fs::remove_all(dir);
}
void BM_startup_cold_cache(benchmark::State& s) { startup(s, false); }
void BM_startup_warm_cache(benchmark::State& s) { startup(s, true); }

BENCHMARK(BM_psnr)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_psnr)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_ssim)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_ms_ssim)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_psnr_hvs)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_all_five)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_upload_only)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_startup_cold_cache)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_startup_warm_cache)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
