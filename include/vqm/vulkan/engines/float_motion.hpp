// Vulkan schedule of float_motion. Temporal, on integer motion's history (detail::motion_history: a
// temporal_ring and a program id per state): each entry of the ring holds a frame's blurred float luma,
// the ring's scratch the vertical pass's plane and the row sums. float_motion.comp runs four rounds a
// frame (vertical pass, horizontal pass into the frame's entry, per-row sums, the serial sum of the rows),
// every float operation in libvmaf's order; the host divides by w·h (metrics/float_motion.hpp).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "vqm/metrics/float_motion.hpp"
#include "vqm/vulkan/engines/motion.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_motion.hpp"

namespace vqm::vulkan {

class float_motion_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<float_motion_program>(env);
  }

  explicit float_motion_program(program_env& env) : env_(env), l_(env.layout) {
    w_ = l_.width[0];
    h_ = l_.height[0];
    pipe_ = &env.shared.pipeline(spirv::float_motion, 3, sizeof(push));
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    sets_.resize(slots, VK_NULL_HANDLE);
    bound_.resize(slots, 0);
    at_.resize(slots);
  }
  [[nodiscard]] int stages() const noexcept override { return 4; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 8; }
  [[nodiscard]] bool temporal() const noexcept override { return true; }
  [[nodiscard]] schedule_hint schedule() const noexcept override { return {0, 2}; }

  void ensure(std::size_t s) override {
    if (!sets_[s]) sets_[s] = pool_.allocate(pipe_->set_layout());
  }
  void bind(std::size_t s, const job& j) override {
    auto& hist = *static_cast<detail::motion_history*>(j.state);
    const buffer& ring = hist.ring.storage(env_.ctx);
    if (bound_[s] != hist.serial) {
      write_storage_buffers(env_.ctx, sets_[s],
                            {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, ring.range(),
                             VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
      bound_[s] = hist.serial;
    }
    const auto extra = static_cast<std::uint32_t>(hist.ring.extra_offset() / 4);
    at_[s] = {j.arg[0], j.arg[1], extra, extra + w_ * h_, (j.arg[2] & 1u) != 0};
  }

  void record(VkCommandBuffer cb, std::size_t s, int stage) override {
    const auto& a = at_[s];
    if (stage >= 2 && !a.computed) return;
    push pc{};
    pc.mode = static_cast<std::uint32_t>(stage);
    pc.in_off = l_.word(0, 0);
    pc.stride = l_.stride_words(0);
    pc.w = w_;
    pc.h = h_;
    pc.bpc = l_.format.bit_depth;
    pc.cur = a.cur;
    pc.prev = a.prev;
    pc.tmp = a.tmp;
    pc.rows = a.rows;
    pc.out_word = result_offset / 4;
    pc.f[0] = std::bit_cast<std::uint32_t>(static_cast<float>(0.054488685));
    pc.f[1] = std::bit_cast<std::uint32_t>(static_cast<float>(0.244201342));
    pc.f[2] = std::bit_cast<std::uint32_t>(static_cast<float>(0.402619947));
    pipe_->bind(cb, sets_[s]);
    pipe_->push(cb, pc);
    if (stage <= 1) pipe_->dispatch(cb, div_up(w_, 256), h_);
    else if (stage == 2) pipe_->dispatch(cb, div_up(h_, 256));
    else pipe_->dispatch(cb, 1);
  }

 private:
  struct push {
    std::uint32_t mode, in_off, stride, w, h, bpc, cur, prev, tmp, rows, out_word, f[3];
  };
  struct position {
    std::uint32_t cur = 0, prev = 0, tmp = 0, rows = 0;  // floats into the ring
    bool computed = false;
  };
  program_env& env_;
  detail::frame_layout l_;
  std::uint32_t w_ = 0, h_ = 0;
  const compute_pipeline* pipe_ = nullptr;
  descriptor_pool pool_;
  std::vector<VkDescriptorSet> sets_;
  std::vector<std::uint32_t> bound_;  // the serial of the state each slot's set points to
  std::vector<position> at_;
};

struct float_motion_engine {
  struct float_motion_state {
    std::shared_ptr<detail::motion_history> history;
  };

  // Three entries of blurred frames (frames run in submission order with a barrier on the history), and
  // scratch for the vertical pass's plane and the row sums.
  [[nodiscard]] float_motion_state make_float_motion_state(const picture_format& f, std::size_t /*ring*/) const {
    const std::uint64_t plane = std::uint64_t{f.width} * f.height * 4;
    return {std::make_shared<detail::motion_history>(f, 3, plane, plane + std::uint64_t{f.height} * 4)};
  }

  void float_motion(frame& f, float_motion_state& s, float_motion_partials& out) const {
    auto& hist = *s.history;
    const auto& luma = f.ref().planes[0];
    if (luma.width != hist.format.width || luma.height != hist.format.height ||
        f.ref().format.bit_depth != hist.format.bit_depth)
      throw error(errc::mismatch, "float_motion: the picture format changed");
    const std::uint64_t n = hist.ring.advance();
    out = {};
    f.add({.key = {&float_motion_program::make, hist.id, 0},
           .decode = &decode,
           .out = &out,
           .state = &hist,
           .arg = hist.ring.pair_args(n, 1)});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<float_motion_partials*>(j.out);
    o = {};
    if ((j.arg[2] & 1u) == 0) return;
    std::memcpy(&o.sad, slice, 4);
    o.computed = true;
  }
};

}  // namespace vqm::vulkan
