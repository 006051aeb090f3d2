// The Khronos validation layer watches every Vulkan call of all five metrics (8-bit 4:2:0 and 10-bit
// 4:2:2 odd size, frames in flight, a format change): any validation error fails the test.
#include <gtest/gtest.h>

#include "common/multi_session_check.hpp"
#include "vk_test_util.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

TEST(VulkanValidation, AllMetricsRunWithoutValidationErrors) {
  VQM_REQUIRE_VULKAN(probe);
  auto ctx = std::make_shared<vulkan::context>(vulkan::context_options{-1, true, false});
  {
    Vulkan v(ctx);
    for (const auto& [r, d] : {std::pair{"astronaut_576x324_420p8_ref.y4m", "astronaut_576x324_420p8_x264crf35.y4m"},
                               std::pair{"rocket_321x199_422p10_ref.y4m", "rocket_321x199_422p10_x264crf33.y4m"}}) {
      const auto ref = read_all(fixture(r)), dis = read_all(fixture(d));
      const auto fmt = ref.front().format();
      std::vector<any_metric<Vulkan>> m;
      m.push_back(make_metric<Vulkan>("psnr", option_map::parse("enable_mse=true"), fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("float_psnr", option_map{}, fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("float_ssim", option_map::parse("scale=2"), fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("float_ms_ssim", option_map{}, fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("psnr_hvs", option_map{}, fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("vif", option_map{}, fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("motion", option_map{}, fmt, compat::libvmaf));
      m.push_back(make_metric<Vulkan>("adm", option_map{}, fmt, compat::libvmaf));
      scorer<Vulkan> s(v, std::move(m), compat::libvmaf, v.frames_in_flight());
      std::size_t n = 0;
      for (std::size_t i = 0; i < 2; ++i) n += s.push(ref[i], dis[i]).has_value();
      while (s.pop()) ++n;
      EXPECT_EQ(n, 2u);
    }
  }
  EXPECT_EQ(ctx->validation_errors(), 0u) << [&] {
    std::string all;
    for (const auto& m : ctx->validation_messages()) all += m + "\n";
    return all;
  }();
}

// One reference against three distorted (multi_session): the reference's one upload per frame, ordered
// by a timeline semaphore or, without one, by submission order, read by every distorted's frame.
TEST(VulkanValidation, SharedReferenceUploadRunsWithoutValidationErrors) {
  VQM_REQUIRE_VULKAN(probe);
  auto ctx = std::make_shared<vulkan::context>(vulkan::context_options{-1, true, false});
  for (const auto& c : {ctx, without_timeline_semaphores(*ctx)}) {
    Vulkan v(c);
    EXPECT_GT(check_multi_equals_separate(v, multi_config(v.frames_in_flight(), 1, compat::none)), 0u);
    EXPECT_GT(check_multi_equals_separate(v, multi_config(1, 2, compat::libvmaf)), 0u);
  }
  EXPECT_EQ(ctx->validation_errors(), 0u) << [&] {
    std::string all;
    for (const auto& m : ctx->validation_messages()) all += m + "\n";
    return all;
  }();
}

// The detector itself: a deliberately invalid call (a zero-sized buffer) is counted.
TEST(VulkanValidation, MessengerCountsErrors) {
  VQM_REQUIRE_VULKAN(probe);
  vulkan::context ctx(vulkan::context_options{-1, true, false});
  ASSERT_EQ(ctx.validation_errors(), 0u);
  VkBufferCreateInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bi.size = 0;  // VUID-VkBufferCreateInfo-size-00912
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer b = VK_NULL_HANDLE;
  if (ctx.fn().vkCreateBuffer(ctx.device(), &bi, nullptr, &b) == VK_SUCCESS && b)
    ctx.fn().vkDestroyBuffer(ctx.device(), b, nullptr);
  EXPECT_GE(ctx.validation_errors(), 1u);
}

}  // namespace
}  // namespace vqm::test
