// Throughput of the VP9 loop-filter family in Medge/s (edge = one 8-line segment submitted, SPEC §8).
// Batches come from make_random_batch (SPEC §9.2 mix), 8-bit unless the name says otherwise. Every
// iteration filters the same batch in place again (the SIMD path is branch-free, so the drifting
// content does not change its speed). The contract's pairwise check is off (check_level::bounds):
// it is measured separately as BM_contract_check.
#include <benchmark/benchmark.h>

#include <atomic>
#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "vqm/lpf/cpu.hpp"
#include "vqm/lpf/detail/thread_pool.hpp"
#include "vqm/lpf/random_edges.hpp"
#ifdef VQM_LPF_BENCH_VULKAN
#include "vqm/lpf/vulkan.hpp"
#endif

using namespace vqm::lpf;

namespace {

constexpr std::size_t batch_edges = 1 << 17;  // 131072 edges, ~ two worst-case 1080p luma passes

template <class Pixel>
random_batch<Pixel>& batch(kind k, int bd) {
  static std::map<std::tuple<int, int, int, int>, std::unique_ptr<random_batch<Pixel>>> cache;
  auto& slot = cache[{int(k.dir), k.wd, bd, int(sizeof(Pixel))}];
  if (!slot) slot = std::make_unique<random_batch<Pixel>>(make_random_batch<Pixel>(k, bd, batch_edges, 2024, 256));
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

#ifdef VQM_LPF_BENCH_VULKAN
vulkan_backend* gpu() {
  static std::optional<vulkan_backend> g;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      g.emplace(vulkan_options{.checks = check_level::bounds});
    } catch (const vqm::error&) {
    }
  }
  return g ? &*g : nullptr;
}

// resident: pixels stay on the GPU, only the edge list goes up per batch. Otherwise upload + download.
void BM_vulkan(benchmark::State& s, kind k, bool resident) {
  vulkan_backend* g = gpu();
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
  s.SetLabel(g->device_name());
}

// Cpu workers and (optionally) the GPU pull chunks of one batch from a shared counter until it is
// exhausted, so each side gets as much as it can take. The GPU works on its resident copy of the plane.
void BM_concurrent(benchmark::State& s, kind k, unsigned cpu_workers, bool with_gpu) {
  vulkan_backend* g = with_gpu ? gpu() : nullptr;
  if (with_gpu && !g) {
    s.SkipWithError("no Vulkan device");
    return;
  }
  if (cpu_workers == 0 && !with_gpu) {
    s.SkipWithError("no workers");
    return;
  }
  auto& b = batch<std::uint8_t>(k, 8);
  if (g) g->upload(b.view());
  constexpr std::size_t gpu_chunk = 16384, cpu_chunk = 2048;
  const unsigned workers = cpu_workers + (with_gpu ? 1 : 0);
  detail::thread_pool pool(workers - 1);
  std::vector<std::unique_ptr<cpu_backend>> cpus;
  for (unsigned i = 0; i < cpu_workers; ++i)
    cpus.push_back(std::make_unique<cpu_backend>(cpu_options{.threads = 1, .checks = check_level::bounds}));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> gpu_edges{0};
  const std::span<const edge> all(b.edges);
  for (auto _ : s) {
    next = 0;
    pool.run(workers, [&](std::size_t w) {
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
}
#endif

std::string kname(kind k) { return std::string(name(k)); }

int register_all() {
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
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
    benchmark::RegisterBenchmark(("vulkan_resident/" + kname(k)).c_str(), BM_vulkan, k, true)->UseRealTime();
    benchmark::RegisterBenchmark(("vulkan_transfer/" + kname(k)).c_str(), BM_vulkan, k, false)->UseRealTime();
  }
  for (kind k : all_kinds) {
    const std::string nn = std::to_string(n), n1 = std::to_string(n - 1);
    benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + nn).c_str(), BM_concurrent, k, n, false)->UseRealTime();
    if (n > 1)
      benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + n1 + "+gpu").c_str(), BM_concurrent, k, n - 1, true)
          ->UseRealTime();
    benchmark::RegisterBenchmark(("concurrent/" + kname(k) + "/cpu" + nn + "+gpu").c_str(), BM_concurrent, k, n, true)
        ->UseRealTime();
  }
#endif
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
