// Vulkan schedule of float_moment: exact Σ v and Σ f32(v)² of both lumas in uint64 (float_moment.comp
// per row band, then reduce_u64 into the result block), scaled to libvmaf's doubles on the host.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vqm/metrics/float_moment.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_moment.hpp"
#include "vqm/vulkan/spirv/reduce_u64.hpp"

namespace vqm::vulkan {

class moment_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<moment_program>(env);
  }

  explicit moment_program(program_env& env) : env_(env), l_(env.layout) {
    const std::uint32_t spw = l_.bps == 1 ? 4 : 2;
    const std::uint32_t wpr = div_up(l_.width[0], spw);
    rows_ = std::max<std::uint32_t>(1, 2048 / std::max<std::uint32_t>(wpr, 1));  // ~8 words per thread, 2 pictures
    groups_ = div_up(l_.height[0], rows_);
    sums_ = &env.shared.pipeline(spirv::float_moment, 3, 32);  // one set layout for both passes
    reduce_ = &env.shared.pipeline(spirv::reduce_u64, 3, 12);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    partial_.resize(env.slots);
    sets_.resize(env.slots, VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    partial_[s] = buffer(env_.ctx, std::uint64_t{groups_} * 4 * 8, memory_kind::device_local);
    sets_[s] = pool_.allocate(sums_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, partial_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4 * 8; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) {
      const struct {
        std::uint32_t off[2], stride, width, height, bpc, rows_per_group, groups;
      } pc{{l_.word(0, 0), l_.word(1, 0)}, l_.stride_words(0), l_.width[0], l_.height[0], l_.format.bit_depth,
           rows_, groups_};
      static_assert(sizeof(pc) == 32);
      sums_->bind(cb, sets_[slot]);
      sums_->push(cb, pc);
      sums_->dispatch(cb, groups_, 1, 1);
    } else {
      const struct {
        std::uint32_t count, in_base, out_base;
      } pc{groups_, 0, result_offset / 8};
      reduce_->bind(cb, sets_[slot]);
      reduce_->push(cb, pc);
      reduce_->dispatch(cb, 1, 1, 4);
    }
  }

 private:
  program_env& env_;
  detail::frame_layout l_;
  std::uint32_t rows_ = 1, groups_ = 1;
  const compute_pipeline* sums_ = nullptr;
  const compute_pipeline* reduce_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
};

struct float_moment_engine {
  void moment(frame& f, moment_partials& out) const {
    require_int64(f, "float_moment", "exact integer sums");
    const auto& fmt = f.ref().format;
    // libvmaf's serial double sum of 16-bit squares rounds once it passes 2^53 units of 2^−16; below
    // 2^21 samples it cannot (every square is below 2^32), so the exact integer sum is the same double.
    if (fmt.bit_depth > 12 && std::uint64_t{fmt.width} * fmt.height > (1u << 21))
      throw error(errc::unsupported_format,
                  "float_moment on Vulkan supports 16-bit input up to 2,097,152 luma samples (where its exact sums "
                  "are libvmaf's doubles), the input is " + std::to_string(fmt.width) + "x" +
                      std::to_string(fmt.height) + " (use the Cpu backend)");
    job j;
    j.key = {&moment_program::make, 0, 0};
    j.decode = &decode;
    j.out = &out;
    j.arg[0] = fmt.bit_depth;
    f.add(j);
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<moment_partials*>(j.out);
    std::uint64_t s[4];
    std::memcpy(s, slice, sizeof s);
    const int shift = static_cast<int>(j.arg[0]) - 8;
    for (int k = 0; k < 2; ++k) {
      o.sum[k] = static_cast<double>(s[k]) / static_cast<double>(1ull << shift);
      o.sum_sq[k] = static_cast<double>(s[2 + k]) / static_cast<double>(1ull << (2 * shift));
    }
  }
};

}  // namespace vqm::vulkan
