// The shared Vulkan infrastructure: loader, context, buffers, pipelines (with specialization and push
// constants), command recording, and the on-disk pipeline cache.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/selftest.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm;

TEST(VulkanLoader, MissingLoaderIsAClearError) {
  try {
    (void)vulkan::open_loader("libvqm-no-such-vulkan-loader.so.1");
    FAIL() << "opening a missing loader did not throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_NE(std::string(e.what()).find("no Vulkan loader (libvulkan.so.1) found"), std::string::npos) << e.what();
  }
}

TEST(VulkanContext, ListsDevicesConsistently) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto devs = vulkan::list_devices();
  ASSERT_FALSE(devs.empty());
  bool any_usable = false;
  for (std::size_t i = 0; i < devs.size(); ++i) {
    EXPECT_EQ(devs[i].index, static_cast<int>(i));
    EXPECT_FALSE(devs[i].name.empty());
    EXPECT_EQ(devs[i].usable, devs[i].why_not.empty());
    any_usable = any_usable || devs[i].usable;
  }
  EXPECT_TRUE(any_usable);
  EXPECT_TRUE(vulkan::available());
  EXPECT_GE(ctx->properties().apiVersion, VK_API_VERSION_1_2);
  EXPECT_NE(ctx->queue(), VK_NULL_HANDLE);
}

TEST(VulkanContext, BadDeviceIndexIsAnError) {
  VQM_REQUIRE_VULKAN(ctx);
  const int n = static_cast<int>(vulkan::list_devices().size());
  try {
    vulkan::context bad(vulkan::context_options{n + 3, false, false});
    FAIL() << "device index " << n + 3 << " was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
}

TEST(VulkanContext, MemoryTypeRejectsImpossibleRequests) {
  VQM_REQUIRE_VULKAN(ctx);
  EXPECT_THROW((void)ctx->memory_type(0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT), error);
  EXPECT_NO_THROW((void)ctx->memory_type(~0u, 0));
}

// The kernel-author path end to end: upload, dispatch with spec + push constants, read back.
TEST(VulkanPipeline, SelftestShaderComputes) {
  VQM_REQUIRE_VULKAN(ctx);
  constexpr std::uint32_t n = 1000;
  vulkan::buffer up(*ctx, n * 4, vulkan::memory_kind::upload);
  vulkan::buffer src(*ctx, n * 4, vulkan::memory_kind::device_local);
  vulkan::buffer dst(*ctx, n * 4, vulkan::memory_kind::device_local);
  vulkan::buffer down(*ctx, n * 4, vulkan::memory_kind::readback);
  ASSERT_TRUE(up.host_visible());
  ASSERT_TRUE(down.host_visible());
  std::iota(up.as<std::uint32_t>(), up.as<std::uint32_t>() + n, 7u);
  up.flush();

  struct push_t {
    std::uint32_t count, offset;
  };
  const vulkan::compute_pipeline pipe(*ctx, vqm::vulkan::spirv::selftest, 2, sizeof(push_t),
                                      vulkan::specialization{}.set(vulkan::spirv::selftest_constants::scale, 3u));
  const vulkan::descriptor_pool pool(*ctx, 1, 2);
  const VkDescriptorSet set = pool.allocate(pipe.set_layout());
  vulkan::write_storage_buffers(*ctx, set, {src.range(), dst.range()});

  vulkan::one_shot cmd(*ctx);
  const VkBufferCopy all{0, 0, n * 4};
  ctx->fn().vkCmdCopyBuffer(cmd, up, src, 1, &all);
  vulkan::transfer_to_compute(*ctx, cmd);
  pipe.bind(cmd, set);
  pipe.push(cmd, push_t{n, 5});
  pipe.dispatch(cmd, (n + 63) / 64);
  vulkan::compute_to_transfer(*ctx, cmd);
  ctx->fn().vkCmdCopyBuffer(cmd, dst, down, 1, &all);
  vulkan::to_host(*ctx, cmd);
  cmd.submit_and_wait();
  down.invalidate();
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(down.as<std::uint32_t>()[i], (7 + i) * 3 + 5) << "at " << i;
}

TEST(VulkanPipelineCache, PersistsAcrossContexts) {
  VQM_REQUIRE_VULKAN(ctx);
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("vqm-pcache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ::setenv("VQM_VULKAN_PIPELINE_CACHE", dir.c_str(), 1);
  fs::path file;
  {
    vulkan::context c;
    file = c.pipeline_cache_path();
    ASSERT_FALSE(file.empty());
    EXPECT_EQ(file.parent_path(), dir);
    EXPECT_FALSE(fs::exists(file));
    const vulkan::compute_pipeline pipe(c, vqm::vulkan::spirv::selftest, 2, 8);
  }
  EXPECT_TRUE(fs::exists(file)) << file;
  // At least a valid header for this device (lavapipe stores no pipeline binaries, just the header).
  EXPECT_FALSE(vulkan::pipeline_cache_file::load(file, ctx->properties()).empty());
  {
    vulkan::context c;  // loads the file: still valid, and no temp file is left behind
    EXPECT_EQ(c.pipeline_cache_path(), file);
    const vulkan::compute_pipeline pipe(c, vqm::vulkan::spirv::selftest, 2, 8);
  }
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  ::setenv("VQM_VULKAN_PIPELINE_CACHE", "0", 1);
  {
    vulkan::context c;
    EXPECT_TRUE(c.pipeline_cache_path().empty());
  }
  ::unsetenv("VQM_VULKAN_PIPELINE_CACHE");
  fs::remove_all(dir);
}

}  // namespace
