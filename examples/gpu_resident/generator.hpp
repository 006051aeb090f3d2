// The example's frame source on the GPU: a compute shader (shaders/gpu_resident_generate.comp) writes
// frame t of a reference and a distorted NV12 picture into one of `ring` buffers on the device vqm runs
// on. One timeline semaphore orders everything on the queue: generating frame t signals 2t + 1, vqm's
// frame t waits for it and signals 2t + 2, and generating into the same buffer again waits for that.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/gpu_picture.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/raii.hpp"
#include "vqm/vulkan/spirv/gpu_resident_generate.hpp"

namespace example {

namespace vk = vqm::vulkan;

class generator {
 public:
  generator(const vk::context& ctx, const vqm::picture_format& f, std::uint32_t ring)
      : ctx_(ctx), f_(f), pipeline_(ctx, vk::spirv::gpu_resident_generate, 1, 16), sets_(ctx, ring + 1, ring + 1), pool_(ctx) {
    if (f.width % 4 || f.height % 2 || !(f == vqm::make_format(*vqm::find_pixel_format("nv12"), f.width, f.height)))
      throw vqm::error(vqm::errc::invalid_argument, "the generator writes NV12 with a width divisible by 4 and an even height");
    if (!ctx.features().timeline_semaphore)
      throw vqm::error(vqm::errc::backend_unavailable, "this example needs a device with timelineSemaphore (Vulkan 1.2)");
    VkSemaphoreTypeCreateInfo ti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
    VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &ti, 0};
    VkSemaphore s = VK_NULL_HANDLE;
    vk::check(ctx.fn().vkCreateSemaphore(ctx.device(), &ci, nullptr, &s), "creating the timeline semaphore");
    timeline_ = vk::handle<VkSemaphore>(ctx.device(), s, ctx.fn().vkDestroySemaphore);
    for (std::uint32_t k = 0; k < ring; ++k) {
      auto& sl = slots_.emplace_back();
      sl.frames = vk::buffer(ctx, 2 * f.frame_bytes(), vk::memory_kind::device_local);
      sl.set = sets_.allocate(pipeline_.set_layout());
      vk::write_storage_buffers(ctx, sl.set, {VkDescriptorBufferInfo{sl.frames, 0, VK_WHOLE_SIZE}});
      sl.cb = pool_.allocate();
      sl.done = vk::fence(ctx, true);
    }
  }

  // Submits the generation of frame t (into buffer t % ring) and returns the pair as vqm reads it.
  std::pair<vk::gpu_picture, vk::gpu_picture> generate(std::uint64_t t) {
    auto& sl = slots_[t % slots_.size()];
    sl.done.wait();  // its command buffer is free again
    sl.done.reset();
    vk::begin(ctx_, sl.cb);
    record(sl.cb, sl.set, t);
    vk::end(ctx_, sl.cb);
    // Frame t - ring, which vqm read from this buffer, must be done (its signal: 2(t - ring) + 2).
    const std::uint64_t wait_value = t >= slots_.size() ? 2 * (t - slots_.size()) + 2 : 0, signal_value = 2 * t + 1;
    submit(sl.cb, wait_value, signal_value, sl.done);
    std::pair<vk::gpu_picture, vk::gpu_picture> out;
    for (int pic = 0; pic < 2; ++pic) {
      vk::gpu_picture& g = pic == 0 ? out.first : out.second;
      g.device = ctx_.device();
      g.format = f_;
      const VkDeviceSize base = pic * f_.frame_bytes(), luma = std::uint64_t{f_.width} * f_.height;
      g.planes[0] = {.buffer = sl.frames, .offset = base, .row_pitch = f_.width};
      g.planes[1] = {.buffer = sl.frames, .offset = base + luma, .row_pitch = f_.width};  // interleaved CbCr
      g.wait[0] = {timeline_, signal_value};
      g.wait_count = 1;
      g.signal = {timeline_, 2 * t + 2};  // both pictures name it: vqm signals it once
    }
    return out;
  }

  // For --verify: frame t generated again and read back into host pictures (no semaphores: a fence).
  void read_back(std::uint64_t t, vqm::picture& ref, vqm::picture& dis) {
    const VkDeviceSize bytes = 2 * f_.frame_bytes();
    vk::buffer host(ctx_, bytes, vk::memory_kind::readback);
    vk::buffer frames(ctx_, bytes, vk::memory_kind::device_local);
    if (!verify_set_) verify_set_ = sets_.allocate(pipeline_.set_layout());
    vk::write_storage_buffers(ctx_, verify_set_, {VkDescriptorBufferInfo{frames, 0, VK_WHOLE_SIZE}});
    vk::one_shot os(ctx_);
    record(os, verify_set_, t);
    vk::compute_to_transfer(ctx_, os);
    const VkBufferCopy c{0, 0, bytes};
    ctx_.fn().vkCmdCopyBuffer(os, frames, host, 1, &c);
    vk::to_host(ctx_, os);
    os.submit_and_wait();
    host.invalidate();
    ref = vqm::picture(f_);
    dis = vqm::picture(f_);
    std::memcpy(ref.bytes().data(), host.data(), f_.frame_bytes());
    std::memcpy(dis.bytes().data(), host.data() + f_.frame_bytes(), f_.frame_bytes());
  }

 private:
  struct slot {
    vk::buffer frames;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    vk::fence done;
  };

  void record(VkCommandBuffer cb, VkDescriptorSet set, std::uint64_t t) const {
    const std::uint32_t pc[4] = {f_.width, f_.height, static_cast<std::uint32_t>(t), 0};
    pipeline_.bind(cb, set);
    pipeline_.push(cb, pc);
    pipeline_.dispatch(cb, (f_.width / 4 + 63) / 64, f_.height + f_.height / 2);
  }

  void submit(VkCommandBuffer cb, std::uint64_t wait_value, std::uint64_t signal_value, const vk::fence& done) const {
    const VkSemaphore sem = timeline_;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, 1, &wait_value, 1, &signal_value};
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, &ti, wait_value ? 1u : 0u, &sem, &stage, 1, &cb, 1, &sem};
    ctx_.submit(si, done);
  }

  const vk::context& ctx_;
  vqm::picture_format f_;
  vk::compute_pipeline pipeline_;
  vk::descriptor_pool sets_;
  vk::command_pool pool_;
  vk::handle<VkSemaphore> timeline_;
  std::vector<slot> slots_;
  VkDescriptorSet verify_set_ = VK_NULL_HANDLE;
};

}  // namespace example
