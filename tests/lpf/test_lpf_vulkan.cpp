// Vulkan backend: bit-exact to the scalar reference on the golden traces and random edges (lavapipe in CI).
#include <gtest/gtest.h>

#include <memory>

#include "lpf/lpf_test_util.hpp"
#include "vqm/lpf/trace.hpp"
#include "vqm/lpf/vulkan.hpp"

using namespace vqm::lpf;

namespace {
// One device for the whole suite, released by a test environment before main() returns: drivers (NVIDIA's)
// may already be torn down when static destructors run. Skips only when no Vulkan device exists at all.
std::unique_ptr<vulkan_backend> g_backend;
struct release_backend : ::testing::Environment {
  void TearDown() override { g_backend.reset(); }
};
const auto* const g_release = ::testing::AddGlobalTestEnvironment(new release_backend);

vulkan_backend* gpu() {
  static std::string why;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      g_backend = std::make_unique<vulkan_backend>();
    } catch (const vqm::error& e) {
      if (e.code() != vqm::errc::backend_unavailable) throw;
      why = e.what();
    }
  }
  if (!g_backend) std::fprintf(stderr, "SKIP reason: no usable Vulkan device: %s\n", why.c_str());
  return g_backend.get();
}
#define VQM_REQUIRE_GPU()                                                      \
  vulkan_backend* g = gpu();                                                   \
  if (!g) GTEST_SKIP() << "no Vulkan device (skipped, not passed)";
}  // namespace

TEST(LpfVulkan, GoldenTraces) {
  VQM_REQUIRE_GPU();
  std::printf("device: %s\n", g->device_name().c_str());
  for (const char* f : test::trace_files) {
    const auto recs = read_trace(test::trace_path(f));
    for (kind k : all_kinds) {
      trace_batch tb = layout_trace(recs, k);
      g->filter(k, plane<std::uint8_t>{tb.pixels.data(), tb.pixels.size(), tb.stride, 8}, tb.edges);
      EXPECT_EQ(test::count_mismatches(tb.pixels, tb.expected), 0u) << f << " " << name(k);
    }
  }
}

template <class Pixel>
void random_vs_reference(vulkan_backend& g, kind k, int bd) {
  SCOPED_TRACE(std::string(name(k)) + " bd " + std::to_string(bd) + (sizeof(Pixel) == 1 ? " u8" : " u16"));
  const auto batch = make_random_batch<Pixel>(k, bd, test::random_edges_per_batch, 4242);
  counters ref_c;
  const auto expected = test::reference_result(batch, &ref_c);
  for (bool count : {false, true}) {
    auto b = batch;
    counters c;
    g.filter(k, b.view(), b.edges, count ? &c : nullptr);
    EXPECT_EQ(test::count_mismatches(b.pixels, expected), 0u) << "counting " << count;
    if (count) {
      EXPECT_EQ(test::decisions_only(c), test::decisions_only(ref_c));
    }
  }
}

TEST(LpfVulkan, RandomEdges8Bit) {
  VQM_REQUIRE_GPU();
  for (kind k : all_kinds) random_vs_reference<std::uint8_t>(*g, k, 8);
}

// The line-major lane mapping (SPEC §7 coalescing hint) on a second backend sharing the first one's
// context; odd edge counts leave partial groups of 8 edges.
TEST(LpfVulkan, LineMajorMappingOnSharedContext) {
  VQM_REQUIRE_GPU();
  vulkan_backend lm(g->shared_context(), {.mapping = lane_mapping::line_major});
  EXPECT_EQ(&lm.context(), &g->context());
  for (kind k : all_kinds) random_vs_reference<std::uint8_t>(lm, k, 8);
  for (kind k : {lpf_h_4_8_kind, lpf_v_16_8_kind}) random_vs_reference<std::uint16_t>(lm, k, 10);
  for (std::size_t n : {1u, 7u, 13u}) {
    const auto batch = make_random_batch<std::uint8_t>(lpf_h_8_8_kind, 8, n, n, 5);
    const auto expected = test::reference_result(batch);
    auto b = batch;
    lm.filter(lpf_h_8_8_kind, b.view(), b.edges);
    EXPECT_EQ(test::count_mismatches(b.pixels, expected), 0u) << n;
  }
}

// The caller's device and queue: a context borrowing another context's handles (nothing is destroyed
// by the borrower; the owner outlives it).
TEST(LpfVulkan, CallersDeviceThroughImportedContext) {
  VQM_REQUIRE_GPU();
  const vqm::vulkan::context& owner = g->context();
  auto borrowed = std::make_shared<vqm::vulkan::context>(vqm::vulkan::borrowed_device{
      .instance = owner.instance(), .physical_device = owner.physical_device(), .device = owner.device(),
      .queue_family = owner.queue_family()});
  EXPECT_FALSE(borrowed->owns_device());
  {
    vulkan_backend b(borrowed);
    random_vs_reference<std::uint8_t>(b, lpf_h_4_8_kind, 8);
  }
  // The owner's backend still works after the borrower is gone.
  random_vs_reference<std::uint8_t>(*g, lpf_v_4_8_kind, 8);
}

TEST(LpfVulkan, RandomEdgesHighBitDepth) {
  VQM_REQUIRE_GPU();
  for (kind k : all_kinds)
    for (int bd : {8, 10, 12}) random_vs_reference<std::uint16_t>(*g, k, bd);
}

// Resident data: upload once, several batches, download; same as the reference applied in order.
TEST(LpfVulkan, ResidentBatches) {
  VQM_REQUIRE_GPU();
  auto b = make_random_batch<std::uint8_t>(lpf_v_16_8_kind, 8, 600, 11);
  auto ref = b;
  const std::span<const edge> all(b.edges);
  g->upload(b.view());
  for (std::size_t first = 0; first < all.size(); first += 200) {
    g->filter_resident<std::uint8_t>(lpf_v_16_8_kind, all.subspan(first, 200));
    reference::filter(lpf_v_16_8_kind, ref.view(), all.subspan(first, 200));
  }
  g->download(b.view());
  EXPECT_EQ(test::count_mismatches(b.pixels, ref.pixels), 0u);
}

TEST(LpfVulkan, ContractViolationsThrow) {
  VQM_REQUIRE_GPU();
  std::vector<std::uint8_t> buf(64 * 64, 128);
  const plane<std::uint8_t> p{buf.data(), buf.size(), 64, 8};
  const std::vector<edge> bad_e{{32 * 64 + 32, 255, 10, 1}};
  EXPECT_THROW(g->filter(lpf_h_4_8_kind, p, bad_e), vqm::error);
  const std::vector<edge> oob{{64 * 63, 20, 10, 1}};
  EXPECT_THROW(g->filter(lpf_v_4_8_kind, p, oob), vqm::error);
  const std::vector<edge> overlap{{32 * 64 + 32, 20, 10, 1}, {32 * 64 + 36, 20, 10, 1}};
  EXPECT_THROW(g->filter(lpf_h_8_8_kind, p, overlap), vqm::error);
}
