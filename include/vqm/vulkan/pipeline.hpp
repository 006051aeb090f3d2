// compute_pipeline: a compute shader (embedded SPIR-V) + its descriptor-set layout of N storage buffers
// (bindings 0..N-1, set 0) + a push-constant range, created through the context's VkPipelineCache.
// descriptor_pool hands out sets for those layouts; write_storage_buffers() fills one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/raii.hpp"
#include "vqm/vulkan/spec_constant.hpp"

namespace vqm::vulkan {

// Specialization constants, set by name: set(spirv::<stem>_constants::<name>, value) stores the value in
// the type the shader declares (vqm/vulkan/spec_constant.hpp), under the shader's own constant_id.
class specialization {
 public:
  // A value the shader's type cannot hold exactly is an error, not a silent conversion.
  template <class T, class U>
    requires std::is_arithmetic_v<U>
  specialization& set(spec_constant<T> c, U value) {
    const auto v = static_cast<T>(value);
    if (!exact<T>(value))
      throw error(errc::invalid_argument, std::string("vqm::vulkan::specialization: specialization constant ") +
                                              c.name + " (constant_id " + std::to_string(c.id) +
                                              ") cannot hold the value given exactly in the shader's type");
    if constexpr (std::is_same_v<T, bool>) return put(c.id, static_cast<std::uint32_t>(v ? 1 : 0));  // VkBool32
    else return put(c.id, v);
  }
  [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
  [[nodiscard]] VkSpecializationInfo info() const noexcept {
    return {static_cast<std::uint32_t>(entries_.size()), entries_.data(), data_.size(), data_.data()};
  }

 private:
  template <class T, class U>
  [[nodiscard]] static constexpr bool exact(U value) noexcept {
    if constexpr (std::is_integral_v<T> && std::is_integral_v<U> && !std::is_same_v<T, bool> &&
                  !std::is_same_v<U, bool>)
      return std::in_range<T>(value);  // also catches a sign flip that would survive the round trip
    else
      return static_cast<U>(static_cast<T>(value)) == value;
  }
  template <class T>
  specialization& put(std::uint32_t id, T value) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "specialization constants are 32 or 64 bits");
    const auto off = static_cast<std::uint32_t>(data_.size());
    data_.resize(data_.size() + sizeof(T));
    std::memcpy(data_.data() + off, &value, sizeof(T));
    entries_.push_back({id, off, sizeof(T)});
    return *this;
  }

  std::vector<VkSpecializationMapEntry> entries_;
  std::vector<std::byte> data_;
};

class compute_pipeline {
 public:
  compute_pipeline() = default;
  compute_pipeline(const context& ctx, std::span<const std::uint32_t> spirv, std::uint32_t storage_buffers,
                   std::uint32_t push_constant_size = 0, const specialization& spec = {},
                   const char* entry = "main")
      : ctx_(&ctx), bindings_(storage_buffers), push_size_(push_constant_size) {
    const auto& fn = ctx.fn();
    const VkDevice dev = ctx.device();
    std::vector<VkDescriptorSetLayoutBinding> b(storage_buffers);
    for (std::uint32_t i = 0; i < storage_buffers; ++i)
      b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo li{};
    li.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    li.bindingCount = storage_buffers;
    li.pBindings = b.data();
    VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
    check(fn.vkCreateDescriptorSetLayout(dev, &li, nullptr, &dsl), "creating a descriptor set layout");
    set_layout_ = handle<VkDescriptorSetLayout>(dev, dsl, fn.vkDestroyDescriptorSetLayout);

    const VkPushConstantRange pr{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_size};
    VkPipelineLayoutCreateInfo pi{};
    pi.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pi.setLayoutCount = 1;
    pi.pSetLayouts = &dsl;
    pi.pushConstantRangeCount = push_constant_size ? 1 : 0;
    pi.pPushConstantRanges = &pr;
    VkPipelineLayout pl = VK_NULL_HANDLE;
    check(fn.vkCreatePipelineLayout(dev, &pi, nullptr, &pl), "creating a pipeline layout");
    layout_ = handle<VkPipelineLayout>(dev, pl, fn.vkDestroyPipelineLayout);

    VkShaderModuleCreateInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    si.codeSize = spirv.size_bytes();
    si.pCode = spirv.data();
    VkShaderModule sm = VK_NULL_HANDLE;
    check(fn.vkCreateShaderModule(dev, &si, nullptr, &sm), "creating a shader module");
    handle<VkShaderModule> module(dev, sm, fn.vkDestroyShaderModule);  // only needed until the pipeline exists

    const VkSpecializationInfo spec_info = spec.info();
    VkComputePipelineCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage = {};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = sm;
    ci.stage.pName = entry;
    ci.stage.pSpecializationInfo = spec.empty() ? nullptr : &spec_info;
    ci.layout = pl;
    VkPipeline p = VK_NULL_HANDLE;
    check(fn.vkCreateComputePipelines(dev, ctx.pipeline_cache(), 1, &ci, nullptr, &p), "creating a compute pipeline");
    pipeline_ = handle<VkPipeline>(dev, p, fn.vkDestroyPipeline);
  }

  [[nodiscard]] VkPipeline get() const noexcept { return pipeline_.get(); }
  [[nodiscard]] VkPipelineLayout layout() const noexcept { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const noexcept { return set_layout_.get(); }
  [[nodiscard]] std::uint32_t storage_buffers() const noexcept { return bindings_; }
  [[nodiscard]] std::uint32_t push_constant_size() const noexcept { return push_size_; }

  // Binds the pipeline and its descriptor set (set 0).
  void bind(VkCommandBuffer cb, VkDescriptorSet set) const {
    ctx_->fn().vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    ctx_->fn().vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set, 0, nullptr);
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void push(VkCommandBuffer cb, const T& constants) const {
    ctx_->fn().vkCmdPushConstants(cb, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(T), &constants);
  }
  void dispatch(VkCommandBuffer cb, std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) const {
    ctx_->fn().vkCmdDispatch(cb, x, y, z);
  }

 private:
  const context* ctx_ = nullptr;
  std::uint32_t bindings_ = 0, push_size_ = 0;
  handle<VkDescriptorSetLayout> set_layout_;
  handle<VkPipelineLayout> layout_;
  handle<VkPipeline> pipeline_;
};

// A pool of descriptor sets of storage buffers; sets live as long as the pool (allocate once, reuse).
class descriptor_pool {
 public:
  descriptor_pool() = default;
  descriptor_pool(const context& ctx, std::uint32_t max_sets, std::uint32_t max_storage_buffers) : ctx_(&ctx) {
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, max_storage_buffers};
    VkDescriptorPoolCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    ci.maxSets = max_sets;
    ci.poolSizeCount = 1;
    ci.pPoolSizes = &size;
    VkDescriptorPool p = VK_NULL_HANDLE;
    check(ctx.fn().vkCreateDescriptorPool(ctx.device(), &ci, nullptr, &p), "creating a descriptor pool");
    pool_ = handle<VkDescriptorPool>(ctx.device(), p, ctx.fn().vkDestroyDescriptorPool);
  }
  [[nodiscard]] VkDescriptorSet allocate(VkDescriptorSetLayout layout) const {
    VkDescriptorSetAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = pool_.get();
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    VkDescriptorSet s = VK_NULL_HANDLE;
    check(ctx_->fn().vkAllocateDescriptorSets(ctx_->device(), &ai, &s), "allocating a descriptor set");
    return s;
  }
  [[nodiscard]] VkDescriptorPool get() const noexcept { return pool_.get(); }

 private:
  const context* ctx_ = nullptr;
  handle<VkDescriptorPool> pool_;
};

// Points bindings 0..n-1 of `set` at the given buffer ranges.
inline void write_storage_buffers(const context& ctx, VkDescriptorSet set, std::span<const VkDescriptorBufferInfo> buffers) {
  std::vector<VkWriteDescriptorSet> w(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    w[i] = {};
    w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w[i].dstSet = set;
    w[i].dstBinding = static_cast<std::uint32_t>(i);
    w[i].descriptorCount = 1;
    w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[i].pBufferInfo = &buffers[i];
  }
  ctx.fn().vkUpdateDescriptorSets(ctx.device(), static_cast<std::uint32_t>(w.size()), w.data(), 0, nullptr);
}
inline void write_storage_buffers(const context& ctx, VkDescriptorSet set,
                                  std::initializer_list<VkDescriptorBufferInfo> buffers) {
  write_storage_buffers(ctx, set, std::span<const VkDescriptorBufferInfo>(buffers.begin(), buffers.size()));
}

}  // namespace vqm::vulkan
