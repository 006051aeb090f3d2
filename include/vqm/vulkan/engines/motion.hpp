// Vulkan schedule of VMAF's integer motion (SPEC-vmaf Part A.3, Part C). Temporal: the raw reference luma
// of the last frames stays on the GPU in the state's temporal_ring (vulkan/temporal.hpp), one entry per
// frame in the input's row layout. Per frame, one dispatch of motion.comp writes this frame's luma into its
// entry and, from frame 1 on (2 with the five-frame window), computes the SAD of the entry of frame i−1
// (i−2) against this frame's luma in 64×16 tiles (difference, vertical and horizontal 5-tap passes fused in
// shared memory, exact int32 arithmetic), the tiles' sums as uint64; motion_reduce.comp adds them into the
// result block (per-row wrapping uint32 sums first on rows wider than 65537 columns). motion2/motion3 and the
// score are the shared host math (metrics/motion.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vqm/concepts/motion_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/motion.hpp"
#include "vqm/vulkan/spirv/motion_reduce.hpp"
#include "vqm/vulkan/temporal.hpp"

namespace vqm::vulkan {

namespace detail {

// Small ids for the live motion states: each state runs on the program of its id, so two motion metrics in
// one frame (e.g. with and without the five-frame window) have their own program and result slice, and the
// programs of states that are gone are reused by new ones.
class motion_ids {
 public:
  static std::uint32_t acquire() {
    auto& r = get();
    const std::lock_guard lock(r.m_);
    for (std::size_t i = 0; i < r.used_.size(); ++i)
      if (!r.used_[i]) {
        r.used_[i] = true;
        return static_cast<std::uint32_t>(i);
      }
    r.used_.push_back(true);
    return static_cast<std::uint32_t>(r.used_.size() - 1);
  }
  static void release(std::uint32_t id) {
    auto& r = get();
    const std::lock_guard lock(r.m_);
    r.used_.at(id) = false;
  }
  // A serial per state, so a program rebinds its descriptors when a new state takes an old id (a new ring
  // buffer may reuse a freed one's handle).
  static std::uint32_t serial() {
    static std::atomic<std::uint32_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  static motion_ids& get() {
    static motion_ids r;
    return r;
  }
  std::mutex m_;
  std::vector<bool> used_;
};

// What a motion state owns: the ring of raw reference lumas, the format it was made for, its id.
struct motion_history {
  motion_history(const picture_format& f, std::size_t entries, std::uint64_t entry_bytes, std::uint64_t extra_bytes = 0)
      : ring(entries, entry_bytes, extra_bytes), format(f), id(motion_ids::acquire()), serial(motion_ids::serial()) {}
  motion_history(const motion_history&) = delete;
  motion_history& operator=(const motion_history&) = delete;
  ~motion_history() { motion_ids::release(id); }

  temporal_ring ring;
  picture_format format;
  std::uint32_t id, serial;
};

}  // namespace detail

class motion_program final : public program {
 public:
  static constexpr std::uint32_t tile_w = 64, tile_h = 16;  // motion.comp's TW, TH
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<motion_program>(env);
  }

  explicit motion_program(program_env& env) : env_(env), l_(env.layout) {
    w_ = l_.width[0];
    h_ = l_.height[0];
    gx_ = div_up(w_, tile_w);
    gy_ = div_up(h_, tile_h);
    wide_ = w_ > 65537;
    motion_ = &env.shared.pipeline(spirv::motion, 4, sizeof(motion_push));
    reduce_ = &env.shared.pipeline(spirv::motion_reduce, 4, 12);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 4 * slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
    bound_.resize(slots, 0);
    at_.resize(slots);
  }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 8; }
  [[nodiscard]] bool temporal() const noexcept override { return true; }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    const std::uint64_t bytes = wide_ ? std::uint64_t{h_} * gx_ * 4 : std::uint64_t{gx_} * gy_ * 8;
    partial_[s] = buffer(env_.ctx, bytes, memory_kind::device_local);
    sets_[s] = pool_.allocate(motion_->set_layout());
  }
  // The state's ring (its buffer made on its first frame) is binding 1; the set is written again only when
  // the slot last ran another state.
  void bind(std::size_t s, const job& j) override {
    auto& hist = *static_cast<detail::motion_history*>(j.state);
    const buffer& ring = hist.ring.storage(env_.ctx);
    if (bound_[s] != hist.serial) {
      write_storage_buffers(env_.ctx, sets_[s],
                            {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, ring.range(),
                             partial_[s].range(), VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
      bound_[s] = hist.serial;
    }
    at_[s] = {j.arg[0], j.arg[1], (j.arg[2] & 1u) != 0};
  }

  void record(VkCommandBuffer cb, std::size_t s, int stage) override {
    const auto& a = at_[s];
    if (stage == 0) {
      motion_push pc{};
      pc.cur_off = l_.word(0, 0);
      pc.stride = l_.stride_words(0);
      pc.w = w_;
      pc.h = h_;
      pc.bpc = l_.format.bit_depth;
      pc.ring_cur = a.cur;
      pc.ring_prev = a.prev;
      pc.compute = a.computed ? 1 : 0;
      pc.wide = wide_ ? 1 : 0;
      pc.groups_x = gx_;
      motion_->bind(cb, sets_[s]);
      motion_->push(cb, pc);
      motion_->dispatch(cb, gx_, gy_);
    } else if (stage == 1 && a.computed) {
      const struct {
        std::uint32_t count, rows, out_base;
      } pc{wide_ ? gx_ : gx_ * gy_, wide_ ? h_ : 0u, result_offset / 8};
      reduce_->bind(cb, sets_[s]);
      reduce_->push(cb, pc);
      reduce_->dispatch(cb, 1);
    }
  }

 private:
  struct motion_push {
    std::uint32_t cur_off, stride, w, h, bpc, ring_cur, ring_prev, compute, wide, groups_x;
  };
  struct position {
    std::uint32_t cur = 0, prev = 0;  // words into the ring
    bool computed = false;
  };
  program_env& env_;
  detail::frame_layout l_;
  std::uint32_t w_ = 0, h_ = 0, gx_ = 1, gy_ = 1;
  bool wide_ = false;
  const compute_pipeline* motion_ = nullptr;
  const compute_pipeline* reduce_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
  std::vector<std::uint32_t> bound_;  // the serial of the state each slot's set points to
  std::vector<position> at_;
};

struct motion_engine {
  // What the metric holds: the device history (created on its first frame) and the format it is for.
  struct motion_state {
    std::shared_ptr<detail::motion_history> history;
  };

  // Three frames of history whatever `ring` says (the Cpu's ring must cover the frames in flight): the
  // five-frame window reads frame i−2 while frame i writes its entry, and frames run in submission order
  // with a barrier on the history, so three entries are enough however many frames are in flight.
  [[nodiscard]] motion_state make_motion_state(const picture_format& f, std::size_t /*ring*/) const {
    const std::uint64_t row = (std::uint64_t{f.width} * f.bytes_per_sample() + 3) / 4 * 4;
    return {std::make_shared<detail::motion_history>(f, 3, row * f.height)};
  }

  void motion(frame& f, motion_state& s, const motion_request& q, motion_partials& out) const {
    require_int64(f, "motion", "exact 64-bit SAD sums");
    auto& hist = *s.history;
    const auto& luma = f.ref().planes[0];
    if (luma.width != hist.format.width || luma.height != hist.format.height ||
        f.ref().format.bit_depth != hist.format.bit_depth)
      throw error(errc::mismatch, "motion: the picture format changed from " + std::to_string(hist.format.width) + "x" +
                                      std::to_string(hist.format.height) + " " + std::to_string(hist.format.bit_depth) +
                                      "-bit to " + std::to_string(luma.width) + "x" + std::to_string(luma.height) + " " +
                                      std::to_string(f.ref().format.bit_depth) + "-bit");
    const std::uint64_t n = hist.ring.advance();  // presentation order: the order of these calls
    const std::uint64_t window = q.five_frame_window ? 2 : 1;
    out = {};
    f.add({.key = {&motion_program::make, hist.id, 0},
           .decode = &decode,
           .out = &out,
           .state = &hist,
           .arg = hist.ring.pair_args(n, window)});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<motion_partials*>(j.out);
    o = {};
    if ((j.arg[2] & 1u) == 0) return;
    std::memcpy(&o.sad, slice, 8);
    o.computed = true;
  }
};

}  // namespace vqm::vulkan
