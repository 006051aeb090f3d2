// Cpu backend: every instruction set and thread count is bit-exact to the scalar reference, on its own
// pool or the caller's executor.
#include <gtest/gtest.h>

#include "common/counting_executor.hpp"
#include "lpf/lpf_test_util.hpp"
#include "vqm/lpf/cpu.hpp"
#include "vqm/lpf/kernels.hpp"
#include "vqm/lpf/trace.hpp"

using namespace vqm::lpf;

namespace {
std::vector<cpu_isa> isas() {
  std::vector<cpu_isa> v;
  for (cpu_isa i : {cpu_isa::scalar, cpu_isa::sse2, cpu_isa::avx2})
    if (cpu_backend::supports(i)) v.push_back(i);
  return v;
}
}  // namespace

TEST(LpfCpu, GoldenTracesEveryIsaAndThreadCount) {
  for (const char* f : test::trace_files) {
    const auto recs = read_trace(test::trace_path(f));
    for (cpu_isa isa : isas())
      for (unsigned t : {1u, 2u, 3u}) {
        cpu_backend b({.threads = t, .isa = isa, .min_edges_per_thread = 64});
        for (kind k : all_kinds) {
          trace_batch tb = layout_trace(recs, k);
          b.filter(k, plane<std::uint8_t>{tb.pixels.data(), tb.pixels.size(), tb.stride, 8}, tb.edges);
          EXPECT_EQ(test::count_mismatches(tb.pixels, tb.expected), 0u)
              << f << " " << name(k) << " " << name(isa) << " threads " << t;
        }
      }
  }
}

template <class Pixel>
void random_vs_reference(kind k, int bd) {
  SCOPED_TRACE(std::string(name(k)) + " bd " + std::to_string(bd) + (sizeof(Pixel) == 1 ? " u8" : " u16"));
  const auto batch = make_random_batch<Pixel>(k, bd, test::random_edges_per_batch, 99);
  counters ref_c;
  const auto expected = test::reference_result(batch, &ref_c);
  for (cpu_isa isa : isas())
    for (unsigned t : {1u, 2u, 5u}) {
      auto b = batch;
      counters c;
      cpu_backend cpu({.threads = t, .isa = isa, .min_edges_per_thread = 100});
      cpu.filter(k, b.view(), b.edges, &c);
      EXPECT_EQ(test::count_mismatches(b.pixels, expected), 0u) << name(isa) << " threads " << t;
      if (isa == cpu_isa::scalar) EXPECT_EQ(c, ref_c);
      else EXPECT_EQ(test::decisions_only(c), test::decisions_only(ref_c)) << name(isa);
    }
}

TEST(LpfCpu, RandomEdges8Bit) {
  for (kind k : all_kinds) random_vs_reference<std::uint8_t>(k, 8);
}
TEST(LpfCpu, RandomEdgesHighBitDepth) {
  for (kind k : all_kinds)
    for (int bd : {8, 10, 12}) random_vs_reference<std::uint16_t>(k, bd);
}

// Edge counts that are not a multiple of the SIMD group (4 / 2 edges for the 8-bit wd4 path, 2 for the
// int16 AVX2 path) exercise every tail; edges closer than 12 px to the start of the buffer take the h
// path's 8-byte loads.
TEST(LpfCpu, OddBatchSizes) {
  for (kind k : {lpf_h_4_8_kind, lpf_v_4_8_kind, lpf_h_16_8_kind})
    for (std::size_t n : {1u, 2u, 3u, 5u, 6u, 7u, 17u}) {
      const auto batch = make_random_batch<std::uint8_t>(k, 8, n, n, 5);
      counters ref_c;
      const auto expected = test::reference_result(batch, &ref_c);
      for (cpu_isa isa : isas()) {
        auto b = batch;
        counters c;
        cpu_backend cpu({.threads = 1, .isa = isa});
        cpu.filter(k, b.view(), b.edges, &c);
        EXPECT_EQ(test::count_mismatches(b.pixels, expected), 0u) << name(k) << " " << name(isa) << " n " << n;
        EXPECT_EQ(test::decisions_only(c), test::decisions_only(ref_c)) << name(k) << " " << name(isa) << " n " << n;
      }
    }
}

TEST(LpfCpu, NamedKernelsAndCounters) {
  auto b = make_random_batch<std::uint8_t>(lpf_v_8_8_kind, 8, 1000, 3);
  cpu_backend cpu;
  counters c;
  lpf_v_8_8(cpu, b.view(), b.edges, &c);
  EXPECT_EQ(c.lines, 8000u);
  EXPECT_GT(c.fm_rate(), 0.0);
  EXPECT_LE(c.fm_rate(), 1.0);
  EXPECT_GT(c.hev_rate(), 0.0);
  EXPECT_GT(c.flat8_rate(), 0.0);
  EXPECT_EQ(c.flat16_fm, 0u);
}

TEST(LpfCpu, CallersExecutorGivesTheReferenceResult) {
  const kind k = lpf_h_8_8_kind;
  const auto batch = make_random_batch<std::uint16_t>(k, 10, test::random_edges_per_batch, 7);
  counters ref_c;
  const auto expected = test::reference_result(batch, &ref_c);
  vqm::test::counting_executor ex(2);
  for (cpu_isa isa : isas()) {
    auto b = batch;
    counters c;
    cpu_backend cpu({.threads = 7, .isa = isa, .min_edges_per_thread = 100, .pool = &ex});
    EXPECT_EQ(cpu.threads(), 3u) << "the executor's 2 threads and the caller; threads = 7 is ignored";
    const int before = ex.posted();
    cpu.filter(k, b.view(), b.edges, &c);
    EXPECT_EQ(test::count_mismatches(b.pixels, expected), 0u) << name(isa);
    EXPECT_EQ(test::decisions_only(c), test::decisions_only(ref_c)) << name(isa);
    EXPECT_EQ(ex.posted() - before, 2) << "one helper per executor thread";
  }
}
