// Shared helpers of the Vulkan tests: one context per test program, a skip when no device exists.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/device_features.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::test {

// The process-wide test context, or null when this machine has no usable Vulkan device (with `why`).
inline std::shared_ptr<vulkan::context> vk_context(std::string* why = nullptr) {
  static std::string reason;
  static std::shared_ptr<vulkan::context> ctx = [] {
    std::shared_ptr<vulkan::context> c;
    if (!vulkan::available(&reason)) return c;
    c = std::make_shared<vulkan::context>();
    return c;
  }();
  if (why) *why = reason;
  return ctx;
}

// The same device borrowed as though its caller had not enabled timelineSemaphore (every other feature as
// the device has it): vqm's paths without timeline semaphores.
inline std::shared_ptr<vulkan::context> without_timeline_semaphores(const vulkan::context& ctx) {
  vulkan::detail::feature_chain all;
  ctx.fn().vkGetPhysicalDeviceFeatures2(ctx.physical_device(), &all.base);
  all.v12.timelineSemaphore = VK_FALSE;
  return std::make_shared<vulkan::context>(vulkan::borrowed_device{.instance = ctx.instance(),
                                                                   .physical_device = ctx.physical_device(),
                                                                   .device = ctx.device(),
                                                                   .queue_family = ctx.queue_family(),
                                                                   .enabled_features = &all.base});
}

// Runs a test shader once over `count` items (256 per workgroup) with push constants `pc`, and waits: its
// host-visible outputs are then ready to invalidate and read.
template <class Push>
void run_once(const vulkan::context& ctx, const vulkan::compute_pipeline& p, VkDescriptorSet set, const Push& pc,
              std::uint32_t count) {
  vulkan::one_shot cmd(ctx);
  p.bind(cmd, set);
  p.push(cmd, pc);
  p.dispatch(cmd, vulkan::div_up(count, 256));
  vulkan::to_host(ctx, cmd);
  cmd.submit_and_wait();
}

}  // namespace vqm::test

// Skips the test (saying why) only when no Vulkan device exists.
#define VQM_REQUIRE_VULKAN(ctx_var)                                                  \
  std::string vqm_why_;                                                              \
  auto ctx_var = ::vqm::test::vk_context(&vqm_why_);                                 \
  if (!ctx_var) GTEST_SKIP() << "no Vulkan device on this machine: " << vqm_why_

#include "common/reference_data.hpp"  // IWYU pragma: export
