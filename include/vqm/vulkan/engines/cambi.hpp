// Vulkan schedule of cambi (cambi.comp, SPEC-vmaf-v1 A.5–A.10). The GPU does the integer work and the
// binary32 c-values of the distorted (and, with full_ref, the reference): round 0 the 10-bit image, 1 the
// flat counts along rows and the range check, 2 scale 0 (mask, decimation, mode filter), 3–6 the c-values
// of scale t−3 beside scale t−2, 7 the c-values of scale 4. The c-values land in a per-slot host-visible buffer; the host pools them with
// the host algorithm's top-k selection (cambi_model::top_k_mean), whose double sum follows libvmaf's
// quickselect order, so the scores are the Cpu kernel's bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vqm/metrics/cambi.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/cambi.hpp"

namespace vqm::vulkan {

namespace detail {
[[nodiscard]] inline bool same_cambi_request(const cambi_request& a, const cambi_request& b) noexcept {
  return a.tvi == b.tvi && a.vlt_luma == b.vlt_luma && a.num_diffs == b.num_diffs && a.window == b.window &&
         a.src_window == b.src_window && a.enc_width == b.enc_width && a.enc_height == b.enc_height &&
         a.src_width == b.src_width && a.src_height == b.src_height && a.enc_bit_depth == b.enc_bit_depth &&
         a.topk == b.topk && a.high_res == b.high_res && a.full_ref == b.full_ref;
}
using cambi_requests = request_registry<cambi_request, same_cambi_request>;
}  // namespace detail

class cambi_program final : public program {
 public:
  struct push {
    std::uint32_t mode, w, h, in_w, in_h, src, dst, stride, bpc, flag, xmap, ymap, hist, rows, pad, base, band, diffs,
        vlt, res_word, slot;
    std::int32_t mask_index;
  };
  static constexpr std::uint32_t lut_words = cambi_model::lut_size, tvi_words = 32, weight_words = 32;
  static constexpr std::uint64_t hist_budget = 32u << 20;  // bytes of histograms an image may use per scale

  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<cambi_program>(env, id);
  }

  cambi_program(program_env& env, std::uint32_t id) : env_(env), l_(env.layout), q_(detail::cambi_requests::at(id)) {
    pipe_ = &env.shared.pipeline(spirv::cambi, 5, sizeof(push));
    images_ = q_.full_ref ? 2 : 1;
    base_ = std::max(0, q_.vlt_luma - 3 * q_.num_diffs + 1);
    band_ = q_.tvi[q_.num_diffs - 1u] + 1 - base_;
    std::vector<std::uint32_t> consts(lut_words + tvi_words + weight_words);
    std::memcpy(consts.data(), cambi_model::reciprocals().data(), lut_words * 4);
    for (std::uint32_t d = 0; d < 32; ++d) {
      consts[lut_words + d] = q_.tvi[d];
      consts[lut_words + tvi_words + d] = static_cast<std::uint32_t>(cambi_model::contrast_weights[d]);
    }
    std::uint32_t scratch = 0, cvals = 0;
    for (int i = 0; i < images_; ++i) {
      auto& g = img_[i];
      g.full_w = i == 0 ? q_.enc_width : q_.src_width;
      g.full_h = i == 0 ? q_.enc_height : q_.src_height;
      g.window = i == 0 ? q_.window : q_.src_window;
      std::vector<std::uint32_t> map;
      for (const bool rows : {false, true}) {
        cambi_model::nearest_indices(rows ? l_.height[0] : l_.width[0], rows ? g.full_h : g.full_w, map);
        (rows ? g.ymap : g.xmap) = static_cast<std::uint32_t>(consts.size());
        consts.insert(consts.end(), map.begin(), map.end());
      }
      g.base = scratch;
      scratch += g.full_w * g.full_h;
      g.flat = scratch;
      scratch += g.full_w * g.full_h;
      std::uint64_t hist_words = 0;
      for (int s = 0; s < 5; ++s) {
        const std::uint32_t pw = s == 0 ? g.full_w : g.w[s - 1], ph = s == 0 ? g.full_h : g.h[s - 1];
        g.w[s] = (s > 0 || q_.high_res) ? (pw + 1) >> 1 : pw;
        g.h[s] = (s > 0 || q_.high_res) ? (ph + 1) >> 1 : ph;
        g.img[s] = scratch;
        scratch += g.w[s] * g.h[s];
        g.cval[s] = cvals;
        cvals += g.w[s] * g.h[s];
        // Bands of rows (one thread each per column): as many as the budget allows, at least 64 rows (each
        // band adds and removes a window of rows it does not score).
        const std::uint64_t band_words = std::uint64_t{(band_ + 1u) / 2u} * g.w[s];
        const std::uint64_t most = std::max<std::uint64_t>(1, hist_budget / 4 / band_words);
        const auto bands = static_cast<std::uint32_t>(std::min<std::uint64_t>(most, div_up(g.h[s], 64)));
        g.rows[s] = div_up(g.h[s], bands);
        g.bands[s] = div_up(g.h[s], g.rows[s]);
        hist_words = std::max(hist_words, band_words * g.bands[s]);
      }
      g.hist = scratch;
      scratch += static_cast<std::uint32_t>(hist_words);
      const int flat_index = ceil_log2((g.full_w >> 6) * (g.full_h >> 6));
      g.mask_index = (49 + 3 * (flat_index - 11) - 1) >> 1;
    }
    scratch_words_ = scratch;
    cval_floats_ = cvals;
    // Device-local, read by every c-value: copied once through a staging buffer.
    const std::uint64_t bytes = consts.size() * 4;
    consts_ = buffer(env.ctx, bytes, memory_kind::device_local);
    buffer up(env.ctx, bytes, memory_kind::upload);
    std::memcpy(up.data(), consts.data(), bytes);
    up.flush();
    one_shot cmd(env.ctx);
    const VkBufferCopy all{0, 0, bytes};
    env.ctx.fn().vkCmdCopyBuffer(cmd, up, consts_, 1, &all);
    transfer_to_compute(env.ctx, cmd);
    cmd.submit_and_wait();
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 5 * slots);
    scratch_.resize(slots);
    cvals_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(env_.ctx, std::uint64_t{scratch_words_} * 4, memory_kind::device_local);
    cvals_[s] = buffer(env_.ctx, std::uint64_t{cval_floats_} * 4, memory_kind::readback);
    {  // the histograms start at 0 and every band leaves them so
      one_shot cmd(env_.ctx);
      env_.ctx.fn().vkCmdFillBuffer(cmd, scratch_[s], 0, VK_WHOLE_SIZE, 0);
      transfer_to_compute(env_.ctx, cmd);
      cmd.submit_and_wait();
    }
    sets_[s] = pool_.allocate(pipe_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           consts_.range(), cvals_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 8; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 3 * 4; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t slot, int t) override {
    pipe_->bind(cb, sets_[slot]);
    for (int i = 0; i < images_; ++i) {
      const auto& g = img_[i];
      const int pic = i == 0 ? 1 : 0;  // the distorted at the encode's size, the reference at the source's
      if (t == 0) {
        push p = base(slot);
        p.mode = 0;
        p.w = g.w0();
        p.h = g.h0();
        p.src = l_.word(pic, 0);
        p.stride = l_.stride_words(0);
        p.flag = q_.enc_bit_depth < 10 ? 1 : 0;
        p.xmap = g.xmap;
        p.ymap = g.ymap;
        p.dst = g.base;
        run(cb, p, div_up(p.w, 8), div_up(p.h, 8));
        continue;
      }
      if (t == 1) {  // the flat counts along rows of the 10-bit image
        push p = base(slot);
        p.mode = 4;
        p.w = g.w0();
        p.h = g.h0();
        p.src = g.base;
        p.dst = g.flat;
        run(cb, p, div_up(p.w, 8), div_up(p.h, 8));
      }
      if (t == 1 && l_.format.bit_depth > 8 && l_.format.bit_depth < 16) {
        push p = base(slot);
        p.mode = 1;
        p.w = l_.width[0];
        p.h = l_.height[0];
        p.src = l_.word(pic, 0);
        p.stride = l_.stride_words(0);
        p.flag = 1 + static_cast<std::uint32_t>(i);
        run(cb, p, div_up(p.w, 8), div_up(p.h, 8));
      }
      if (const int s = t - 2; s >= 0 && s <= 4) {  // scale s from s − 1 (scale 0: from the 10-bit image)
        push p = base(slot);
        p.mode = 2;
        p.w = g.w[s];
        p.h = g.h[s];
        p.in_w = s == 0 ? g.w0() : g.w[s - 1];
        p.in_h = s == 0 ? g.h0() : g.h[s - 1];
        p.src = s == 0 ? g.base : g.img[s - 1];
        p.dst = g.img[s];
        p.flag = (s > 0 || q_.high_res) ? 1 : 0;
        p.mask_index = s == 0 ? g.mask_index : -1000;
        p.hist = g.flat;
        run(cb, p, div_up(p.w, 8), div_up(p.h, 8));
      }
      if (const int s = t - 3; s >= 0) {  // the c-values of scale s
        push p = base(slot);
        p.mode = 3;
        p.w = g.w[s];
        p.h = g.h[s];
        p.src = g.img[s];
        p.dst = g.cval[s];
        p.hist = g.hist;
        p.rows = g.rows[s];
        p.pad = static_cast<std::uint32_t>(g.window >> 1);
        run(cb, p, div_up(p.w, 8), div_up(g.bands[s], 8));
      }
    }
  }

  // The unclipped score of image i (0 distorted, 1 reference) from slot `slot`'s c-values.
  [[nodiscard]] double score(std::size_t slot, int i) const {
    const auto& g = img_[i];
    const auto& c = cvals_.at(slot);
    c.invalidate();
    thread_local std::vector<float> v;
    double s = 0.0;
    for (int k = 0; k < 5; ++k) {
      const std::size_t n = std::size_t{g.w[k]} * g.h[k];
      v.resize(n);
      std::memcpy(v.data(), c.as<const float>() + g.cval[k], n * 4);
      s = cambi_model::add_scale(s, k, cambi_model::top_k_mean(v.data(), static_cast<int>(n), q_.topk));
    }
    return cambi_model::pooled(s, g.window);
  }
  [[nodiscard]] bool full_ref() const noexcept { return q_.full_ref; }

 private:
  struct image {
    std::array<std::uint32_t, 5> w{}, h{}, img{}, cval{}, rows{}, bands{};
    std::uint32_t base = 0, flat = 0, hist = 0, xmap = 0, ymap = 0;
    std::uint32_t full_w = 0, full_h = 0;
    int window = 0, mask_index = 0;
    [[nodiscard]] std::uint32_t w0() const noexcept { return full_w; }
    [[nodiscard]] std::uint32_t h0() const noexcept { return full_h; }
  };
  [[nodiscard]] static int ceil_log2(std::uint32_t n) {
    int s = 0;
    for (std::uint32_t t = n == 0 ? 0 : n - 1; t > 0; t >>= 1) ++s;
    return s;
  }
  push base(std::size_t slot) const {
    push p{};
    p.bpc = l_.format.bit_depth;
    p.base = static_cast<std::uint32_t>(base_);
    p.band = static_cast<std::uint32_t>(band_);
    p.diffs = q_.num_diffs;
    p.vlt = q_.vlt_luma;
    p.res_word = result_offset / 4;
    p.slot = static_cast<std::uint32_t>(slot);
    p.mask_index = -1000;
    return p;
  }
  void run(VkCommandBuffer cb, const push& p, std::uint32_t gx, std::uint32_t gy) {
    pipe_->push(cb, p);
    pipe_->dispatch(cb, gx, gy, 1);
  }

  program_env& env_;
  detail::frame_layout l_;
  cambi_request q_;
  const compute_pipeline* pipe_ = nullptr;
  int images_ = 1, base_ = 0, band_ = 0;
  std::array<image, 2> img_{};
  std::uint32_t scratch_words_ = 0, cval_floats_ = 0;
  buffer consts_;
  descriptor_pool pool_;
  std::vector<buffer> scratch_, cvals_;
  std::vector<VkDescriptorSet> sets_;
};

struct cambi_engine {
  void cambi(frame& f, const cambi_request& q, cambi_partials& out) const {
    f.add({.key = {&cambi_program::make, detail::cambi_requests::index(q), 0},
           .decode = &decode,
           .out = &out,
           .arg = {static_cast<std::uint32_t>(f.dis().format.width),
                   static_cast<std::uint32_t>(f.dis().format.bit_depth)}});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    const auto& prog = static_cast<const cambi_program&>(p);
    auto& o = *static_cast<cambi_partials*>(j.out);
    std::uint32_t r[3];
    std::memcpy(r, slice, sizeof r);
    for (int i = 1; i < 3; ++i)
      if (r[i] != 0xFFFFFFFFu) {
        const std::uint32_t w = j.arg[0];
        throw error(errc::bad_input, "cambi: the " + std::string(i == 1 ? "distorted" : "reference") +
                                         " luma sample at (" + std::to_string(r[i] % w) + ", " +
                                         std::to_string(r[i] / w) + ") exceeds " + std::to_string(j.arg[1]) +
                                         "-bit range (libvmaf refuses the frame); check the input's bit depth");
      }
    o.dis = prog.score(r[0], 0);
    o.src = prog.full_ref() ? prog.score(r[0], 1) : 0.0;
  }
};

}  // namespace vqm::vulkan
