// Exact uint64 sums over a frame's rows, in two passes, for the programs that need them (sse: integer and
// float PSNR; float_moment): pass 1, the program's own shader, writes one partial per workgroup of rows()
// rows for each of up to `segments` sums; pass 2, reduce_u64, adds each segment's partials into the
// program's slice of the result block. Any order of addition gives the same integers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/reduce_u64.hpp"

namespace vqm::vulkan {

class banded_sums {
 public:
  // `pass1` binds the input (0) and the partials (1); the same three-buffer set serves reduce_u64 (1, 2).
  // A workgroup covers about `words_per_group` words of luma rows.
  template <std::size_t N>
  banded_sums(program_env& env, const std::uint32_t (&pass1)[N], std::uint32_t push_bytes, std::uint32_t segments,
              std::uint32_t words_per_group)
      : env_(env), segments_(segments) {
    const auto& l = env.layout;
    const std::uint32_t wpr = div_up(l.width[0], l.bps == 1 ? 4 : 2);
    rows_ = std::max<std::uint32_t>(1, words_per_group / std::max<std::uint32_t>(wpr, 1));
    groups_ = div_up(l.height[0], rows_);
    pass1_ = &env.shared.pipeline(pass1, 3, push_bytes);
    reduce_ = &env.shared.pipeline(spirv::reduce_u64, 3, 12);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    partial_.resize(env.slots);
    sets_.resize(env.slots, VK_NULL_HANDLE);
  }

  void ensure(std::size_t s) {
    if (sets_[s]) return;
    partial_[s] = buffer(env_.ctx, std::uint64_t{groups_} * segments_ * 8, memory_kind::device_local);
    sets_[s] = pool_.allocate(pass1_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, partial_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }

  [[nodiscard]] std::uint32_t rows() const noexcept { return rows_; }
  [[nodiscard]] std::uint32_t groups() const noexcept { return groups_; }

  // Pass 1 over `z` segments with the program's push constants.
  template <class Push>
  void record_pass1(VkCommandBuffer cb, std::size_t slot, const Push& pc, std::uint32_t z) const {
    pass1_->bind(cb, sets_[slot]);
    pass1_->push(cb, pc);
    pass1_->dispatch(cb, groups_, 1, z);
  }
  // Pass 2: segment k's total into the result block at byte result_offset + 8k.
  void record_reduce(VkCommandBuffer cb, std::size_t slot, std::uint32_t result_offset, std::uint32_t z) const {
    const struct {
      std::uint32_t count, in_base, out_base;
    } pc{groups_, 0, result_offset / 8};
    reduce_->bind(cb, sets_[slot]);
    reduce_->push(cb, pc);
    reduce_->dispatch(cb, 1, 1, z);
  }

  // Segment k's total in a decoded slice.
  [[nodiscard]] static std::uint64_t sum(const std::byte* slice, std::uint32_t k) noexcept {
    std::uint64_t v;
    std::memcpy(&v, slice + 8 * k, 8);
    return v;
  }

 private:
  program_env& env_;
  std::uint32_t segments_;
  std::uint32_t rows_ = 1, groups_ = 1;
  const compute_pipeline* pass1_ = nullptr;
  const compute_pipeline* reduce_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
};

}  // namespace vqm::vulkan
