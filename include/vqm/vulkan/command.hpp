// Command recording and synchronisation: command_pool, fence, barriers, and one_shot (record, submit,
// wait — for set-up work and tests; per-frame paths recycle their own command buffers and fences).
#pragma once

#include <cstdint>
#include <limits>

#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::vulkan {

class command_pool {
 public:
  command_pool() = default;
  // Command buffers of this pool can be reset one by one (recycled per frame slot).
  explicit command_pool(const context& ctx) : ctx_(&ctx) {
    VkCommandPoolCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    ci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    ci.queueFamilyIndex = ctx.queue_family();
    VkCommandPool p = VK_NULL_HANDLE;
    check(ctx.fn().vkCreateCommandPool(ctx.device(), &ci, nullptr, &p), "creating a command pool");
    pool_ = handle<VkCommandPool>(ctx.device(), p, ctx.fn().vkDestroyCommandPool);
  }
  // Freed with the pool.
  [[nodiscard]] VkCommandBuffer allocate() const {
    VkCommandBufferAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    ai.commandPool = pool_.get();
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    check(ctx_->fn().vkAllocateCommandBuffers(ctx_->device(), &ai, &cb), "allocating a command buffer");
    return cb;
  }
  [[nodiscard]] VkCommandPool get() const noexcept { return pool_.get(); }

 private:
  const context* ctx_ = nullptr;
  handle<VkCommandPool> pool_;
};

// Resets and begins `cb` for one submission.
inline void begin(const context& ctx, VkCommandBuffer cb) {
  check(ctx.fn().vkResetCommandBuffer(cb, 0), "resetting a command buffer");
  VkCommandBufferBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(ctx.fn().vkBeginCommandBuffer(cb, &bi), "beginning a command buffer");
}
inline void end(const context& ctx, VkCommandBuffer cb) { check(ctx.fn().vkEndCommandBuffer(cb), "ending a command buffer"); }

class fence {
 public:
  fence() = default;
  explicit fence(const context& ctx, bool signaled = false) : ctx_(&ctx) {
    VkFenceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    ci.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
    VkFence f = VK_NULL_HANDLE;
    check(ctx.fn().vkCreateFence(ctx.device(), &ci, nullptr, &f), "creating a fence");
    fence_ = handle<VkFence>(ctx.device(), f, ctx.fn().vkDestroyFence);
  }
  [[nodiscard]] VkFence get() const noexcept { return fence_.get(); }
  operator VkFence() const noexcept { return fence_.get(); }  // NOLINT
  // Blocks until signalled; device loss becomes vqm::error(errc::device).
  void wait() const {
    const VkFence f = fence_.get();
    check(ctx_->fn().vkWaitForFences(ctx_->device(), 1, &f, VK_TRUE, std::numeric_limits<std::uint64_t>::max()),
          "waiting for GPU work");
  }
  void reset() const {
    const VkFence f = fence_.get();
    check(ctx_->fn().vkResetFences(ctx_->device(), 1, &f), "resetting a fence");
  }
  [[nodiscard]] bool ready() const {
    const VkResult r = ctx_->fn().vkGetFenceStatus(ctx_->device(), fence_.get());
    if (r == VK_NOT_READY) return false;
    check(r, "polling a fence");
    return true;
  }

 private:
  const context* ctx_ = nullptr;
  handle<VkFence> fence_;
};

// Memory dependencies inside one command buffer (global memory barriers: all vqm data lives in buffers).
inline void barrier(const context& ctx, VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier mb{};
  mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  mb.srcAccessMask = src_access;
  mb.dstAccessMask = dst_access;
  ctx.fn().vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, nullptr, 0, nullptr);
}
// Uploads (transfer writes, or host writes flushed before the submit) -> shader reads.
inline void transfer_to_compute(const context& ctx, VkCommandBuffer cb) {
  barrier(ctx, cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
// Uploads and the compute writes of earlier submissions on the queue (a temporal program's state) ->
// shader reads; one barrier in place of transfer_to_compute for frames that carry state.
inline void history_to_compute(const context& ctx, VkCommandBuffer cb) {
  barrier(ctx, cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
// One dispatch's writes -> the next dispatch's reads/writes.
inline void compute_to_compute(const context& ctx, VkCommandBuffer cb) {
  barrier(ctx, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
// Shader writes -> a copy into a readback buffer.
inline void compute_to_transfer(const context& ctx, VkCommandBuffer cb) {
  barrier(ctx, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
}
// Shader or transfer writes -> host reads after the fence wait.
inline void to_host(const context& ctx, VkCommandBuffer cb) {
  barrier(ctx, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

// Record, submit, wait: for initialisation and tests, not for per-frame work.
class one_shot {
 public:
  explicit one_shot(const context& ctx) : ctx_(&ctx), pool_(ctx), fence_(ctx) {
    cb_ = pool_.allocate();
    begin(ctx, cb_);
  }
  [[nodiscard]] VkCommandBuffer cb() const noexcept { return cb_; }
  operator VkCommandBuffer() const noexcept { return cb_; }  // NOLINT
  void submit_and_wait() {
    end(*ctx_, cb_);
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb_;
    ctx_->submit(si, fence_);
    fence_.wait();
  }

 private:
  const context* ctx_;
  command_pool pool_;
  fence fence_;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
};

}  // namespace vqm::vulkan
