// The Vulkan backend of the VP9 loop filter: one invocation per line, 8-/16-bit storage buffers
// (VK_KHR_8bit_storage / 16bit_storage) so neighbouring lanes can write neighbouring pixels.
//
// filter() uploads the plane, filters and downloads it (the "with transfers" case). For data that
// lives on the GPU, upload() once, filter_resident() any number of batches, download() at the end.
// Buffers only grow, so steady-state batches allocate nothing. Not thread-safe: one backend per thread.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "vqm/concepts/lpf_kernel.hpp"
#include "vqm/lpf/contract.hpp"
#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/detail/vk.hpp"
#include "vqm/lpf/edge.hpp"
#include "vqm/vulkan/spirv/lpf_u16.hpp"
#include "vqm/vulkan/spirv/lpf_u8.hpp"

namespace vqm::lpf {

using vulkan_device_handles = detail::vk::device_handles;

struct vulkan_options {
  check_level checks = check_level::full;
  std::vector<std::uint8_t> pipeline_cache;  // a blob from pipeline_cache_data() of an earlier run, or empty
};

class vulkan_backend {
 public:
  explicit vulkan_backend(vulkan_options o = {}) : opt_(std::move(o)), ctx_(std::make_unique<detail::vk::context>()) { init(); }
  // Runs on the caller's device and queue (features storageBuffer8BitAccess and 16BitAccess enabled).
  explicit vulkan_backend(const vulkan_device_handles& h, vulkan_options o = {})
      : opt_(std::move(o)), ctx_(std::make_unique<detail::vk::context>(h)) { init(); }
  vulkan_backend(const vulkan_backend&) = delete;
  vulkan_backend& operator=(const vulkan_backend&) = delete;
  ~vulkan_backend() {
    VkDevice d = ctx_->device();
    vkDeviceWaitIdle(d);
    for (VkPipeline p : pipelines_)
      if (p) vkDestroyPipeline(d, p, nullptr);
    for (VkShaderModule m : modules_) vkDestroyShaderModule(d, m, nullptr);
    vkDestroyPipelineCache(d, cache_, nullptr);
    vkDestroyPipelineLayout(d, layout_, nullptr);
    vkDestroyDescriptorPool(d, pool_, nullptr);
    vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
    vkDestroyFence(d, fence_, nullptr);
    vkDestroyCommandPool(d, cmd_pool_, nullptr);
  }

  [[nodiscard]] const std::string& device_name() const { return ctx_->name(); }

  std::vector<std::uint8_t> pipeline_cache_data() const {
    std::size_t n = 0;
    vkGetPipelineCacheData(ctx_->device(), cache_, &n, nullptr);
    std::vector<std::uint8_t> out(n);
    vkGetPipelineCacheData(ctx_->device(), cache_, &n, out.data());
    out.resize(n);
    return out;
  }

  // Upload, filter, download. Throws vqm::error on a contract violation before any work.
  template <class Pixel>
  void filter(kind k, const plane<Pixel>& p, std::span<const edge> edges, counters* c = nullptr) {
    check_contract(k, p, edges, opt_.checks);
    if (edges.empty()) return;
    set_resident(p);
    submit(k, edges, c, p.data, p.data);
  }

  // Copies the plane to the GPU; later filter_resident() calls work on that copy.
  template <class Pixel>
  void upload(const plane<Pixel>& p) {
    check_contract(lpf_h_4_8_kind, p, {}, check_level::bounds);
    set_resident(p);
    submit(lpf_h_4_8_kind, {}, nullptr, p.data, nullptr);
  }
  // Filters edges of the uploaded plane without moving pixels over the bus.
  template <class Pixel>
  void filter_resident(kind k, std::span<const edge> edges, counters* c = nullptr) {
    if (!resident_data_ || resident_pixel_ != sizeof(Pixel))
      throw error(errc::invalid_argument, std::string(name(k)) + ": no plane of this pixel type was uploaded; call upload() first");
    const plane<Pixel> p{static_cast<Pixel*>(resident_data_), resident_size_, resident_stride_, resident_bd_};
    check_contract(k, p, edges, opt_.checks);
    if (edges.empty()) return;
    submit(k, edges, c, nullptr, nullptr);
  }
  // Copies the GPU's plane back into p (same size as uploaded).
  template <class Pixel>
  void download(const plane<Pixel>& p) {
    if (resident_pixel_ != sizeof(Pixel) || p.size != resident_size_)
      throw error(errc::invalid_argument, "lpf vulkan: download() needs a plane of the uploaded size and pixel type");
    submit(lpf_h_4_8_kind, {}, nullptr, nullptr, p.data);
  }

 private:
  enum { pixels_dev, pixels_host, edges_dev, edges_host, counters_dev, counters_host, n_bufs };

  template <class Pixel>
  void set_resident(const plane<Pixel>& p) {
    static_assert(std::is_same_v<Pixel, std::uint8_t> || std::is_same_v<Pixel, std::uint16_t>);
    resident_data_ = p.data;
    resident_size_ = p.size;
    resident_stride_ = p.stride;
    resident_bd_ = p.bit_depth;
    resident_pixel_ = sizeof(Pixel);
    const VkDeviceSize bytes = (VkDeviceSize(p.size) * sizeof(Pixel) + 3) & ~VkDeviceSize(3);
    bool changed = bufs_[pixels_dev].reserve(bytes);
    changed |= bufs_[pixels_host].reserve(bytes);
    if (changed) descriptors_dirty_ = true;
  }

  void init() {
    VkDevice d = ctx_->device();
    namespace vk = detail::vk;
    const VkBufferUsageFlags xfer = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bufs_[pixels_dev].init(ctx_.get(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | xfer, false);
    bufs_[pixels_host].init(ctx_.get(), xfer, true);
    bufs_[edges_dev].init(ctx_.get(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | xfer, false);
    bufs_[edges_host].init(ctx_.get(), xfer, true);
    bufs_[counters_dev].init(ctx_.get(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | xfer, false);
    bufs_[counters_host].init(ctx_.get(), xfer, true);
    bufs_[counters_dev].reserve(64);
    bufs_[counters_host].reserve(64);
    bufs_[edges_dev].reserve(4096);
    bufs_[edges_host].reserve(4096);

    VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = ctx_->handles().queue_family;
    vk::check(vkCreateCommandPool(d, &cpi, nullptr, &cmd_pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = cmd_pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    vk::check(vkAllocateCommandBuffers(d, &cai, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk::check(vkCreateFence(d, &fci, nullptr, &fence_), "vkCreateFence");

    std::array<VkDescriptorSetLayoutBinding, 3> b{};
    for (std::uint32_t i = 0; i < 3; ++i)
      b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = 3;
    dli.pBindings = b.data();
    vk::check(vkCreateDescriptorSetLayout(d, &dli, nullptr, &set_layout_), "vkCreateDescriptorSetLayout");
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    vk::check(vkCreateDescriptorPool(d, &dpi, nullptr, &pool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsa{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsa.descriptorPool = pool_;
    dsa.descriptorSetCount = 1;
    dsa.pSetLayouts = &set_layout_;
    vk::check(vkAllocateDescriptorSets(d, &dsa, &set_), "vkAllocateDescriptorSets");
    VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set_layout_;
    pli.pushConstantRangeCount = 1;
    pli.pPushConstantRanges = &pcr;
    vk::check(vkCreatePipelineLayout(d, &pli, nullptr, &layout_), "vkCreatePipelineLayout");
    VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    pci.initialDataSize = opt_.pipeline_cache.size();
    pci.pInitialData = opt_.pipeline_cache.empty() ? nullptr : opt_.pipeline_cache.data();
    vk::check(vkCreatePipelineCache(d, &pci, nullptr, &cache_), "vkCreatePipelineCache");
    auto module = [&](const std::uint32_t* code, std::size_t bytes) {
      VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      smi.codeSize = bytes;
      smi.pCode = code;
      VkShaderModule m;
      vk::check(vkCreateShaderModule(d, &smi, nullptr, &m), "vkCreateShaderModule");
      return m;
    };
    modules_[0] = module(vulkan::spirv::lpf_u8, sizeof(vulkan::spirv::lpf_u8));
    modules_[1] = module(vulkan::spirv::lpf_u16, sizeof(vulkan::spirv::lpf_u16));
  }

  // One specialised pipeline per (pixel size, dir, wd, bit depth, counting), created on first use.
  VkPipeline pipeline(kind k, bool count) {
    const int pix = resident_pixel_ == 2;
    const int wdi = k.wd == 4 ? 0 : k.wd == 8 ? 1 : 2;
    const int bdi = (resident_bd_ - 8) / 2;
    const std::size_t idx = std::size_t((((pix * 2 + int(k.dir)) * 3 + wdi) * 3 + bdi) * 2 + count);
    if (pipelines_[idx]) return pipelines_[idx];
    const std::int32_t data[4] = {k.wd, int(k.dir), resident_bd_, count ? 1 : 0};
    VkSpecializationMapEntry me[4];
    for (std::uint32_t i = 0; i < 4; ++i) me[i] = {i, i * 4, 4};
    VkSpecializationInfo si{4, me, sizeof(data), data};
    VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = modules_[std::size_t(pix)];
    cpi.stage.pName = "main";
    cpi.stage.pSpecializationInfo = &si;
    cpi.layout = layout_;
    detail::vk::check(vkCreateComputePipelines(ctx_->device(), cache_, 1, &cpi, nullptr, &pipelines_[idx]),
                      "vkCreateComputePipelines");
    return pipelines_[idx];
  }

  void update_descriptors() {
    VkDescriptorBufferInfo bi[3] = {{bufs_[pixels_dev].get(), 0, VK_WHOLE_SIZE},
                                    {bufs_[edges_dev].get(), 0, VK_WHOLE_SIZE},
                                    {bufs_[counters_dev].get(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[3];
    for (std::uint32_t i = 0; i < 3; ++i) {
      w[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w[i].dstSet = set_;
      w[i].dstBinding = i;
      w[i].descriptorCount = 1;
      w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w[i].pBufferInfo = &bi[i];
    }
    vkUpdateDescriptorSets(ctx_->device(), 3, w, 0, nullptr);
    descriptors_dirty_ = false;
  }

  static void barrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags sa, VkPipelineStageFlags dst, VkAccessFlags da) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = sa;
    mb.dstAccessMask = da;
    vkCmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }

  // One submission: [upload pixels] [filter edges] [download pixels], then wait.
  void submit(kind k, std::span<const edge> edges, counters* c, const void* up, void* down) {
    namespace vk = detail::vk;
    VkDevice d = ctx_->device();
    const VkDeviceSize px_bytes = VkDeviceSize(resident_size_) * resident_pixel_;
    const VkDeviceSize e_bytes = edges.size_bytes();
    if (!edges.empty()) {
      bool changed = bufs_[edges_dev].reserve(e_bytes);
      bufs_[edges_host].reserve(e_bytes);
      if (changed) descriptors_dirty_ = true;
      std::memcpy(bufs_[edges_host].map(), edges.data(), e_bytes);
    }
    if (descriptors_dirty_) update_descriptors();
    if (up) std::memcpy(bufs_[pixels_host].map(), up, px_bytes);

    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk::check(vkBeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
    if (up) {
      VkBufferCopy r{0, 0, px_bytes};
      vkCmdCopyBuffer(cmd_, bufs_[pixels_host].get(), bufs_[pixels_dev].get(), 1, &r);
    }
    if (!edges.empty()) {
      VkBufferCopy r{0, 0, e_bytes};
      vkCmdCopyBuffer(cmd_, bufs_[edges_host].get(), bufs_[edges_dev].get(), 1, &r);
      if (c) vkCmdFillBuffer(cmd_, bufs_[counters_dev].get(), 0, 64, 0);
      barrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline(k, c != nullptr));
      vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
      const std::size_t max_edges = std::size_t(ctx_->limits().maxComputeWorkGroupCount[0]) * 64 / lines_per_edge;
      for (std::size_t first = 0; first < edges.size(); first += max_edges) {
        const std::size_t n = std::min(max_edges, edges.size() - first);
        const std::uint32_t pc[3] = {std::uint32_t(n), std::uint32_t(first), std::uint32_t(resident_stride_)};
        vkCmdPushConstants(cmd_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), pc);
        vkCmdDispatch(cmd_, std::uint32_t((n * lines_per_edge + 63) / 64), 1, 1);
      }
      barrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      if (c) {
        VkBufferCopy r{0, 0, 64};
        vkCmdCopyBuffer(cmd_, bufs_[counters_dev].get(), bufs_[counters_host].get(), 1, &r);
      }
    }
    if (down) {
      VkBufferCopy r{0, 0, px_bytes};
      vkCmdCopyBuffer(cmd_, bufs_[pixels_dev].get(), bufs_[pixels_host].get(), 1, &r);
    }
    barrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    vk::check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd_;
    vk::check(vkQueueSubmit(ctx_->handles().queue, 1, &si, fence_), "vkQueueSubmit");
    vk::check(vkWaitForFences(d, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    vk::check(vkResetFences(d, 1, &fence_), "vkResetFences");
    if (down) std::memcpy(down, bufs_[pixels_host].map(), px_bytes);
    if (c && !edges.empty()) {
      std::uint32_t v[16];
      std::memcpy(v, bufs_[counters_host].map(), sizeof(v));
      counters x;
      x.lines = std::uint64_t(edges.size()) * lines_per_edge;
      x.fm = v[0]; x.hev_fm = v[1]; x.flat8_fm = v[2]; x.flat16_fm = v[3];
      x.skip = v[4]; x.f16 = v[5]; x.f8 = v[6]; x.f4_2px = v[7]; x.f4_4px = v[8];
      *c += x;
    }
  }

  vulkan_options opt_;
  std::unique_ptr<detail::vk::context> ctx_;
  std::array<detail::vk::buffer, n_bufs> bufs_;
  VkCommandPool cmd_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::array<VkShaderModule, 2> modules_{};
  std::array<VkPipeline, 72> pipelines_{};
  bool descriptors_dirty_ = true;
  void* resident_data_ = nullptr;
  std::size_t resident_size_ = 0, resident_stride_ = 0, resident_pixel_ = 1;
  int resident_bd_ = 8;
};

static_assert(LpfKernel<vulkan_backend, std::uint8_t> && LpfKernel<vulkan_backend, std::uint16_t>);

}  // namespace vqm::lpf
