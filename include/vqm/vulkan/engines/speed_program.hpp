// The Vulkan program of SpEED (speed_chroma: 4 images, U/V × ref/dis; speed_temporal: 2 images, the
// reference's and the distorted's frame differences). shaders/speed.comp does the per-pixel work in six
// rounds — prescale on the fly + anti-alias rows, anti-alias columns, local mean down, band, the 25 means,
// the 325 covariance sums — into a per-slot host-visible readback block (band planes + sums); the engines'
// decode runs the shared host math (metrics/speed_stats.hpp: K, eigenvalues, QR solve, entropies, score)
// on it. The result slice carries the slot's index, so decode finds the block. Taps and prescale tables
// are computed on the host (double exp/sin) and uploaded once per program.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/metrics/speed_prescale.hpp"
#include "vqm/metrics/speed_stats.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/engines/motion.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/speed.hpp"

namespace vqm::vulkan {

namespace detail {
[[nodiscard]] inline bool same_speed_request(const speed_request& a, const speed_request& b) noexcept {
  return a.width == b.width && a.height == b.height && a.scaled_width == b.scaled_width &&
         a.scaled_height == b.scaled_height && a.resample == b.resample && a.method == b.method &&
         a.kernelscale == b.kernelscale && a.sigma_nn == b.sigma_nn && a.nn_floor == b.nn_floor &&
         a.weight_var_mode == b.weight_var_mode && a.use_ref_diff == b.use_ref_diff;
}
using speed_requests = request_registry<speed_request, same_speed_request>;
}  // namespace detail

class speed_program final : public program {
 public:
  // Chroma: id = the request's index. Temporal: id = state id << 16 | request index (one program per state).
  static std::unique_ptr<program> make_chroma(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<speed_program>(env, detail::speed_requests::at(id), false);
  }
  static std::unique_ptr<program> make_temporal(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<speed_program>(env, detail::speed_requests::at(id & 0xffffu), true);
  }

  speed_program(program_env& env, const speed_request& q, bool temporal)
      : env_(env), l_(env.layout), q_(q), temporal_(temporal), images_(temporal ? 2u : 4u) {
    pipe_ = &env.shared.pipeline(spirv::speed, 6, sizeof(push));
    const speed::geometry g(q);
    wo_ = static_cast<std::uint32_t>(g.wo);
    ho_ = static_cast<std::uint32_t>(g.ho);
    const bool same = q.scaled_width == q.width && q.scaled_height == q.height;
    prescale_ = same ? 0u : (q.resample ? 2u : 1u);
    upload_tables();
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 6 * slots);
    scratch_.resize(slots);
    readback_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
    bound_.resize(slots, 0);
    at_.resize(slots);
  }

  [[nodiscard]] int stages() const noexcept override { return 6; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4; }
  [[nodiscard]] int planes() const noexcept override { return temporal_ ? 1 : l_.planes; }
  [[nodiscard]] bool temporal() const noexcept override { return temporal_; }
  [[nodiscard]] const speed_request& request() const noexcept { return q_; }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(env_.ctx, std::uint64_t{images_} * scratch_floats() * 4, memory_kind::device_local);
    readback_[s] = buffer(env_.ctx, std::uint64_t{images_} * readback_words() * 4, memory_kind::readback);
    sets_[s] = pool_.allocate(pipe_->set_layout());
    if (!temporal_) write_set(s, scratch_[s].range());
  }
  void bind(std::size_t s, const job& j) override {
    if (!temporal_) return;
    auto& hist = *static_cast<detail::motion_history*>(j.state);
    const buffer& ring = hist.ring.storage(env_.ctx);
    if (bound_[s] != hist.serial) {
      write_set(s, ring.range());
      bound_[s] = hist.serial;
    }
    at_[s] = {j.arg[0], j.arg[1], (j.arg[2] & 1u) != 0};
  }

  void record(VkCommandBuffer cb, std::size_t s, int stage) override {
    const auto& a = at_[s];
    pipe_->bind(cb, sets_[s]);
    if (temporal_ && stage == 0) {  // this frame's lumas into its ring entry
      push c = base(s);
      c.mode = 0;
      c.a_off[0] = l_.word(0, 0);
      c.a_off[1] = l_.word(1, 0);
      c.b_off[0] = a.cur;
      c.b_off[1] = a.cur + entry_plane_words();
      run(cb, c, div_up(c.stride, 64), l_.height[0], 2);
    }
    if (temporal_ && !a.computed) return;
    push p = base(s);
    p.mode = static_cast<std::uint32_t>(stage) + 1;
    if (stage == 0) run(cb, p, div_up(q_.scaled_width, 64), ho_, images_);
    else if (stage <= 3) run(cb, p, div_up(wo_, 64), ho_, images_);
    else if (stage == 4) run(cb, p, 1, 1, images_);
    else run(cb, p, div_up(325, 64), 1, images_);
  }

  // Slot s's readback block (after its frame completed): per image the band plane (wo×ho floats) then the
  // 625 covariance sums (doubles, lower triangle filled).
  [[nodiscard]] const std::byte* readback(std::size_t s) const {
    readback_.at(s).invalidate();
    return readback_[s].data();
  }
  [[nodiscard]] std::uint32_t readback_words() const noexcept { return wo_ * ho_ + 2 * 625; }

 private:
  struct push {
    std::uint32_t mode, kind, absent, w, h, sw, sh, wo, ho, bpc, stride;
    std::uint32_t a_off[4], b_off[4];
    std::uint32_t prescale, method, taps, fa, fl, slot, out_word;
  };
  static_assert(sizeof(push) == 104);
  struct position {
    std::uint32_t cur = 0, prev = 0;  // words into the ring
    bool computed = false;
  };

  [[nodiscard]] std::uint32_t scratch_floats() const noexcept {
    return ho_ * q_.scaled_width + 3 * ho_ * wo_ + 32;  // speed.comp's scratch_size()
  }
  [[nodiscard]] std::uint32_t entry_plane_words() const noexcept { return l_.stride_words(0) * l_.height[0]; }

  void write_set(std::size_t s, VkDescriptorBufferInfo ring) {
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           readback_[s].range(), ring, tables_.range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }

  // Taps (anti-alias, local mean), then the prescale tables per destination column and row: indices then
  // weights (nearest: 1 index; bilinear: low, high index, fraction; bicubic 4 / lanczos4 9 taps).
  void upload_tables() {
    const auto aa = speed::antialias_taps(q_.kernelscale), lm = speed::local_taps(q_.kernelscale);
    fa_ = static_cast<std::uint32_t>(aa.size());
    fl_ = static_cast<std::uint32_t>(lm.size());
    std::vector<std::uint32_t> t;
    const auto f = [&](float v) { t.push_back(std::bit_cast<std::uint32_t>(v)); };
    for (float v : aa) f(v);
    for (float v : lm) f(v);
    if (prescale_ == 2) {
      speed::prescale_tables pt;
      pt.prepare(static_cast<int>(q_.width), static_cast<int>(q_.height), static_cast<int>(q_.scaled_width),
                 static_cast<int>(q_.scaled_height), q_.method);
      const auto axis = [&](const std::vector<int>& near, const speed::bilinear_axis& bl, const speed::axis_taps& k) {
        std::vector<std::uint32_t> idx;
        std::vector<float> w;
        if (q_.method == scale_method::nearest) {
          for (int i : near) idx.push_back(static_cast<std::uint32_t>(i)), w.push_back(0.0f);
        } else if (q_.method == scale_method::bilinear) {
          for (std::size_t i = 0; i < bl.lo.size(); ++i) {
            idx.push_back(static_cast<std::uint32_t>(bl.lo[i]));
            idx.push_back(static_cast<std::uint32_t>(bl.hi[i]));
            w.push_back(bl.frac[i]);
            w.push_back(0.0f);
          }
        } else {
          for (int i : k.index) idx.push_back(static_cast<std::uint32_t>(i));
          w = k.weight;
        }
        t.insert(t.end(), idx.begin(), idx.end());
        for (float v : w) f(v);
      };
      taps_ = q_.method == scale_method::nearest ? 1u : q_.method == scale_method::bilinear ? 2u
                                                                                            : static_cast<std::uint32_t>(pt.tx.taps);
      axis(pt.nx, pt.bx, pt.tx);
      axis(pt.ny, pt.by, pt.ty);
    }
    const std::uint64_t bytes = t.size() * 4;
    tables_ = buffer(env_.ctx, bytes, memory_kind::device_local);
    buffer staging(env_.ctx, bytes, memory_kind::upload);
    std::memcpy(staging.data(), t.data(), bytes);
    staging.flush();
    one_shot os(env_.ctx);
    const VkBufferCopy c{0, 0, bytes};
    env_.ctx.fn().vkCmdCopyBuffer(os, staging, tables_, 1, &c);
    barrier(env_.ctx, os, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    os.submit_and_wait();
  }

  [[nodiscard]] push base(std::size_t s) const {
    push p{};
    p.kind = temporal_ ? 1u : 0u;
    p.absent = !temporal_ && l_.planes == 1 ? 1u : 0u;
    p.w = q_.width;
    p.h = q_.height;
    p.sw = q_.scaled_width;
    p.sh = q_.scaled_height;
    p.wo = wo_;
    p.ho = ho_;
    p.bpc = l_.format.bit_depth;
    const int plane = temporal_ || l_.planes == 1 ? 0 : 1;
    p.stride = l_.stride_words(plane);
    if (temporal_) {  // previous (ring) minus current (input): ref − ref, dis − (ref or dis)
      p.a_off[0] = at_[s].prev;
      p.a_off[1] = at_[s].prev + entry_plane_words();
      p.b_off[0] = l_.word(0, 0);
      p.b_off[1] = q_.use_ref_diff ? l_.word(0, 0) : l_.word(1, 0);
    } else if (l_.planes > 1) {  // U ref, U dis, V ref, V dis
      for (std::uint32_t z = 0; z < 4; ++z) p.a_off[z] = l_.word(static_cast<int>(z % 2), static_cast<int>(1 + z / 2));
    }
    p.prescale = prescale_;
    p.method = static_cast<std::uint32_t>(q_.method);
    p.taps = taps_;
    p.fa = fa_;
    p.fl = fl_;
    p.slot = static_cast<std::uint32_t>(s);
    p.out_word = result_offset / 4;
    return p;
  }
  void run(VkCommandBuffer cb, const push& p, std::uint32_t gx, std::uint32_t gy, std::uint32_t gz) {
    pipe_->push(cb, p);
    pipe_->dispatch(cb, gx, gy, gz);
  }

  program_env& env_;
  detail::frame_layout l_;
  speed_request q_;
  bool temporal_;
  std::uint32_t images_, wo_ = 0, ho_ = 0, prescale_ = 0, taps_ = 1, fa_ = 0, fl_ = 0;
  const compute_pipeline* pipe_ = nullptr;
  buffer tables_;
  descriptor_pool pool_;
  std::vector<buffer> scratch_, readback_;
  std::vector<VkDescriptorSet> sets_;
  std::vector<std::uint32_t> bound_;  // the serial of the state each slot's set points to (temporal)
  std::vector<position> at_;
};

namespace detail {
// One image's statistics from a readback block: the band plane at word `z · words`, its sums after it.
inline void speed_image(const std::byte* block, std::uint32_t z, const speed_program& p, speed::stats_scratch& ws,
                        speed::image_stats& out) {
  const auto& q = p.request();
  const speed::geometry g(q);
  const std::byte* at = block + std::size_t{z} * p.readback_words() * 4;
  double acc[625];
  std::memcpy(acc, at + g.wo * g.ho * 4, sizeof acc);
  speed::block_stats(acc, reinterpret_cast<const float*>(at), q, ws, out);
}
// The score of images (zr, zd) of slot's block; returns err_ref || err_dis.
inline bool speed_pair(const std::byte* slice, const speed_program& p, std::uint32_t zr, std::uint32_t zd,
                       float& score) {
  thread_local speed::stats_scratch ws;
  thread_local speed::image_stats r, d;
  std::uint32_t slot = 0;
  std::memcpy(&slot, slice, 4);
  const std::byte* block = p.readback(slot);
  speed_image(block, zr, p, ws, r);
  speed_image(block, zd, p, ws, d);
  return speed::pair_result(r, d, p.request(), score);
}
}  // namespace detail

}  // namespace vqm::vulkan
