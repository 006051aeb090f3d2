// Vulkan backend throughput (Google Benchmark): 1080p 8-bit 4:2:0 frames from host memory (the astronaut
// fixture mirror-tiled), fps per metric and all five together (counter "fps"), the host->device upload
// alone (per number of host copy threads, on vqm's pool or a caller's executor), the host copies alone
// (copy_pool into ordinary memory) and the host memcpy bound, and start-up to the first frame with a
// cold and a warm pipeline cache, split into its phases (counters, ms; teardown reported, not counted).
//
//   vqm_bench_vulkan [--fixtures DIR] [--benchmark_filter=...]    (upload path: --benchmark_filter='upload|copy|memcpy')    (VQM_BENCH_GPU=N picks the device, default: best)
//   VQM_VULKAN_PROFILE=1: per-stage GPU times on stderr (serialises frames: not for fps).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <filesystem>
#include <string>
#include <vector>

#include "frames.hpp"
#include "vqm/thread_pool.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"

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

const std::shared_ptr<vulkan::context>& shared_context() {
  static const auto ctx = std::make_shared<vulkan::context>(bench_options());
  return ctx;
}

Vulkan& backend() {
  static Vulkan v(shared_context());
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
// libvmaf's float features (issue #19).
void BM_float_motion(benchmark::State& s) { run_stream(s, {"float_motion"}); }
void BM_float_vif(benchmark::State& s) { run_stream(s, {"float_vif"}); }
void BM_float_moment(benchmark::State& s) { run_stream(s, {"float_moment"}); }
void BM_ciede(benchmark::State& s) { run_stream(s, {"ciede"}); }
// SpEED (issue #18): GPU band-pass + covariance sums, host solver in decode.
void BM_speed_chroma(benchmark::State& s) { run_stream(s, {"speed_chroma"}); }
void BM_speed_temporal(benchmark::State& s) { run_stream(s, {"speed_temporal"}); }

// Host memcpy into the upload buffers (state.range(0) copy threads) + the device copy of all three planes
// of both pictures, no kernel.
void upload_only(benchmark::State& state, Vulkan& v) {
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
void BM_upload_only(benchmark::State& state) {
  ::setenv("VQM_VULKAN_COPY_THREADS", std::to_string(state.range(0)).c_str(), 1);
  Vulkan v(shared_context());
  ::unsetenv("VQM_VULKAN_COPY_THREADS");
  upload_only(state, v);
}
// The same on a caller's executor (context_options::pool): a vqm::thread_pool of range(0) − 1 threads
// shared with nothing, on the benchmark context's device.
void BM_upload_only_callers_pool(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  vqm::thread_pool pool(threads - 1);
  vulkan::context_options o = bench_options();
  o.pool = &pool;
  const auto& c = *shared_context();
  ::setenv("VQM_VULKAN_COPY_THREADS", std::to_string(threads).c_str(), 1);
  Vulkan v(std::make_shared<vulkan::context>(
      vulkan::borrowed_device{.instance = c.instance(), .physical_device = c.physical_device(), .device = c.device(),
                              .queue_family = c.queue_family()},
      o));
  ::unsetenv("VQM_VULKAN_COPY_THREADS");
  upload_only(state, v);
}

// The host copies alone (vulkan::detail::copy_pool, range(0) threads) of a pair into ordinary host memory.
void BM_copy_pool(benchmark::State& state) {
  const auto& frames = frames_1080p();
  const std::size_t n = frames.front().ref.bytes().size();
  std::vector<std::byte> dst(2 * n);
  vulkan::detail::copy_pool pool(static_cast<unsigned>(state.range(0)));
  std::vector<vulkan::detail::copy_pool::piece> pieces(2);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = frames[i++ % frames.size()];
    pieces[0] = {dst.data(), p.ref.bytes().data(), n};
    pieces[1] = {dst.data() + n, p.dis.bytes().data(), n};
    pool.run(pieces);
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(2.0 * static_cast<double>(n) * static_cast<double>(state.iterations())));
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The host side alone: one thread's memcpy of a pair into ordinary (cached) host memory.
void BM_host_memcpy(benchmark::State& state) {
  const auto& frames = frames_1080p();
  const std::size_t n = frames.front().ref.bytes().size();
  std::vector<std::byte> dst(2 * n);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = frames[i++ % frames.size()];
    std::memcpy(dst.data(), p.ref.bytes().data(), n);
    std::memcpy(dst.data() + n, p.dis.bytes().data(), n);
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(2.0 * static_cast<double>(n) * static_cast<double>(state.iterations())));
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Context + backend creation and one 1080p frame of all five metrics, with the pipeline cache in a
// fresh directory (cold) or one a previous run populated (warm). The time is creation + first frame;
// the counters split it (ms): the driver's instance / device creation, the rest of the context, the
// backend, the first frame's recording (per-format resources and pipelines) and its GPU work + wait;
// teardown (device wait, pipeline-cache save, destruction) is reported but not counted.
void startup(benchmark::State& state, bool warm) {
  namespace fs = std::filesystem;
  using clock = std::chrono::steady_clock;
  const fs::path dir = fs::temp_directory_path() / (std::string("vqm-bench-pcache-") + (warm ? "warm" : "cold"));
  const auto& p = frames_1080p().front();
  const std::vector<std::string> all = {"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"};
  double t_inst = 0, t_dev = 0, t_ctx = 0, t_backend = 0, t_push = 0, t_pop = 0, t_down = 0;
  auto ms = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  auto one_frame = [&](bool timed) {
    const auto t0 = clock::now();
    auto ctx = std::make_shared<vulkan::context>(bench_options());
    const auto t1 = clock::now();
    auto v = std::make_unique<Vulkan>(ctx);
    auto m = metrics(all);
    auto s = std::make_unique<scorer<Vulkan>>(*v, std::move(m));
    const auto t2 = clock::now();
    s->push(p.ref, p.dis);
    const auto t3 = clock::now();
    auto r = s->pop();
    benchmark::DoNotOptimize(r);
    const auto t4 = clock::now();
    if (timed) {
      state.PauseTiming();
      t_inst += ctx->timings().instance;
      t_dev += ctx->timings().device;
    }
    s.reset();
    v.reset();
    ctx.reset();
    const auto t5 = clock::now();
    if (timed) {
      t_ctx += ms(t0, t1);
      t_backend += ms(t1, t2);
      t_push += ms(t2, t3);
      t_pop += ms(t3, t4);
      t_down += ms(t4, t5);
      state.ResumeTiming();
    }
  };
  ::setenv("VQM_VULKAN_PIPELINE_CACHE", dir.c_str(), 1);
  if (warm) {
    fs::remove_all(dir);
    one_frame(false);  // populate
  }
  for (auto _ : state) {
    if (!warm) {
      state.PauseTiming();
      fs::remove_all(dir);
      state.ResumeTiming();
    }
    one_frame(true);
  }
  ::unsetenv("VQM_VULKAN_PIPELINE_CACHE");
  fs::remove_all(dir);
  const double n = static_cast<double>(state.iterations());
  state.counters["ctx_ms"] = t_ctx / n;
  state.counters["drv_instance_ms"] = t_inst / n;
  state.counters["drv_device_ms"] = t_dev / n;
  state.counters["backend_ms"] = t_backend / n;
  state.counters["record_ms"] = t_push / n;
  state.counters["gpu_wait_ms"] = t_pop / n;
  state.counters["teardown_ms"] = t_down / n;
}
void BM_startup_cold_cache(benchmark::State& s) { startup(s, false); }
void BM_startup_warm_cache(benchmark::State& s) { startup(s, true); }

BENCHMARK(BM_psnr)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_psnr)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_ssim)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_ms_ssim)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_psnr_hvs)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_all_five)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_motion)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_vif)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_float_moment)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ciede)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_speed_chroma)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_speed_temporal)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_upload_only)->UseRealTime()->Unit(benchmark::kMicrosecond)->Arg(1)->Arg(2)->Arg(4)->Arg(8);
BENCHMARK(BM_upload_only_callers_pool)->UseRealTime()->Unit(benchmark::kMicrosecond)->Arg(4);
BENCHMARK(BM_copy_pool)->UseRealTime()->Unit(benchmark::kMicrosecond)->Arg(1)->Arg(2)->Arg(4)->Arg(8);
BENCHMARK(BM_host_memcpy)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_startup_cold_cache)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_startup_warm_cache)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

int main(int argc, char** argv) {
  return vqm::bench::main(argc, argv, "vqm_bench_vulkan",
                          "  VQM_BENCH_GPU=N       device index (vqm --list-gpu; default: the best device)\n"
                          "  VQM_VULKAN_PROFILE=1  per-stage GPU times on stderr (serialises frames: not for fps)\n");
}
