// Vulkan schedule of float_adm (float_adm.comp, docs/spec-float-features.md, "float_adm"): per scale s the
// DWT of both lumas, the decoupling, the nine per-pixel cubes (num, aim, den × h, v, d), their row sums and
// the serial totals, overlapped in 8 rounds (round t: DWT of t, decoupling of t−1, cubes of t−2, rows of
// t−3, totals of t−4). The GPU returns each band's binary32 cube sum; the roots, the noise floor and the
// sum of the bands run on the host (fadm::scale_total, as the Cpu kernel). libvmaf's DIVS reads the RCPSS
// table of the request (adm_rcp) from a buffer; adm_rcp=exact divides correctly rounded.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/metrics/float_adm.hpp"
#include "vqm/metrics/float_adm_parts.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_adm.hpp"

namespace vqm::vulkan {

namespace detail {
[[nodiscard]] inline bool same_float_adm_request(const float_adm_request& a, const float_adm_request& b) noexcept {
  return std::memcmp(a.factor, b.factor, sizeof a.factor) == 0 && a.enhn_gain_limit == b.enhn_gain_limit &&
         a.noise_weight == b.noise_weight && a.p_norm == b.p_norm && a.bypass_cm == b.bypass_cm &&
         a.skip_scale0 == b.skip_scale0 && a.rcp == b.rcp;
}
using float_adm_requests = request_registry<float_adm_request, same_float_adm_request>;

// The shader derives the high-pass taps from the low-pass ones.
static_assert(fadm::hi[0] == fadm::lo[3] && fadm::hi[1] == -fadm::lo[2] && fadm::hi[2] == fadm::lo[1] &&
              fadm::hi[3] == -fadm::lo[0]);
}  // namespace detail

class float_adm_program final : public program {
 public:
  struct push {
    double egl, by30, by15;
    std::uint32_t mode, w, h, in_w, in_h, in_stride, bpc, src[2], dst[2];
    std::int32_t l, t, r, b;
    float factor[3], cos1_sq;
    std::uint32_t flags;
    float lo[4], eps;
    std::uint32_t pad;
  };
  static_assert(sizeof(push) == 128);
  static constexpr std::uint32_t terms = 9;  // num h, v, d; aim h, v, d; den h, v, d

  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<float_adm_program>(env, id);
  }

  float_adm_program(program_env& env, std::uint32_t id)
      : env_(env), l_(env.layout), q_(detail::float_adm_requests::at(id)) {
    pipe_ = &env.shared.pipeline(spirv::float_adm, 4, sizeof(push));
    std::uint32_t off = 0, w = l_.width[0], h = l_.height[0];
    for (std::size_t s = 0; s < 4; ++s) {
      auto& g = scale_[s];
      g.in_w = w;
      g.in_h = h;
      g.w = (w + 1) / 2;
      g.h = (h + 1) / 2;
      g.inner = fadm::border(static_cast<int>(g.w), static_cast<int>(g.h));
      g.filt = fadm::border_filt(static_cast<int>(g.w), static_cast<int>(g.h));
      const std::uint32_t plane = g.w * g.h;
      const auto rw = static_cast<std::uint32_t>(g.inner.right - g.inner.left);
      const auto rh = static_cast<std::uint32_t>(g.inner.bottom - g.inner.top);
      for (auto& o : g.bands) {
        o = off;
        off += 4 * plane;
      }
      g.ra = off;
      off += 6 * plane;
      g.terms = off;
      off += terms * rw * rh;
      g.rows = off;
      off += terms * rh;
      w = g.w;
      h = g.h;
    }
    floats_ = off;
    rcp_ = buffer(env.ctx, sizeof(fadm::rcp_table), memory_kind::device_local);
    if (q_.rcp) {  // the table libvmaf's RCPSS reads, uploaded once
      buffer up(env.ctx, sizeof(fadm::rcp_table), memory_kind::upload);
      std::memcpy(up.data(), q_.rcp->data(), sizeof(fadm::rcp_table));
      up.flush();
      one_shot cmd(env.ctx);
      const VkBufferCopy all{0, 0, sizeof(fadm::rcp_table)};
      env.ctx.fn().vkCmdCopyBuffer(cmd, up, rcp_, 1, &all);
      transfer_to_compute(env.ctx, cmd);
      cmd.submit_and_wait();
    }
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 4 * slots);
    scratch_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(env_.ctx, std::uint64_t{floats_} * 4, memory_kind::device_local);
    sets_[s] = pool_.allocate(pipe_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}, rcp_.range()});
  }
  [[nodiscard]] int stages() const noexcept override { return 8; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4 * terms * 4; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t slot, int t) override {
    pipe_->bind(cb, sets_[slot]);
    if (t <= 3) dwt(cb, t);
    if (const int s = t - 1; s >= 0 && s <= 3 && computed(s)) {  // decoupling of scale s
      const auto& g = scale_[static_cast<std::size_t>(s)];
      push p = base(1, s, g.filt);
      p.src[0] = g.bands[0];
      p.src[1] = g.bands[1];
      p.dst[0] = g.ra;
      run(cb, p, div_up(g.filt.right - g.filt.left, 8), div_up(g.filt.bottom - g.filt.top, 8));
    }
    if (const int s = t - 2; s >= 0 && s <= 3 && computed(s)) {  // the cubes of scale s
      const auto& g = scale_[static_cast<std::size_t>(s)];
      push p = base(2, s, g.inner);
      p.src[0] = g.ra;
      p.src[1] = g.bands[0];
      p.dst[0] = g.terms;
      run(cb, p, div_up(g.inner.right - g.inner.left, 8), div_up(g.inner.bottom - g.inner.top, 8));
    }
    if (const int s = t - 3; s >= 0 && s <= 3 && computed(s)) {  // row sums of scale s
      const auto& g = scale_[static_cast<std::size_t>(s)];
      push p = base(3, s, g.inner);
      p.src[0] = g.terms;
      p.dst[0] = g.rows;
      run(cb, p, div_up(g.inner.bottom - g.inner.top, 8), div_up(terms, 8));
    }
    if (const int s = t - 4; s >= 0 && computed(s)) {  // totals of scale s
      const auto& g = scale_[static_cast<std::size_t>(s)];
      push p = base(4, s, g.inner);
      p.src[0] = g.rows;
      p.dst[0] = result_offset / 4 + terms * static_cast<std::uint32_t>(s);
      run(cb, p, div_up(terms, 8), 1);
    }
  }

  [[nodiscard]] bool computed(int s) const noexcept { return s > 0 || !q_.skip_scale0; }
  [[nodiscard]] const float_adm_request& request() const noexcept { return q_; }
  [[nodiscard]] fadm::region inner(int s) const noexcept { return scale_[static_cast<std::size_t>(s)].inner; }

 private:
  struct geometry {
    std::uint32_t in_w = 0, in_h = 0, w = 0, h = 0;  // DWT input and subband sizes
    fadm::region inner{}, filt{};                     // the border and filter regions of the subbands
    std::array<std::uint32_t, 2> bands{};             // ref / dis: a, h, v, d, one plane apart
    std::uint32_t ra = 0, terms = 0, rows = 0;        // r h, v, d then a h, v, d; the cubes; row sums
  };

  void dwt(VkCommandBuffer cb, int s) {
    const auto& g = scale_[static_cast<std::size_t>(s)];
    push p = base(0, s, g.inner);
    p.in_w = g.in_w;
    p.in_h = g.in_h;
    if (s == 0) {  // the lumas, flagged as word offsets into the input
      p.in_stride = l_.stride_words(0);
      p.src[0] = l_.word(0, 0) | 0x80000000u;
      p.src[1] = l_.word(1, 0) | 0x80000000u;
    } else {
      const auto& prev = scale_[static_cast<std::size_t>(s - 1)];
      p.in_stride = prev.w;
      p.src[0] = prev.bands[0];
      p.src[1] = prev.bands[1];
    }
    p.dst[0] = g.bands[0];
    p.dst[1] = g.bands[1];
    if (!computed(s)) p.flags |= 1u;
    pipe_->push(cb, p);
    pipe_->dispatch(cb, div_up(g.w, 8), div_up(g.h, 8), 2);
  }

  push base(std::uint32_t mode, int s, const fadm::region& reg) const {
    const auto& g = scale_[static_cast<std::size_t>(s)];
    push p{};
    p.egl = q_.enhn_gain_limit;
    p.by30 = fadm::one_by_30;
    p.by15 = fadm::one_by_15;
    p.mode = mode;
    p.w = g.w;
    p.h = g.h;
    p.bpc = l_.format.bit_depth;
    p.l = reg.left;
    p.t = reg.top;
    p.r = reg.right;
    p.b = reg.bottom;
    for (std::size_t k = 0; k < 3; ++k) p.factor[k] = q_.factor[s][k];
    constexpr double deg = 1.0 * 3.14159265358979323846 / 180.0;  // adm_decouple_s's cos²(1°), as the Cpu's
    p.cos1_sq = static_cast<float>(std::cos(deg) * std::cos(deg));
    p.flags = (q_.bypass_cm ? 2u : 0u) | (q_.rcp ? 0u : 4u);
    for (std::size_t k = 0; k < 4; ++k) p.lo[k] = fadm::lo[k];
    p.eps = 1e-30f;
    return p;
  }
  void run(VkCommandBuffer cb, const push& p, std::uint32_t gx, std::uint32_t gy) {
    pipe_->push(cb, p);
    pipe_->dispatch(cb, gx, gy, 1);
  }

  program_env& env_;
  detail::frame_layout l_;
  float_adm_request q_;
  const compute_pipeline* pipe_ = nullptr;
  std::array<geometry, 4> scale_{};
  std::uint32_t floats_ = 0;
  buffer rcp_;
  descriptor_pool pool_;
  std::vector<buffer> scratch_;
  std::vector<VkDescriptorSet> sets_;
};

struct float_adm_engine {
  void float_adm(frame& f, const float_adm_request& q, float_adm_partials& out) const {
    if (q.p_norm != 3.0)
      throw error(errc::unsupported_format,
                  "float_adm on Vulkan supports adm_p_norm=3 only (libvmaf's powf per pixel otherwise; use the "
                  "Cpu backend)");
    require_float64(f, "float_adm", "libvmaf's double arithmetic in the gain limit and the masking");
    f.add({.key = {&float_adm_program::make, detail::float_adm_requests::index(q), 0}, .decode = &decode, .out = &out});
  }

 private:
  // Each band's cube sums to the scale's num, den and AIM num, as the Cpu kernel ends its scales.
  static void decode(const job& j, const program& p, const std::byte* slice) {
    const auto& prog = static_cast<const float_adm_program&>(p);
    const auto& q = prog.request();
    auto& o = *static_cast<float_adm_partials*>(j.out);
    const fadm::pnorm pn{q.p_norm};
    for (int s = 0; s < 4; ++s) {
      if (!prog.computed(s)) {
        o.num[0] = o.aim[0] = 0.0f;
        o.den[0] = 1e-10f;
        continue;
      }
      float v[float_adm_program::terms];
      std::memcpy(v, slice + 4 * float_adm_program::terms * static_cast<std::size_t>(s), sizeof v);
      const float num[3] = {v[0], v[1], v[2]}, aim[3] = {v[3], v[4], v[5]}, den[3] = {v[6], v[7], v[8]};
      const auto g = prog.inner(s);
      o.num[static_cast<std::size_t>(s)] = fadm::scale_total(num, g, q.noise_weight, pn);
      o.aim[static_cast<std::size_t>(s)] = fadm::scale_total(aim, g, 0.0, pn);
      o.den[static_cast<std::size_t>(s)] = fadm::scale_total(den, g, q.noise_weight, pn);
    }
  }
};

}  // namespace vqm::vulkan
