// vqm::Vulkan beyond the numbers: errors (bad device index, missing device features, format mismatch),
// recording into the caller's command buffer, a borrowed device, frames in flight and format changes.
#include <gtest/gtest.h>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

const std::string pair_ref = "astronaut_576x324_420p8_ref.y4m";
const std::string pair_dis = "astronaut_576x324_420p8_x264crf35.y4m";

std::vector<double> run_all(auto& backend, const picture& a, const picture& b, std::size_t depth = 1) {
  using B = std::remove_reference_t<decltype(backend)>;
  std::vector<any_metric<B>> m;
  for (const char* n : {"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"})
    m.push_back(make_metric<B>(n, option_map{}, a.format()));
  scorer<B> s(backend, std::move(m), compat::none, depth);
  std::vector<double> out;
  for (int i = 0; i < 3; ++i)
    if (auto r = s.push(a, b)) out.insert(out.end(), r->values.begin(), r->values.end());
  while (auto r = s.pop()) out.insert(out.end(), r->values.begin(), r->values.end());
  return out;
}

TEST(VulkanBackend, BadDeviceIndexNamesTheProblem) {
  VQM_REQUIRE_VULKAN(ctx);
  try {
    Vulkan v(vulkan::context_options{1000, false, false});
    FAIL() << "device 1000 accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("1000"), std::string::npos) << e.what();
  }
}

TEST(VulkanBackend, MismatchedPairIsRejected) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  picture a(picture_format{64, 64, chroma_format::yuv420, 8}), b(picture_format{64, 32, chroma_format::yuv420, 8});
  try {
    (void)v.begin_frame(a, b);
    FAIL() << "a 64x64 / 64x32 pair was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::mismatch);
  }
}

// A borrowed device whose caller did not enable shaderFloat64/shaderInt64: the metrics that need them
// refuse with errc::backend_unavailable naming the feature; nothing borrowed is destroyed.
TEST(VulkanBackend, MissingDeviceFeaturesAreNamed) {
  VQM_REQUIRE_VULKAN(ctx);
  VkPhysicalDeviceFeatures2 none{};
  none.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  auto borrowed = std::make_shared<vulkan::context>(vulkan::borrowed_device{.instance = ctx->instance(),
                                                                            .physical_device = ctx->physical_device(),
                                                                            .device = ctx->device(),
                                                                            .queue_family = ctx->queue_family(),
                                                                            .enabled_features = &none});
  EXPECT_FALSE(borrowed->owns_device());
  EXPECT_FALSE(borrowed->has_float64());
  Vulkan v(borrowed);
  picture a(picture_format{64, 64, chroma_format::yuv420, 8});
  auto f = v.begin_frame(a, a);
  ssim_partials sp;
  sse_partials ep;
  try {
    v.ssim(f, ssim_request{1}, sp);
    FAIL() << "ssim accepted without shaderFloat64";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_NE(std::string(e.what()).find("shaderFloat64"), std::string::npos) << e.what();
  }
  try {
    v.sse(f, sse_request{}, ep);
    FAIL() << "psnr accepted without shaderInt64";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("shaderInt64"), std::string::npos) << e.what();
  }
}

// The same device borrowed with its real features computes what the owning context computes.
TEST(VulkanBackend, BorrowedDeviceGivesTheSameNumbers) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto a = read_all(fixture(pair_ref)).front(), b = read_all(fixture(pair_dis)).front();
  Vulkan own(ctx);
  Vulkan lent(std::make_shared<vulkan::context>(vulkan::borrowed_device{.instance = ctx->instance(),
                                                                        .physical_device = ctx->physical_device(),
                                                                        .device = ctx->device(),
                                                                        .queue_family = ctx->queue_family()}));
  EXPECT_EQ(run_all(own, a, b, own.frames_in_flight()), run_all(lent, a, b, 1));
}

// Frames in flight (scorer depth 1 vs frames_in_flight()) and the Cpu backend agree exactly.
TEST(VulkanBackend, FramesInFlightAgreeWithCpu) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto a = read_all(fixture(pair_ref)).front(), b = read_all(fixture(pair_dis)).front();
  Vulkan v(ctx);
  Cpu c;
  const auto deep = run_all(v, a, b, v.frames_in_flight());
  EXPECT_EQ(deep, run_all(v, a, b, 1));
  const auto cpu = run_all(c, a, b);
  ASSERT_EQ(deep.size(), cpu.size());
  for (std::size_t i = 0; i < cpu.size(); ++i) EXPECT_PRED2(same, deep[i], cpu[i]) << "value " << i;
}

// A stream whose format changes midway rebuilds the per-format resources and stays correct.
TEST(VulkanBackend, FormatChangeMidStream) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto a = read_all(fixture("rocket_177x99_420p8_ref.y4m")), b = read_all(fixture("rocket_177x99_420p8_noise10.y4m"));
  const auto c = read_all(fixture(pair_ref)), d = read_all(fixture(pair_dis));
  Vulkan v(ctx);
  Cpu cpu;
  for (int round = 0; round < 2; ++round)
    for (const auto* p : {&a, &c}) {
      const auto& ref = p == &a ? a : c;
      const auto& dis = p == &a ? b : d;
      for (const char* n : {"psnr", "float_ssim"}) {
        std::vector<any_metric<Vulkan>> lv;
        lv.push_back(make_metric<Vulkan>(n, option_map{}, ref[0].format()));
        std::vector<any_metric<Cpu>> lc;
        lc.push_back(make_metric<Cpu>(n, option_map{}, ref[0].format()));
        scorer<Vulkan> s1(v, std::move(lv), compat::none, 2);
        scorer<Cpu> s2(cpu, std::move(lc));
        std::vector<double> x, y;
        for (std::size_t i = 0; i < 2; ++i) {
          if (auto r = s1.push(ref[i], dis[i])) x.insert(x.end(), r->values.begin(), r->values.end());
          if (auto r = s2.push(ref[i], dis[i])) y.insert(y.end(), r->values.begin(), r->values.end());
        }
        while (auto r = s1.pop()) x.insert(x.end(), r->values.begin(), r->values.end());
        while (auto r = s2.pop()) y.insert(y.end(), r->values.begin(), r->values.end());
        EXPECT_EQ(x, y) << n << " on " << describe(ref[0].format());
      }
    }
}

// record()/collect(): the work goes into the caller's command buffer and submission.
TEST(VulkanBackend, RecordsIntoTheCallersCommandBuffer) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto a = read_all(fixture(pair_ref)).front(), b = read_all(fixture(pair_dis)).front();
  Vulkan v(ctx);
  const Psnr<Vulkan> psnr(a.format());
  const Ssim<Vulkan> ssim(a.format());
  auto f = v.begin_frame(a, b);
  sse_partials sp;
  ssim_partials ss;
  psnr.enqueue(v, f, sp);
  ssim.enqueue(v, f, ss);
  vulkan::one_shot cmd(*ctx);  // stands for the caller's own command buffer and fence
  v.record(f, cmd);
  cmd.submit_and_wait();
  v.collect(f);
  Cpu c;
  EXPECT_EQ(compute(v, psnr, a, b), compute(c, Psnr<Cpu>(a.format()), a, b));
  std::vector<double> got(4), want(4);
  psnr.scores(sp, got.data());
  EXPECT_EQ(std::vector<double>(got.begin(), got.begin() + 3), compute(c, Psnr<Cpu>(a.format()), a, b));
  ssim.scores(ss, want.data());
  EXPECT_EQ(want[0], compute(c, Ssim<Cpu>(a.format()), a, b)[0]);
}

}  // namespace
}  // namespace vqm::test
