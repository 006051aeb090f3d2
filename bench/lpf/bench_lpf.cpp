// Throughput of the VP9 loop-filter family in Medge/s (edge = one 8-line segment submitted, SPEC §8).
// Batches come from make_random_batch (SPEC §9.2 mix), 8-bit unless the name says otherwise. Every
// iteration filters the same batch in place again (the SIMD path is branch-free, so the drifting
// content does not change its speed). The contract's pairwise check is off (check_level::bounds):
// it is measured separately as BM_contract_check.
//
// GPU rows: vulkan_resident/<kernel>/<edge_major|line_major> (lane mapping, SPEC §7), vulkan_transfer
// (upload + filter + download). concurrent/<kernel>/cpuN[+gpu/<mapping>]: N single-thread Cpu workers
// (and one thread driving the GPU) pull chunks of one batch of 131072 * max(1, cores / 2) edges; N is
// hardware_concurrency() (override: VQM_LPF_BENCH_CORES), rows for N cores, N - 1 cores + GPU, N + GPU.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "vqm/lpf/cpu.hpp"
#include "vqm/thread_pool.hpp"
#include "vqm/lpf/random_edges.hpp"
#ifdef VQM_LPF_BENCH_VULKAN
#include "vqm/lpf/vulkan.hpp"
#endif

using namespace vqm::lpf;

namespace {

constexpr std::size_t batch_edges = 1 << 17;  // 131072 edges, ~ two worst-case 1080p luma passes

// Cores the concurrent matrix and cpu_all use: hardware_concurrency(), or $VQM_LPF_BENCH_CORES (to try the
// 16-core matrix of the GPU machine elsewhere).
unsigned bench_cores() {
  if (const char* v = std::getenv("VQM_LPF_BENCH_CORES"); v && std::atoi(v) > 0) return unsigned(std::atoi(v));
  return std::max(1u, std::thread::hardware_concurrency());
}

// `scale` batches' worth of edges in one plane (the concurrent matrix keeps many cores busy per iteration).
template <class Pixel>
random_batch<Pixel>& batch(kind k, int bd, std::size_t scale = 1) {
  static std::map<std::tuple<int, int, int, int, std::size_t>, std::unique_ptr<random_batch<Pixel>>> cache;
  auto& slot = cache[{int(k.dir), k.wd, bd, int(sizeof(Pixel)), scale}];
  if (!slot)
    slot = std::make_unique<random_batch<Pixel>>(make_random_batch<Pixel>(k, bd, batch_edges * scale, 2024, 256));
  return *slot;
}

void set_rate(benchmark::State& s, std::size_t edges_per_iter) {
  s.counters["Medge/s"] = benchmark::Counter(double(edges_per_iter) * double(s.iterations()) / 1e6,
                                             benchmark::Counter::kIsRate);
}

template <class Pixel>
void BM_cpu(benchmark::State& s, kind k, int bd, cpu_isa isa, unsigned threads) {
  if (!cpu_backend::supports(isa)) {
    s.SkipWithError("instruction set not available on this CPU");
    return;
  }
  auto& b = batch<Pixel>(k, bd);
  cpu_backend cpu({.threads = threads, .isa = isa, .checks = check_level::bounds});
  for (auto _ : s) {
    cpu.filter(k, b.view(), b.edges);
    benchmark::ClobberMemory();
  }
  set_rate(s, b.edges.size());
  s.counters["threads"] = cpu.threads();
}

void BM_contract_check(benchmark::State& s, kind k) {
  auto& b = batch<std::uint8_t>(k, 8);
  for (auto _ : s) check_contract(k, b.view(), b.edges, check_level::full);
  set_rate(s, b.edges.size());
}

// Batches per concurrent iteration: one per 2 cores.
std::size_t concurrent_scale() { return std::max(1u, bench_cores() / 2); }

#ifdef VQM_LPF_BENCH_VULKAN
// One backend per lane mapping, both on one context; released at the end of main() (drivers may be
// torn down before static destructors run).
std::optional<vulkan_backend> g[2];
vulkan_backend* gpu(lane_mapping m = lane_mapping::edge_major) {
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      g[0].emplace(vulkan_options{.checks = check_level::bounds, .mapping = lane_mapping::edge_major});
      g[1].emplace(g[0]->shared_context(), vulkan_options{.checks = check_level::bounds, .mapping = lane_mapping::line_major});
    } catch (const vqm::error&) {
      g[0].reset();
      g[1].reset();
    }
  }
  auto& b = g[m == lane_mapping::line_major];
  return b ? &*b : nullptr;
}

// resident: pixels stay on the GPU, only the edge list goes up per batch. Otherwise upload + download.
void BM_vulkan(benchmark::State& s, kind k, bool resident, lane_mapping m) {
  vulkan_backend* g = gpu(m);
  if (!g) {
    s.SkipWithError("no Vulkan device");
    return;
  }
  auto& b = batch<std::uint8_t>(k, 8);
  if (resident) g->upload(b.view());
  for (auto _ : s) {
    if (resident) g->filter_resident<std::uint8_t>(k, b.edges);
    else g->filter(k, b.view(), b.edges);
  }
  set_rate(s, b.edges.size());
  s.SetLabel(g->device_name() + ", " + name(m));
}

// Cpu workers and (optionally) the GPU pull chunks of one batch from a shared counter until it is
// exhausted, so each side gets as much as it can take. The GPU works on its resident copy of the plane.
void BM_concurrent(benchmark::State& s, kind k, unsigned cpu_workers, bool with_gpu,
                   lane_mapping m) {
  vulkan_backend* g = with_gpu ? gpu(m) : nullptr;
  if (with_gpu && !g) {
    s.SkipWithError("no Vulkan device");
    return;
  }
  if (cpu_workers == 0 && !with_gpu) {
    s.SkipWithError("no workers");
    return;
  }
  // Enough edges that a 16-core iteration is not dominated by waking the workers.
  auto& b = batch<std::uint8_t>(k, 8, concurrent_scale());
  if (g) g->upload(b.view());
  constexpr std::size_t gpu_chunk = 32768, cpu_chunk = 2048;
  const unsigned workers = cpu_workers + (with_gpu ? 1 : 0);
  vqm::thread_pool pool(workers - 1, vqm::thread_start::as_many_as_possible);
  std::vector<std::unique_ptr<cpu_backend>> cpus;
  for (unsigned i = 0; i < cpu_workers; ++i)
    cpus.push_back(std::make_unique<cpu_backend>(cpu_options{.threads = 1, .checks = check_level::bounds}));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> gpu_edges{0};
  const std::span<const edge> all(b.edges);
  for (auto _ : s) {
    next = 0;
    vqm::parallel_for(&pool, workers, workers, [&](std::size_t w) {
      const bool is_gpu = with_gpu && w == cpu_workers;
      const std::size_t chunk = is_gpu ? gpu_chunk : cpu_chunk;
      for (std::size_t first; (first = next.fetch_add(chunk)) < all.size();) {
        const auto part = all.subspan(first, std::min(chunk, all.size() - first));
        if (is_gpu) {
          g->filter_resident<std::uint8_t>(k, part);
          gpu_edges += part.size();
        } else {
          cpus[w]->filter(k, b.view(), part);
        }
      }
    });
  }
  set_rate(s, b.edges.size());
  s.counters["gpu_share"] = double(gpu_edges.load()) / double(b.edges.size() * s.iterations());
  s.counters["cpu_workers"] = cpu_workers;
}
#endif

std::string kname(kind k) { return std::string(name(k)); }

int register_all() {
  const unsigned n = bench_cores();
  for (kind k : all_kinds) {
    for (cpu_isa isa : {cpu_isa::scalar, cpu_isa::sse2, cpu_isa::avx2})
      benchmark::RegisterBenchmark(("cpu_1t/" + kname(k) + "/" + name(isa)).c_str(), BM_cpu<std::uint8_t>, k, 8, isa, 1u)
          ->UseRealTime();
    benchmark::RegisterBenchmark(("cpu_all/" + kname(k) + "/best").c_str(), BM_cpu<std::uint8_t>, k, 8, cpu_isa::best, n)
        ->UseRealTime();
  }
  for (kind k : {lpf_h_4_8_kind, lpf_v_16_8_kind})
    for (int bd : {10, 12})
      benchmark::RegisterBenchmark(("cpu_1t/" + kname(k) + "/best/bd" + std::to_string(bd)).c_str(), BM_cpu<std::uint16_t>,
                                   k, bd, cpu_isa::best, 1u)
          ->UseRealTime();
  for (kind k : {lpf_h_4_8_kind, lpf_v_4_8_kind, lpf_h_16_8_kind})
    benchmark::RegisterBenchmark(("contract_check/" + kname(k)).c_str(), BM_contract_check, k)->UseRealTime();
#ifdef VQM_LPF_BENCH_VULKAN
  for (kind k : all_kinds) {
    for (lane_mapping m : {lane_mapping::edge_major, lane_mapping::line_major})
      benchmark::RegisterBenchmark(("vulkan_resident/" + kname(k) + "/" + name(m)).c_str(), BM_vulkan, k, true, m)
          ->UseRealTime();
    benchmark::RegisterBenchmark(("vulkan_transfer/" + kname(k)).c_str(), BM_vulkan, k, false, lane_mapping::edge_major)
        ->UseRealTime();
  }
  for (kind k : all_kinds) {
    const std::string nn = std::to_string(n), n1 = std::to_string(n - 1);
    benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + nn).c_str(), BM_concurrent, k, n, false,
                                 lane_mapping::edge_major)
        ->UseRealTime();
    // GPU rows with each lane mapping for h (where it changes the access pattern), edge-major for v.
    std::vector<lane_mapping> maps{lane_mapping::edge_major};
    if (k.dir == direction::h) maps.push_back(lane_mapping::line_major);
    for (lane_mapping m : maps) {
      const std::string suffix = std::string("+gpu/") + name(m);
      if (n > 1)
        benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + n1 + suffix).c_str(), BM_concurrent, k, n - 1,
                                     true, m)
            ->UseRealTime();
      benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + nn + suffix).c_str(), BM_concurrent, k, n, true, m)
          ->UseRealTime();
    }
  }
#endif
  return 0;
}
const int registered = register_all();

// --help: what this program reads (nothing: the batches are generated) and its environment, then Google
// Benchmark's own flags.
void print_help() {
  std::printf(
      "usage: vqm_bench_lpf [Google Benchmark flags]\n\n"
      "Needs no input file: the edge batches are generated (SPEC-vp9-loopfilter section 9.2, fixed seed).\n"
      "  VQM_LPF_BENCH_CORES=N  cores for the concurrent matrix and cpu_all (default: hardware_concurrency)\n\n");
  benchmark::PrintDefaultHelp();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
#ifdef VQM_LPF_BENCH_VULKAN
  g[1].reset();
  g[0].reset();
#endif
  return 0;
}
