// Vulkan schedule of integer PSNR: exact Σ (a − b)² per plane in uint64 (sse.comp per row band, then
// reduce_u64 into the result block). float_psnr runs on the same program (engines/float_psnr.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/reduce_u64.hpp"
#include "vqm/vulkan/spirv/sse.hpp"

namespace vqm::vulkan {

// Σ (a − b)² of the first `planes` planes (id 0), or of luma with float_psnr's round24 at 16 bits (id 1).
class sse_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t planes) {
    return std::make_unique<sse_program>(env, static_cast<int>(planes), id == 1);
  }
  [[nodiscard]] static program_key key(bool round24, std::uint32_t planes) noexcept {
    return {&make, round24 ? 1u : 0u, planes};
  }

  sse_program(program_env& env, int planes, bool round24)
      : env_(env), l_(env.layout), planes_(planes), round24_(round24) {
    const std::uint32_t spw = l_.bps == 1 ? 4 : 2;
    const std::uint32_t wpr = div_up(l_.width[0], spw);
    rows_ = std::max<std::uint32_t>(1, 4096 / std::max<std::uint32_t>(wpr, 1));  // ~16 words per thread
    groups_ = div_up(l_.height[0], rows_);
    sse_ = &env.shared.pipeline(spirv::sse, 3, 80);
    reduce_ = &env.shared.pipeline(spirv::reduce_u64, 3, 12);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    partial_.resize(env.slots);
    sets_.resize(env.slots, VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    partial_[s] = buffer(env_.ctx, std::uint64_t{groups_} * 3 * 8, memory_kind::device_local);
    sets_[s] = pool_.allocate(sse_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, partial_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 3 * 8; }
  [[nodiscard]] int planes() const noexcept override { return planes_; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) {
      struct {
        std::uint32_t ref_off[3], dis_off[3], stride[3], width[3], height[3];
        std::uint32_t bpc, rows_per_group, groups, round24, partial_base;
      } pc{};
      for (int p = 0; p < planes_; ++p) {
        pc.ref_off[p] = l_.word(0, p);
        pc.dis_off[p] = l_.word(1, p);
        pc.stride[p] = l_.stride_words(p);
        pc.width[p] = l_.width[p];
        pc.height[p] = l_.height[p];
      }
      pc.bpc = l_.format.bit_depth;
      pc.rows_per_group = rows_;
      pc.groups = groups_;
      pc.round24 = round24_ ? 1 : 0;
      static_assert(sizeof(pc) == 80);
      sse_->bind(cb, sets_[slot]);
      sse_->push(cb, pc);
      sse_->dispatch(cb, groups_, 1, static_cast<std::uint32_t>(planes_));
    } else if (stage == 1) {
      const struct {
        std::uint32_t count, in_base, out_base;
      } pc{groups_, 0, result_offset / 8};
      reduce_->bind(cb, sets_[slot]);
      reduce_->push(cb, pc);
      reduce_->dispatch(cb, 1, 1, static_cast<std::uint32_t>(planes_));
    }
  }

  // Plane p's sum in a decoded slice.
  [[nodiscard]] static std::uint64_t sum(const std::byte* slice, std::uint32_t p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, slice + 8 * p, 8);
    return v;
  }

 private:
  program_env& env_;
  detail::frame_layout l_;
  int planes_;
  bool round24_;
  std::uint32_t rows_ = 1, groups_ = 1;
  const compute_pipeline* sse_ = nullptr;
  const compute_pipeline* reduce_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
};

struct psnr_engine {
  void sse(frame& f, const sse_request& q, sse_partials& out) const {
    require_int64(f, "psnr", "exact integer sums");
    const std::uint32_t planes = (q.chroma && f.ref().format.planes() == 3) ? 3u : 1u;
    job j;
    j.key = sse_program::key(false, planes);
    j.decode = &decode;
    j.out = &out;
    j.arg[0] = planes;
    f.add(j);
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<sse_partials*>(j.out);
    for (std::uint32_t p = 0; p < j.arg[0]; ++p) o.sse[p] = sse_program::sum(slice, p);
  }
};

}  // namespace vqm::vulkan
