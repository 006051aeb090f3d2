// The Vulkan backend of the VP9 loop filter: one invocation per line, 8-/16-bit storage buffers
// (VK_KHR_8bit_storage / 16bit_storage) so neighbouring lanes can write neighbouring pixels.
//
// Runs on the shared vqm::vulkan infrastructure: the dlopen'ed loader (no link-time libvulkan), the
// context's pipeline cache, RAII buffers. The context is either the backend's own or one shared with
// other vqm components (std::shared_ptr), including a context that borrows the caller's VkDevice/VkQueue
// (vqm::vulkan::context's import constructor).
//
// filter() uploads the plane, filters and downloads it (the "with transfers" case). For data that
// lives on the GPU, upload() once, filter_resident() any number of batches, download() at the end.
// Buffers only grow, so steady-state batches allocate nothing. Not thread-safe: one backend per thread
// (several backends may share one context; submissions lock its queue).
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "vqm/lpf/contract.hpp"
#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"
#include "vqm/lpf/kernels.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/lpf_u16.hpp"
#include "vqm/vulkan/spirv/lpf_u8.hpp"

namespace vqm::lpf {

// Which invocation filters which (edge, line) (specialisation constant MAP of shaders/lpf_common.glsl).
enum class lane_mapping : std::uint8_t {
  edge_major,  // the 8 lines of an edge on 8 consecutive lanes (v: adjacent columns, coalesced)
  line_major,  // 8 consecutive edges of the list on consecutive lanes, same line (SPEC §7 coalescing
               // hint for h: one row of horizontally consecutive edges instead of 8 rows `stride` apart)
};

constexpr const char* name(lane_mapping m) { return m == lane_mapping::edge_major ? "edge_major" : "line_major"; }

struct vulkan_options {
  check_level checks = check_level::full;
  lane_mapping mapping = lane_mapping::edge_major;
  vulkan::context_options context{};  // only when the backend creates its own context
};

class vulkan_backend {
 public:
  // Creates its own context (best device, or o.context.device_index).
  explicit vulkan_backend(vulkan_options o = {})
      : vulkan_backend(std::make_shared<vulkan::context>(o.context), std::move(o)) {}
  // Runs on a shared context, e.g. one borrowing the caller's device and queue:
  //   auto ctx = std::make_shared<vqm::vulkan::context>(vqm::vulkan::borrowed_device{
  //       .instance = instance, .physical_device = physical, .device = device, .queue_family = family});
  // The device needs storageBuffer8BitAccess (8-bit planes) / storageBuffer16BitAccess (16-bit planes).
  explicit vulkan_backend(std::shared_ptr<const vulkan::context> ctx, vulkan_options o = {})
      : opt_(std::move(o)), ctx_(std::move(ctx)) {
    if (!ctx_) throw error(errc::invalid_argument, "lpf vulkan: null vqm::vulkan::context given");
    init();
  }
  vulkan_backend(const vulkan_backend&) = delete;
  vulkan_backend& operator=(const vulkan_backend&) = delete;
  ~vulkan_backend() = default;  // every submit() waits for its fence: nothing is in flight

  [[nodiscard]] std::string device_name() const { return ctx_->name(); }
  [[nodiscard]] const vulkan::context& context() const { return *ctx_; }
  [[nodiscard]] const std::shared_ptr<const vulkan::context>& shared_context() const { return ctx_; }
  [[nodiscard]] lane_mapping mapping() const { return opt_.mapping; }

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
  static constexpr VkDeviceSize counter_bytes = 64;
  struct push_constants {
    std::uint32_t n_edges, first_edge, stride;
  };

  // A buffer that only grows (rounded up to powers of two). Every reallocation bumps generation_: a
  // freed handle's value may be reused by the next buffer, so handles cannot tell whether a set is stale.
  void reserve(vulkan::buffer& b, VkDeviceSize bytes, vulkan::memory_kind kind) {
    if (b && b.size() >= bytes) return;
    VkDeviceSize n = 4096;
    while (n < bytes) n *= 2;
    b = vulkan::buffer();  // free the old one first
    b = vulkan::buffer(*ctx_, n, kind);
    ++generation_;
  }

  template <class Pixel>
  void set_resident(const plane<Pixel>& p) {
    static_assert(std::is_same_v<Pixel, std::uint8_t> || std::is_same_v<Pixel, std::uint16_t>);
    const auto& f = ctx_->features();
    if (sizeof(Pixel) == 1 ? !f.storage_buffer_8bit : !f.storage_buffer_16bit)
      throw error(errc::backend_unavailable,
                  "lpf vulkan: device " + ctx_->name() + " lacks " +
                      (sizeof(Pixel) == 1 ? "storageBuffer8BitAccess" : "storageBuffer16BitAccess") +
                      " (needed for " + std::to_string(8 * sizeof(Pixel)) + "-bit planes); use the Cpu backend");
    resident_data_ = p.data;
    resident_size_ = p.size;
    resident_stride_ = p.stride;
    resident_bd_ = p.bit_depth;
    resident_pixel_ = sizeof(Pixel);
    const VkDeviceSize bytes = (VkDeviceSize(p.size) * sizeof(Pixel) + 3) & ~VkDeviceSize(3);
    reserve(pixels_dev_, bytes, vulkan::memory_kind::device_local);
    reserve(pixels_host_, bytes, vulkan::memory_kind::readback);  // both directions: host-cached
  }

  void init() {
    const auto& c = *ctx_;
    reserve(counters_dev_, counter_bytes, vulkan::memory_kind::device_local);
    reserve(counters_host_, counter_bytes, vulkan::memory_kind::readback);
    reserve(edges_dev_, 4096, vulkan::memory_kind::device_local);
    reserve(edges_host_, 4096, vulkan::memory_kind::upload);
    cmd_pool_ = vulkan::command_pool(c);
    cmd_ = cmd_pool_.allocate();
    fence_ = vulkan::fence(c);
    desc_pool_ = vulkan::descriptor_pool(c, 2, 6);
  }

  // The constants of lpf_common.glsl (K: the shader's, spirv::<stem>_constants).
  template <class K>
  [[nodiscard]] vulkan::specialization spec(kind k, bool count) const {
    return vulkan::specialization{}
        .set(K::wd, k.wd)
        .set(K::dir, static_cast<int>(k.dir))
        .set(K::bd, resident_bd_)
        .set(K::count, count)
        .set(K::map, static_cast<int>(opt_.mapping));
  }

  // One specialised pipeline per (pixel size, dir, wd, bit depth, counting), created on first use
  // through the context's pipeline cache. Both pixel sizes share one descriptor-set layout shape.
  const vulkan::compute_pipeline& pipeline(kind k, bool count) {
    const int pix = resident_pixel_ == 2;
    const int wdi = k.wd == 4 ? 0 : k.wd == 8 ? 1 : 2;
    const int bdi = (resident_bd_ - 8) / 2;
    const std::size_t idx = std::size_t((((pix * 2 + int(k.dir)) * 3 + wdi) * 3 + bdi) * 2 + count);
    if (!pipelines_[idx]) {
      if (pix)
        pipelines_[idx] = std::make_unique<vulkan::compute_pipeline>(
            *ctx_, vulkan::spirv::lpf_u16, 3, sizeof(push_constants), spec<vulkan::spirv::lpf_u16_constants>(k, count));
      else
        pipelines_[idx] = std::make_unique<vulkan::compute_pipeline>(
            *ctx_, vulkan::spirv::lpf_u8, 3, sizeof(push_constants), spec<vulkan::spirv::lpf_u8_constants>(k, count));
    }
    auto& p = *pipelines_[idx];
    // Identically defined set layouts are compatible, so one set per pixel size serves all its pipelines;
    // it is rewritten only when a buffer it points at was reallocated.
    VkDescriptorSet& set = sets_[std::size_t(pix)];
    if (!set) set = desc_pool_.allocate(p.set_layout());
    if (set_generation_[std::size_t(pix)] != generation_) {
      vulkan::write_storage_buffers(*ctx_, set, {pixels_dev_.range(), edges_dev_.range(), counters_dev_.range()});
      set_generation_[std::size_t(pix)] = generation_;
    }
    return p;
  }

  // One submission: [upload pixels] [filter edges] [download pixels], then wait.
  void submit(kind k, std::span<const edge> edges, counters* c, const void* up, void* down) {
    const auto& fn = ctx_->fn();
    const VkDeviceSize px_bytes = VkDeviceSize(resident_size_) * resident_pixel_;
    const VkDeviceSize e_bytes = edges.size_bytes();
    if (!edges.empty()) {
      reserve(edges_dev_, e_bytes, vulkan::memory_kind::device_local);
      reserve(edges_host_, e_bytes, vulkan::memory_kind::upload);
      std::memcpy(edges_host_.data(), edges.data(), e_bytes);
      edges_host_.flush();
    }
    if (up) {
      std::memcpy(pixels_host_.data(), up, px_bytes);
      pixels_host_.flush();
    }

    vulkan::begin(*ctx_, cmd_);
    if (up) {
      const VkBufferCopy r{0, 0, px_bytes};
      fn.vkCmdCopyBuffer(cmd_, pixels_host_, pixels_dev_, 1, &r);
    }
    if (!edges.empty()) {
      const VkBufferCopy r{0, 0, e_bytes};
      fn.vkCmdCopyBuffer(cmd_, edges_host_, edges_dev_, 1, &r);
      if (c) fn.vkCmdFillBuffer(cmd_, counters_dev_, 0, counter_bytes, 0);
      vulkan::transfer_to_compute(*ctx_, cmd_);
      const auto& p = pipeline(k, c != nullptr);
      p.bind(cmd_, sets_[resident_pixel_ == 2]);
      // 8 lanes per edge, 64 per workgroup.
      const std::size_t max_edges = std::size_t(ctx_->limits().maxComputeWorkGroupCount[0]) * 64 / lines_per_edge;
      for (std::size_t first = 0; first < edges.size(); first += max_edges) {
        const std::size_t n = std::min(max_edges, edges.size() - first);
        p.push(cmd_, push_constants{std::uint32_t(n), std::uint32_t(first), std::uint32_t(resident_stride_)});
        p.dispatch(cmd_, std::uint32_t((n * lines_per_edge + 63) / 64));
      }
      // Later batches (next submit) and copies see these writes.
      vulkan::barrier(*ctx_, cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      if (c) {
        const VkBufferCopy counts{0, 0, counter_bytes};
        fn.vkCmdCopyBuffer(cmd_, counters_dev_, counters_host_, 1, &counts);
      }
    }
    if (down) {
      const VkBufferCopy r{0, 0, px_bytes};
      fn.vkCmdCopyBuffer(cmd_, pixels_dev_, pixels_host_, 1, &r);
    }
    vulkan::to_host(*ctx_, cmd_);
    vulkan::end(*ctx_, cmd_);
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd_;
    ctx_->submit(si, fence_);
    fence_.wait();
    fence_.reset();
    if (down) {
      pixels_host_.invalidate();
      std::memcpy(down, pixels_host_.data(), px_bytes);
    }
    if (c && !edges.empty()) {
      counters_host_.invalidate();
      std::uint32_t v[16];
      std::memcpy(v, counters_host_.data(), sizeof(v));
      counters x;
      x.lines = std::uint64_t(edges.size()) * lines_per_edge;
      x.fm = v[0]; x.hev_fm = v[1]; x.flat8_fm = v[2]; x.flat16_fm = v[3];
      x.skip = v[4]; x.f16 = v[5]; x.f8 = v[6]; x.f4_2px = v[7]; x.f4_4px = v[8];
      *c += x;
    }
  }

  vulkan_options opt_;
  std::shared_ptr<const vulkan::context> ctx_;
  // Declared after ctx_: destroyed first.
  vulkan::buffer pixels_dev_, pixels_host_, edges_dev_, edges_host_, counters_dev_, counters_host_;
  vulkan::command_pool cmd_pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  vulkan::fence fence_;
  vulkan::descriptor_pool desc_pool_;
  std::array<VkDescriptorSet, 2> sets_{};                  // per pixel size (u8, u16)
  std::uint64_t generation_ = 1;                // bumped by every buffer reallocation
  std::array<std::uint64_t, 2> set_generation_{};  // generation each set was written at
  std::array<std::unique_ptr<vulkan::compute_pipeline>, 72> pipelines_{};
  void* resident_data_ = nullptr;
  std::size_t resident_size_ = 0, resident_stride_ = 0, resident_pixel_ = 1;
  int resident_bd_ = 8;
};

static_assert(LpfKernel<vulkan_backend, std::uint8_t> && LpfKernel<vulkan_backend, std::uint16_t>);

}  // namespace vqm::lpf
