// Vulkan schedule of float_ansnr (float_ansnr.comp): three rounds a frame (the filtered lumas' two terms per
// sample, per-row sums, the serial sum of the rows), every float operation in libvmaf's order; the host
// turns the two float sums into the scores (metrics/float_ansnr.hpp).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/metrics/float_ansnr.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_ansnr.hpp"

namespace vqm::vulkan {

class float_ansnr_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<float_ansnr_program>(env);
  }

  explicit float_ansnr_program(program_env& env) : env_(env), l_(env.layout) {
    w_ = l_.width[0];
    h_ = l_.height[0];
    pipe_ = &env.shared.pipeline(spirv::float_ansnr, 3, sizeof(push));
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    scratch_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    // Two terms a sample, two sums a row.
    scratch_[s] = buffer(env_.ctx, (2 * std::uint64_t{w_} * h_ + 2 * std::uint64_t{h_}) * 4, memory_kind::device_local);
    sets_[s] = pool_.allocate(pipe_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 3; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 8; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t s, int stage) override {
    push pc{};
    pc.mode = static_cast<std::uint32_t>(stage);
    pc.off[0] = l_.word(0, 0);
    pc.off[1] = l_.word(1, 0);
    pc.stride = l_.stride_words(0);
    pc.w = w_;
    pc.h = h_;
    pc.bpc = l_.format.bit_depth;
    pc.rows = 2 * w_ * h_;
    pc.out_word = result_offset / 4;
    // The six distinct taps of ansnr::dis_taps (k/571 for k = 2, 7, 12, 31, 52, 127).
    constexpr int at[6] = {0, 1, 2, 6, 7, 12};
    for (int i = 0; i < 6; ++i) pc.k[i] = std::bit_cast<std::uint32_t>(ansnr::dis_taps[at[i]]);
    pipe_->bind(cb, sets_[s]);
    pipe_->push(cb, pc);
    if (stage == 0) pipe_->dispatch(cb, div_up(w_, 256), h_);
    else if (stage == 1) pipe_->dispatch(cb, div_up(h_, 256));
    else pipe_->dispatch(cb, 1);
  }

 private:
  struct push {
    std::uint32_t mode, off[2], stride, w, h, bpc, rows, out_word, k[6];
  };
  static_assert(sizeof(push) == 60);
  program_env& env_;
  detail::frame_layout l_;
  std::uint32_t w_ = 0, h_ = 0;
  const compute_pipeline* pipe_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> scratch_;
  std::vector<VkDescriptorSet> sets_;
};

struct float_ansnr_engine {
  void ansnr(frame& f, ansnr_partials& out) const {
    f.add({.key = {&float_ansnr_program::make, 0, 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<ansnr_partials*>(j.out);
    std::memcpy(&o.sig, slice, 4);
    std::memcpy(&o.noise, slice + 4, 4);
  }
};

}  // namespace vqm::vulkan
