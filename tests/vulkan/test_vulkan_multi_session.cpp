// multi_session on the Vulkan backend: three distorted streams in one pass against one reference, all on
// one backend (its slots shared), equal three separate sessions, every value (VMAF + psnr + float_ssim).
#include <gtest/gtest.h>

#include <cstdio>

#include "common/multi_session_check.hpp"
#include "vk_test_util.hpp"
#include "vqm/vulkan.hpp"

namespace {

using namespace vqm;

TEST(VulkanMultiSession, EqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  const auto n = test::check_multi_equals_separate(v, test::multi_config(v.frames_in_flight(), 1, compat::none));
  std::printf("%zu values equal to separate sessions\n", n);
  EXPECT_GT(n, 0u);
  EXPECT_GT(test::check_multi_equals_separate(v, test::multi_config(2, 2, compat::libvmaf)), 0u);
}

TEST(VulkanMultiSession, RefusesNoStreamAndAWrongPictureCount) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  test::check_multi_session_errors(v);
}

}  // namespace
