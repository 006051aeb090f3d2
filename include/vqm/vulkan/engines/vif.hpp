// Vulkan schedule of VMAF's integer VIF (SPEC-vmaf Part I): per frame, the pyramid (vif_down.comp: scales
// 1..3 of both pictures, one uint per sample) and the statistics of each scale (vif_stats.comp: vertical and
// horizontal passes fused in 32×8 tiles, moments, the per-pixel double stage, the four exact integer sums
// per tile), then reduce_u64 to the 16 sums of vif_partials. Stage s runs scale s's statistics beside the
// downsampling s → s+1; the statistics of scale s also leave the last-row line the one-column rule of §4.3
// needs at scale s+1, so every size the metric accepts is exact. Two requests that differ only in the gain
// limit (VMAF and NEG in one run) share one program: NL at the second limit is a fifth sum per scale.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/tables/vif.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/reduce_u64.hpp"
#include "vqm/vulkan/spirv/vif_down.hpp"
#include "vqm/vulkan/spirv/vif_stats.hpp"

namespace vqm::vulkan {

namespace detail {

// What every VIF program shares, built once per device: the LOG table T[32768..65535] (§9) as uint16 pairs
// in a storage buffer, from vqm/tables/vif.hpp, and the pipelines, specialised per scale with its kernel.
struct vif_shared {
  explicit vif_shared(const context& ctx) : table(ctx, 32768 * 2, memory_kind::device_local) {
    const auto& t = tables::vif_log2_table();
    buffer up(ctx, 32768 * 2, memory_kind::upload);
    std::memcpy(up.data(), t.data() + 32768, 32768 * 2);  // little-endian uint16: entry e at halfword e
    up.flush();
    one_shot cmd(ctx);
    const VkBufferCopy all{0, 0, 32768 * 2};
    ctx.fn().vkCmdCopyBuffer(cmd, up, table, 1, &all);
    transfer_to_compute(ctx, cmd);
    cmd.submit_and_wait();
    for (int s = 0; s < 4; ++s)
      stats[static_cast<std::size_t>(s)] =
          compute_pipeline(ctx, spirv::vif_stats, bindings, sizeof(stats_push), stats_spec(s));
    for (int s = 0; s < 3; ++s)
      down[static_cast<std::size_t>(s)] = compute_pipeline(ctx, spirv::vif_down, bindings, sizeof(down_push),
                                                           spec<spirv::vif_down_constants>(s + 1, s));
  }

  static constexpr std::uint32_t bindings = 4;  // pics, partial, pyramid, LOG table
  struct stats_push {
    double limit, limit2;
    std::uint32_t in_off[2], stride, w, h, bpc, prev_off[2], prev_w, stale_off, partial_base, groups, two;
  };
  struct down_push {
    std::uint32_t in_off[2], in_stride, in_w, in_h, bpc, out_off[2], out_w, out_h;
  };
  static_assert(sizeof(stats_push) == 72 && sizeof(down_push) == 40);

  buffer table;
  std::array<compute_pipeline, 4> stats;
  std::array<compute_pipeline, 3> down;

 private:
  // Kernel F(filter) as the taps C0.. and their half-width HALF, and the scale the shader reads (K: the
  // shader's constants, spirv::<stem>_constants).
  template <class K>
  static specialization spec(int filter, int scale) {
    const auto f = tables::vif_filter_of(filter);
    specialization sp;
    for (int k = 0; k <= 2 * f.half; ++k) sp.set(K::c[static_cast<std::size_t>(k)], f.taps[k]);
    sp.set(K::half, f.half).set(K::scale, scale);
    return sp;
  }
  // vif_stats also reads the division guard EPS and σ_n² (NSQ).
  static specialization stats_spec(int scale) {
    using K = spirv::vif_stats_constants;
    return spec<K>(scale, scale).set(K::eps, tables::vif_eps).set(K::nsq, tables::vif_sigma_nsq);
  }
};

// Gain limits seen by this process, so that a program key (an integer) names one: id = skip + 2·index, plus
// (1 + the second limit's index) << 16 for a program that serves two limits.
[[nodiscard]] inline bool same_limit(double a, double b) noexcept { return a == b; }
using vif_limits = request_registry<double, same_limit>;

}  // namespace detail

class vif_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<vif_program>(env, id);
  }
  [[nodiscard]] static program_key key(const vif_request& q) {
    return {&make, 2 * detail::vif_limits::index(q.gain_limit) + (q.skip_scale0 ? 1u : 0u), 0};
  }
  // The program of `one` (a key of key()) that also serves gain limit b, or `one` itself where the
  // registry's indices do not fit.
  [[nodiscard]] static program_key key_two(const program_key& one, double b) {
    const std::uint32_t ib = detail::vif_limits::index(b);
    if (one.id >= 0x10000 || ib >= 0x7fff) return one;
    return {&make, one.id | ((ib + 1) << 16), 0};
  }
  [[nodiscard]] static bool serves_one(const program_key& k) noexcept { return k.make == &make && (k.id >> 16) == 0; }
  [[nodiscard]] static bool skips_scale0(const program_key& k) noexcept { return (k.id & 1u) != 0; }

  vif_program(program_env& env, std::uint32_t id)
      : env_(env), l_(env.layout), sh_(env.shared.get<detail::vif_shared>()),
        limit_(detail::vif_limits::at((id & 0xffff) / 2)), skip0_((id & 1u) != 0), two_((id >> 16) != 0),
        limit2_(two_ ? detail::vif_limits::at((id >> 16) - 1) : limit_), sums_(two_ ? 5 : 4) {
    reduce_ = &env.shared.pipeline(spirv::reduce_u64, 3, 12);
    w_[0] = l_.width[0];
    h_[0] = l_.height[0];
    std::uint32_t words = 0, partials = 0;
    for (int s = 0; s < 4; ++s) {
      if (s > 0) {
        w_[s] = w_[s - 1] / 2;
        h_[s] = h_[s - 1] / 2;
        for (auto& o : off_[s]) {
          o = words;
          words += w_[s] * h_[s];
        }
      }
      if (!computed(s)) continue;
      groups_x_[s] = div_up(w_[s], 32);  // vif_stats tiles: 32×8
      groups_[s] = groups_x_[s] * div_up(h_[s], 8);
      base_[s] = partials;
      partials += sums_ * groups_[s];
    }
    stale_off_ = words;
    pyr_words_ = words + 4 * 5 * 4;
    partials_ = std::max<std::uint32_t>(partials, 1);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, 2 * slots, (detail::vif_shared::bindings + 3) * slots);
    pyr_.resize(slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
    reduce_sets_.resize(slots, VK_NULL_HANDLE);
  }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    pyr_[s] = buffer(env_.ctx, std::uint64_t{pyr_words_} * 4, memory_kind::device_local);
    partial_[s] = buffer(env_.ctx, std::uint64_t{partials_} * 8, memory_kind::device_local);
    const VkDescriptorBufferInfo input{env_.buffers.input[s], 0, VK_WHOLE_SIZE};
    sets_[s] = pool_.allocate(sh_.stats[0].set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {input, partial_[s].range(), pyr_[s].range(), VkDescriptorBufferInfo{sh_.table, 0, VK_WHOLE_SIZE}});
    reduce_sets_[s] = pool_.allocate(reduce_->set_layout());
    write_storage_buffers(env_.ctx, reduce_sets_[s],
                          {input, partial_[s].range(), VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 5; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4 * sums_ * 8; }
  // Sums per scale in the slice: NL, DL, NN, DN, and NL at the second limit with two().
  [[nodiscard]] std::uint32_t sums() const noexcept { return sums_; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage < 4) {
      const int s = stage;
      if (s < 3 && exists(s + 1)) downsample(cb, slot, s);
      if (computed(s)) statistics(cb, slot, s);
      return;
    }
    for (int s = 0; s < 4; ++s) {
      if (!computed(s)) continue;
      const struct {
        std::uint32_t count, in_base, out_base;
      } pc{groups_[s], base_[s], result_offset / 8 + sums_ * static_cast<std::uint32_t>(s)};
      reduce_->bind(cb, reduce_sets_[slot]);
      reduce_->push(cb, pc);
      reduce_->dispatch(cb, 1, 1, sums_);
    }
  }

  // Scale s has pixels (every later scale is empty once one is).
  [[nodiscard]] bool exists(int s) const noexcept { return w_[s] > 0 && h_[s] > 0; }
  // Scale s's statistics run (its sums are in the slice); otherwise they are zero.
  [[nodiscard]] bool computed(int s) const noexcept {
    for (int t = 0; t <= s; ++t)
      if (!exists(t)) return false;
    return !(s == 0 && skip0_);
  }

 private:
  // Where scale s's images are (binding 0 at scale 0, the pyramid above) and their row length.
  void image(int s, std::uint32_t (&off)[2], std::uint32_t& stride) const noexcept {
    if (s == 0) {
      off[0] = l_.word(0, 0);
      off[1] = l_.word(1, 0);
      stride = l_.stride_words(0);
    } else {
      off[0] = off_[s][0];
      off[1] = off_[s][1];
      stride = w_[s];
    }
  }
  void downsample(VkCommandBuffer cb, std::size_t slot, int s) {
    detail::vif_shared::down_push pc{};
    image(s, pc.in_off, pc.in_stride);
    pc.in_w = w_[s];
    pc.in_h = h_[s];
    pc.bpc = l_.format.bit_depth;
    pc.out_off[0] = off_[s + 1][0];
    pc.out_off[1] = off_[s + 1][1];
    pc.out_w = w_[s + 1];
    pc.out_h = h_[s + 1];
    const auto& p = sh_.down[static_cast<std::size_t>(s)];
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, div_up(pc.out_w, 16), div_up(pc.out_h, 16));
  }
  void statistics(VkCommandBuffer cb, std::size_t slot, int s) {
    detail::vif_shared::stats_push pc{};
    pc.limit = limit_;
    pc.limit2 = limit2_;
    pc.two = two_ ? 1 : 0;
    image(s, pc.in_off, pc.stride);
    pc.w = w_[s];
    pc.h = h_[s];
    pc.bpc = l_.format.bit_depth;
    if (s > 0) {
      pc.prev_off[0] = off_[s - 1][0];  // the one-row rule only arises at s = 3 (h ≥ 8)
      pc.prev_off[1] = off_[s - 1][1];
      pc.prev_w = w_[s - 1];
    }
    pc.stale_off = stale_off_;
    pc.partial_base = base_[s];
    pc.groups = groups_[s];
    const auto& p = sh_.stats[static_cast<std::size_t>(s)];
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, groups_x_[s], groups_[s] / groups_x_[s]);
  }

  program_env& env_;
  detail::frame_layout l_;
  detail::vif_shared& sh_;
  double limit_;
  bool skip0_, two_;
  double limit2_;
  std::uint32_t sums_;
  const compute_pipeline* reduce_ = nullptr;
  std::array<std::uint32_t, 4> w_{}, h_{}, groups_x_{}, groups_{}, base_{};
  std::array<std::array<std::uint32_t, 2>, 4> off_{};  // [scale][pic], uints into the pyramid (scales 1..3)
  std::uint32_t stale_off_ = 0, pyr_words_ = 0, partials_ = 1;
  descriptor_pool pool_;
  std::vector<buffer> pyr_, partial_;
  std::vector<VkDescriptorSet> sets_, reduce_sets_;
};

struct vif_engine {
  void vif(frame& f, const vif_request& q, vif_partials& out) const {
    require_int64(f, "vif", "exact integer sums");
    require_float64(f, "vif", "libvmaf's per-pixel double arithmetic");
    // VMAF and NEG: a job for the same skip_scale0 at another gain limit takes this one over.
    const bool joined = f.join([&](job& j) {
      if (!vif_program::serves_one(j.key) || vif_program::skips_scale0(j.key) != q.skip_scale0) return false;
      const program_key two = vif_program::key_two(j.key, q.gain_limit);
      if (two.id == j.key.id) return false;
      j.key = two;
      j.out2 = &out;
      return true;
    });
    if (!joined) f.add({.key = vif_program::key(q), .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    const auto& prog = static_cast<const vif_program&>(p);
    const std::uint32_t n = prog.sums();
    for (int s = 0; s < 4; ++s) {
      std::int64_t v[5] = {};
      if (prog.computed(s)) std::memcpy(v, slice + 8 * n * static_cast<std::uint32_t>(s), 8 * n);
      static_cast<vif_partials*>(j.out)->scale[static_cast<std::size_t>(s)] = {v[0], v[1], v[2], v[3]};
      if (j.out2) static_cast<vif_partials*>(j.out2)->scale[static_cast<std::size_t>(s)] = {v[4], v[1], v[2], v[3]};
    }
  }
};

}  // namespace vqm::vulkan
