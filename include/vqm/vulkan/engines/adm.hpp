// Vulkan schedule of VMAF's integer ADM (SPEC-vmaf Part II): per frame, one DWT level per scale
// (adm_dwt.comp: vertical and horizontal passes fused in 16×16 tiles, both pictures, band a chained to the
// next scale), the scoring of each scale (adm_score.comp: decoupling with the angle test and the gain
// limit, CSF, the 3×3 thresholds, the DLM/AIM masking values and the denominator values of 32×8 tiles of
// the inner region, exact int64 sums per tile row), then adm_reduce.comp: the per-row rounding shifts and
// the sums over rows into the 36 accumulators of adm_partials. Stage s runs the DWT of scale s beside the
// scoring of scale s − 1. powf and the per-scale float stage stay on the host (adm_algorithm::scores).
// Two requests that differ only in the gain limit (VMAF and NEG in one run) share one program: one DWT, the
// scoring and reduction once per limit.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/tables/adm.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/adm_dwt.hpp"
#include "vqm/vulkan/spirv/adm_reduce.hpp"
#include "vqm/vulkan/spirv/adm_score.hpp"

namespace vqm::vulkan {

namespace detail {

// What every ADM program shares, built once per device: the reciprocal table D (§7.2) from
// vqm/tables/adm.hpp in a storage buffer, and the pipelines (DWT and scoring specialised per scale).
struct adm_shared {
  static constexpr std::uint32_t bindings = 5;  // pics, bands, row partials, D, results
  static constexpr std::uint32_t tile_w = 32, tile_h = 8;  // adm_score.comp's tile
  static constexpr std::uint32_t accumulators = 9;

  struct dwt_push {
    std::uint32_t in_off[2], in_stride, in_w, in_h, bpc, out_off[2], out_w, out_h, lo_only;
  };
  struct score_push {
    double egl;
    std::uint32_t ref_off[3], dis_off[3], w, h, l, t, r, b, irf[3];
    std::int32_t cb[3];
    std::uint32_t den_c, partial_base, tiles_x, rows, skip_aim, pad;
  };
  struct reduce_push {
    std::uint32_t base[4], rows[4], tiles_x[4], num_shift[4], den_shift[4], computed, out_base;
  };
  static_assert(sizeof(dwt_push) == 44 && sizeof(score_push) == 104 && sizeof(reduce_push) == 88);

  explicit adm_shared(const context& ctx) : recip(ctx, table_bytes, memory_kind::device_local) {
    buffer up(ctx, table_bytes, memory_kind::upload);
    std::memcpy(up.data(), tables::adm::reciprocal.d.data(), table_bytes);
    up.flush();
    one_shot cmd(ctx);
    const VkBufferCopy all{0, 0, table_bytes};
    ctx.fn().vkCmdCopyBuffer(cmd, up, recip, 1, &all);
    transfer_to_compute(ctx, cmd);
    cmd.submit_and_wait();
    for (int s = 0; s < 4; ++s) {
      dwt[static_cast<std::size_t>(s)] =
          compute_pipeline(ctx, spirv::adm_dwt, bindings, sizeof(dwt_push), spec<spirv::adm_dwt_constants>(s));
      score[static_cast<std::size_t>(s)] =
          compute_pipeline(ctx, spirv::adm_score, bindings, sizeof(score_push), spec<spirv::adm_score_constants>(s));
    }
    reduce =
        compute_pipeline(ctx, spirv::adm_reduce, bindings, sizeof(reduce_push), spec<spirv::adm_reduce_constants>(0));
  }

  static constexpr std::uint64_t table_bytes = sizeof(tables::adm::reciprocal.d);
  buffer recip;
  std::array<compute_pipeline, 4> dwt, score;
  compute_pipeline reduce;

 private:
  // The constants of adm_common.glsl (K: the shader's, spirv::<stem>_constants), from vqm/tables/adm.hpp.
  template <class K>
  static specialization spec(int s) {
    namespace T = tables::adm;
    specialization sp;
    for (std::size_t k = 0; k < 4; ++k) sp.set(K::lo[k], T::lo[k]).set(K::hi[k], T::hi[k]);
    sp.set(K::lo_sum, T::lo_sum).set(K::scale, s);
    const std::size_t i = s > 0 ? static_cast<std::size_t>(s - 1) : 0;
    sp.set(K::v_round, T::v_round[i]).set(K::v_shift, T::v_shift[i]);
    sp.set(K::h_round, T::h_round[i]).set(K::h_shift, T::h_shift[i]);
    sp.set(K::f30_s0, T::f30_s0).set(K::f15_s0, T::f15_s0).set(K::f30_s, T::f30_s).set(K::f15_s, T::f15_s);
    sp.set(K::quirk_round, T::quirk_round).set(K::cos1_sq, T::cos1_sq);
    for (std::size_t b = 0; b < 3; ++b)
      sp.set(K::csf0_shift[b], T::csf0_shift[b]).set(K::csf0_round[b], T::csf0_round[b]);
    return sp;
  }
};

[[nodiscard]] inline bool same_adm_request(const adm_request& a, const adm_request& b) noexcept {
  return a.enhn_gain_limit == b.enhn_gain_limit && same_but_gain_limit(a, b);
}
using adm_requests = request_registry<adm_request, same_adm_request>;

}  // namespace detail

class adm_program final : public program {
  using sh = detail::adm_shared;

 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<adm_program>(env, id);
  }
  // id: the request's index, and in the high half 1 + the index of the second limit's request (or 0).
  [[nodiscard]] static program_key key(const adm_request& q) { return {&make, detail::adm_requests::index(q), 0}; }
  // The key of the program that also serves q with gain limit b (into adm_engine's out2).
  [[nodiscard]] static program_key key_two(const adm_request& q, double b) {
    adm_request q2 = q;
    q2.enhn_gain_limit = b;
    return {&make, detail::adm_requests::index(q) | ((detail::adm_requests::index(q2) + 1) << 16), 0};
  }
  [[nodiscard]] static bool serves_one(const program_key& k) noexcept { return k.make == &make && (k.id >> 16) == 0; }
  [[nodiscard]] static adm_request request_of(const program_key& k) { return detail::adm_requests::at(k.id & 0xffff); }

  adm_program(program_env& env, std::uint32_t id)
      : env_(env), l_(env.layout), sh_(env.shared.get<sh>()), q_(detail::adm_requests::at(id & 0xffff)),
        lims_((id >> 16) != 0 ? 2 : 1) {
    if (lims_ == 2) egl_[1] = detail::adm_requests::at((id >> 16) - 1).enhn_gain_limit;
    egl_[0] = q_.enhn_gain_limit;
    namespace T = tables::adm;
    std::uint32_t n = l_.width[0], m = l_.height[0], ints = 0, partials = 0;
    for (int s = 0; s < 4; ++s) {
      auto& g = scale_[static_cast<std::size_t>(s)];
      g.n = n;
      g.m = m;
      g.w = (n + 1) / 2;
      g.h = (m + 1) / 2;
      for (auto& o : g.off) {
        o = ints;
        ints += 4 * g.w * g.h;
      }
      g.reg = T::inner_region(static_cast<int>(g.w), static_cast<int>(g.h));
      g.rows = static_cast<std::uint32_t>(g.reg.bottom - g.reg.top);
      g.tiles_x = div_up(static_cast<std::uint32_t>(g.reg.right - g.reg.left), sh::tile_w);
      g.tiles_y = div_up(g.rows, sh::tile_h);
      if (computed(s)) {
        g.base = partials;
        partials += lims_ * sh::accumulators * g.rows * g.tiles_x;
      }
      n = g.w;
      m = g.h;
    }
    band_ints_ = ints;
    partials_ = std::max<std::uint32_t>(partials, 1);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, sh::bindings * slots);
    bands_.resize(slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    bands_[s] = buffer(env_.ctx, std::uint64_t{band_ints_} * 4, memory_kind::device_local);
    partial_[s] = buffer(env_.ctx, std::uint64_t{partials_} * 8, memory_kind::device_local);
    sets_[s] = pool_.allocate(sh_.dwt[0].set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, bands_[s].range(),
                           partial_[s].range(), VkDescriptorBufferInfo{sh_.recip, 0, VK_WHOLE_SIZE},
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 6; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return lims_ * 36 * 8; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage < 4) dwt(cb, slot, stage);
    for (std::uint32_t k = 0; k < lims_; ++k) {
      if (stage >= 1 && stage <= 4 && computed(stage - 1)) score(cb, slot, stage - 1, k);
      if (stage == 5) reduce(cb, slot, k);
    }
  }

  // Scale s is scored (its accumulators are in the slice); scale 0 is not with skip_scale0.
  [[nodiscard]] bool computed(int s) const noexcept { return !(s == 0 && q_.skip_scale0); }

 private:
  struct geometry {
    std::uint32_t n = 0, m = 0, w = 0, h = 0;  // DWT input and subband sizes
    std::array<std::uint32_t, 2> off{};         // band a of ref / dis (h, v, d follow, one plane apart)
    tables::adm::region reg;
    std::uint32_t rows = 0, tiles_x = 0, tiles_y = 0, base = 0;
  };

  void dwt(VkCommandBuffer cb, std::size_t slot, int s) {
    const auto& g = scale_[static_cast<std::size_t>(s)];
    sh::dwt_push pc{};
    if (s == 0) {
      pc.in_off[0] = l_.word(0, 0);
      pc.in_off[1] = l_.word(1, 0);
      pc.in_stride = l_.stride_words(0);
    } else {
      const auto& p = scale_[static_cast<std::size_t>(s - 1)];
      pc.in_off[0] = p.off[0];
      pc.in_off[1] = p.off[1];
      pc.in_stride = p.w;
    }
    pc.in_w = g.n;
    pc.in_h = g.m;
    pc.bpc = l_.format.bit_depth;
    pc.out_off[0] = g.off[0];
    pc.out_off[1] = g.off[1];
    pc.out_w = g.w;
    pc.out_h = g.h;
    pc.lo_only = s == 0 && q_.skip_scale0 ? 1 : 0;
    const auto& p = sh_.dwt[static_cast<std::size_t>(s)];
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, div_up(g.w, 16), div_up(g.h, 16), 2);
  }

  // The row partials of limit k follow those of limit 0 at each scale.
  [[nodiscard]] std::uint32_t base_of(const geometry& g, std::uint32_t k) const noexcept {
    return g.base + k * sh::accumulators * g.rows * g.tiles_x;
  }

  void score(VkCommandBuffer cb, std::size_t slot, int s, std::uint32_t k) {
    namespace T = tables::adm;
    const auto& g = scale_[static_cast<std::size_t>(s)];
    sh::score_push pc{};
    pc.egl = egl_[k];
    const std::uint32_t plane = g.w * g.h;
    for (std::uint32_t b = 0; b < 3; ++b) {
      pc.ref_off[b] = g.off[0] + (b + 1) * plane;
      pc.dis_off[b] = g.off[1] + (b + 1) * plane;
      pc.irf[b] = s == 0 ? q_.irf0[b] : q_.irf[s - 1][b];
    }
    pc.w = g.w;
    pc.h = g.h;
    pc.l = static_cast<std::uint32_t>(g.reg.left);
    pc.t = static_cast<std::uint32_t>(g.reg.top);
    pc.r = static_cast<std::uint32_t>(g.reg.right);
    pc.b = static_cast<std::uint32_t>(g.reg.bottom);
    for (int b = 0; b < 3; ++b)
      pc.cb[b] = s == 0 ? T::bit_length(g.w - 1) - (b == 2 ? 3 : 4) : T::ceil_log2(g.w);
    pc.den_c = static_cast<std::uint32_t>(T::ceil_log2(static_cast<std::uint64_t>(g.reg.right - g.reg.left)));
    pc.partial_base = base_of(g, k);
    pc.tiles_x = g.tiles_x;
    pc.rows = g.rows;
    pc.skip_aim = q_.skip_aim ? 1 : 0;
    const auto& p = sh_.score[static_cast<std::size_t>(s)];
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, g.tiles_x, g.tiles_y);
  }

  void reduce(VkCommandBuffer cb, std::size_t slot, std::uint32_t k) {
    namespace T = tables::adm;
    sh::reduce_push pc{};
    for (int s = 0; s < 4; ++s) {
      const auto& g = scale_[static_cast<std::size_t>(s)];
      pc.base[s] = base_of(g, k);
      pc.rows[s] = g.rows;
      pc.tiles_x[s] = g.tiles_x;
      pc.num_shift[s] = static_cast<std::uint32_t>(T::ceil_log2(g.h));
      if (s == 0) {
        const int z = T::bit_length(static_cast<std::uint64_t>(g.reg.area() - 1)) - 20;
        pc.den_shift[s] = static_cast<std::uint32_t>(z > 0 ? z : 0);
      } else {
        pc.den_shift[s] = static_cast<std::uint32_t>(T::ceil_log2(g.rows));
      }
      if (computed(s)) pc.computed |= 1u << s;
    }
    pc.out_base = result_offset / 8 + 36 * k;
    sh_.reduce.bind(cb, sets_[slot]);
    sh_.reduce.push(cb, pc);
    sh_.reduce.dispatch(cb, sh::accumulators, 1, 4);
  }

  program_env& env_;
  detail::frame_layout l_;
  sh& sh_;
  adm_request q_;
  std::uint32_t lims_;                // 1, or 2 with a second gain limit
  std::array<double, 2> egl_{};
  std::array<geometry, 4> scale_{};
  std::uint32_t band_ints_ = 0, partials_ = 1;
  descriptor_pool pool_;
  std::vector<buffer> bands_, partial_;
  std::vector<VkDescriptorSet> sets_;
};

struct adm_engine {
  void adm(frame& f, const adm_request& q, adm_partials& out) const {
    require_int64(f, "adm", "exact integer accumulators");
    require_float64(f, "adm", "libvmaf's double arithmetic in the angle test and the gain limit");
    const auto& y = f.ref().planes[0];
    if (y.width < 33 || y.height < 33)
      throw error(errc::unsupported_format, "adm needs a luma of at least 33x33 (SPEC-vmaf Part II §2), got " +
                                                std::to_string(y.width) + "x" + std::to_string(y.height));
    // VMAF and NEG: a job for the same request but its gain limit takes this one over.
    const bool joined = f.join([&](job& j) {
      if (!adm_program::serves_one(j.key)) return false;
      const adm_request first = adm_program::request_of(j.key);
      if (!same_but_gain_limit(q, first) || j.key.id >= 0x8000 || adm_program::key(q).id >= 0x8000) return false;
      j.key = adm_program::key_two(first, q.enhn_gain_limit);
      j.out2 = &out;
      return true;
    });
    if (!joined) f.add({.key = adm_program::key(q), .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    for (void* to : {j.out, j.out2}) {
      if (!to) continue;
      auto& o = *static_cast<adm_partials*>(to);
      std::memcpy(o.den, slice, sizeof o.den);
      std::memcpy(o.dlm, slice + 96, sizeof o.dlm);
      std::memcpy(o.aim, slice + 192, sizeof o.aim);
      slice += 36 * 8;
    }
  }
};

}  // namespace vqm::vulkan
