// The host copies of a frame's planes (vulkan/detail/copy_pool.hpp): every byte lands, split over vqm's
// pool or the caller's executor (vulkan::context_options::pool), and a backend copying on the caller's
// executor gives the same numbers as one on its own pool.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "common/counting_executor.hpp"
#include "cpu/synthetic.hpp"
#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

using vulkan::detail::copy_pool;

// Sources of the given sizes filled with random bytes, destinations zeroed; the pieces between them.
struct buffers {
  std::vector<std::vector<std::byte>> src, dst;
  std::vector<copy_pool::piece> pieces;

  explicit buffers(const std::vector<std::size_t>& sizes) {
    std::mt19937 rng(static_cast<unsigned>(sizes.size()));
    for (std::size_t n : sizes) {
      src.emplace_back(n);
      for (auto& b : src.back()) b = static_cast<std::byte>(rng());
      dst.emplace_back(n, std::byte{0});
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) pieces.push_back({dst[i].data(), src[i].data(), sizes[i]});
  }
  [[nodiscard]] bool copied() const { return src == dst; }
};

TEST(CopyPool, SmallAndLargeCopiesOnItsOwnPool) {
  copy_pool pool(3);
  EXPECT_EQ(pool.threads(), 3u);
  // Below 1 MiB: one memcpy loop; above: pieces cut into chunks, a 1-byte piece and odd sizes included.
  for (const auto& sizes : std::vector<std::vector<std::size_t>>{
           {100, 0, 5000}, {3 << 20}, {1, (1 << 20) + 4097, 777777, 65536, 3}, std::vector<std::size_t>(500, 4099)}) {
    buffers b(sizes);
    pool.run(b.pieces);
    EXPECT_TRUE(b.copied()) << sizes.size() << " pieces";
  }
}

TEST(CopyPool, OnTheCallersExecutor) {
  counting_executor ex(2);
  copy_pool pool(&ex, 8);
  EXPECT_EQ(pool.threads(), 3u) << "the executor's 2 threads and the caller";
  buffers small({1000, 2000});
  pool.run(small.pieces);
  EXPECT_TRUE(small.copied());
  EXPECT_EQ(ex.posted(), 0) << "small copies stay on the caller";
  for (int round = 0; round < 20; ++round) {
    buffers b({(2 << 20) + 12345, 999999});
    pool.run(b.pieces);
    ASSERT_TRUE(b.copied()) << "round " << round;
  }
  EXPECT_EQ(ex.posted(), 40) << "2 helpers per large copy";
  EXPECT_EQ(copy_pool(&ex, 2).threads(), 2u);
  EXPECT_EQ(copy_pool(nullptr, 2).threads(), 2u);
}

std::vector<double> psnr_stream(Vulkan& v, const std::vector<picture>& refs, const std::vector<picture>& dists) {
  std::vector<any_metric<Vulkan>> m;
  m.push_back(make_metric<Vulkan>("psnr", option_map{}, refs.front().format()));
  m.push_back(make_metric<Vulkan>("float_psnr", option_map{}, refs.front().format()));
  scorer<Vulkan> s(v, std::move(m), compat::none, v.frames_in_flight());
  std::vector<double> out;
  auto take = [&](const frame_result& r) { out.insert(out.end(), r.values.begin(), r.values.end()); };
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (auto r = s.push(refs[i], dists[i])) take(*r);
  while (auto r = s.pop()) take(*r);
  return out;
}

TEST(VulkanCopies, CallersExecutorGivesTheSameNumbers) {
  VQM_REQUIRE_VULKAN(ctx);
  // 1024x576 4:2:0: 1.7 MB a pair, above the size the copies are split from.
  const picture_format f{1024, 576, chroma_format::yuv420, 8};
  std::vector<picture> refs, dists;
  for (std::uint32_t i = 0; i < 4; ++i) {
    refs.push_back(synthetic_picture(f, i, false));
    dists.push_back(synthetic_picture(f, i, true));
  }
  const char* env = std::getenv("VQM_VULKAN_COPY_THREADS");
  if (env && std::atoi(env) == 1) GTEST_SKIP() << "VQM_VULKAN_COPY_THREADS=1: no copy is split";
  counting_executor ex(3);
  vulkan::context_options o;
  o.pool = &ex;
  const vulkan::borrowed_device lent{.instance = ctx->instance(), .physical_device = ctx->physical_device(),
                                     .device = ctx->device(), .queue_family = ctx->queue_family()};
  std::vector<double> theirs;
  {
    Vulkan v(std::make_shared<vulkan::context>(lent, o));
    theirs = psnr_stream(v, refs, dists);
  }
  Vulkan own(ctx);
  const auto mine = psnr_stream(own, refs, dists);
  ASSERT_EQ(mine.size(), 4u * 4u) << "4 frames of psnr_y/cb/cr and float_psnr";
  EXPECT_EQ(theirs, mine);
  EXPECT_GT(mine.front(), 0.0);
  if (copy_pool::default_threads() > 1) {
    EXPECT_GE(ex.posted(), 4) << "at least one helper per frame";
  }
  ex.drain();
  EXPECT_EQ(ex.ran(), ex.posted());
}

}  // namespace
}  // namespace vqm::test
