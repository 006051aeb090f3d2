// The GPU work of each metric kernel for one frame format: per-slot scratch buffers and descriptor sets
// created once, and the dispatches recorded stage by stage (the backend records stage i of every engine
// of a frame, then one barrier, so independent metrics overlap on the GPU).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/tables/ssim.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/ms_ssim_decimate.hpp"
#include "vqm/vulkan/spirv/reduce_f64.hpp"
#include "vqm/vulkan/spirv/reduce_u64.hpp"
#include "vqm/vulkan/spirv/sse.hpp"
#include "vqm/vulkan/spirv/ssim_hpass.hpp"
#include "vqm/vulkan/spirv/ssim_prepare.hpp"
#include "vqm/vulkan/spirv/ssim_vpass.hpp"

namespace vqm::vulkan::detail {

[[nodiscard]] constexpr std::uint32_t div_up(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

// The per-slot buffers every engine binds.
struct slot_buffers {
  std::vector<VkBuffer> input;    // the frame pair's planes (frame_layout)
  std::vector<VkBuffer> results;  // the small result block copied to the host
};

// The pipelines, created on first use (start-up pays only for the metrics it runs).
class pipeline_set {
 public:
  explicit pipeline_set(const context& ctx) : ctx_(ctx) {}

  const compute_pipeline& sse() { return get(sse_, spirv::sse, 3, 80, {}); }
  const compute_pipeline& reduce_u64() { return get(reduce_u64_, spirv::reduce_u64, 3, 12, {}); }
  const compute_pipeline& ssim_prepare() { return get(prepare_, spirv::ssim_prepare, 5, 48, ssim_spec()); }
  const compute_pipeline& ms_ssim_decimate() { return get(decimate_, spirv::ms_ssim_decimate, 5, 32, ssim_spec()); }
  const compute_pipeline& ssim_hpass() { return get(hpass_, spirv::ssim_hpass, 5, 20, ssim_spec()); }
  const compute_pipeline& ssim_vpass() { return get(vpass_, spirv::ssim_vpass, 5, 16, ssim_spec()); }
  const compute_pipeline& reduce_f64() { return get(reduce_f64_, spirv::reduce_f64, 5, 12, ssim_spec()); }

  // The 9x9 low-pass table (binding 4 of the SSIM family), uploaded once from vqm/tables/ssim.hpp.
  VkBuffer ssim_table() {
    if (!table_) {
      constexpr auto& t = tables::ms_ssim_lowpass;
      buffer up(ctx_, 81 * sizeof(float), memory_kind::upload);
      for (int i = 0; i < 81; ++i) up.as<float>()[i] = t[static_cast<std::size_t>(i / 9)][static_cast<std::size_t>(i % 9)];
      up.flush();
      table_.emplace(ctx_, 81 * sizeof(float), memory_kind::device_local);
      one_shot cmd(ctx_);
      const VkBufferCopy all{0, 0, 81 * sizeof(float)};
      ctx_.fn().vkCmdCopyBuffer(cmd, up, *table_, 1, &all);
      transfer_to_compute(ctx_, cmd);
      cmd.submit_and_wait();
    }
    return *table_;
  }

 private:
  // The 11-tap window and C1..C3 as specialization constants 0..13 (never retyped: from tables/ssim.hpp).
  static specialization ssim_spec() {
    specialization s;
    for (std::uint32_t k = 0; k < 11; ++k) s.set(k, tables::ssim_window[k]);
    s.set(11u, tables::ssim_c1).set(12u, tables::ssim_c2).set(13u, tables::ssim_c3);
    return s;
  }
  template <std::size_t N>
  const compute_pipeline& get(std::optional<compute_pipeline>& p, const std::uint32_t (&code)[N], std::uint32_t bindings,
                              std::uint32_t push, const specialization& spec) {
    if (!p) p.emplace(ctx_, std::span<const std::uint32_t>(code, N), bindings, push, spec);
    return *p;
  }

  const context& ctx_;
  std::optional<compute_pipeline> sse_, reduce_u64_, prepare_, decimate_, hpass_, vpass_, reduce_f64_;
  std::optional<buffer> table_;
};

class engine {
 public:
  virtual ~engine() = default;
  [[nodiscard]] virtual int stages() const noexcept = 0;
  virtual void record(VkCommandBuffer cb, std::size_t slot, int stage) = 0;
  [[nodiscard]] virtual std::uint32_t result_bytes() const noexcept = 0;
  [[nodiscard]] virtual bool uses_chroma() const noexcept { return false; }
  // Creates slot `slot`'s scratch and descriptor set on its first frame (the slot's input and results
  // buffers exist by then): start-up pays for one slot only.
  virtual void ensure(std::size_t slot) = 0;
  std::uint32_t result_offset = 0;  // bytes into the results buffer, assigned by the backend
};

// Exact Σ (a − b)² per plane in uint64 (psnr; float_psnr with round24 at 16 bits).
class sse_engine final : public engine {
 public:
  sse_engine(const context& ctx, pipeline_set& pipes, const frame_layout& l, const slot_buffers& sb, int planes,
             bool round24)
      : ctx_(ctx), pipes_(pipes), l_(l), sb_(sb), planes_(planes), round24_(round24) {
    const std::uint32_t spw = l.bps == 1 ? 4 : 2;
    const std::uint32_t wpr = div_up(l.width[0], spw);
    rows_ = std::max<std::uint32_t>(1, 4096 / std::max<std::uint32_t>(wpr, 1));  // ~16 words per thread
    groups_ = div_up(l.height[0], rows_);
    pipes.sse();
    pipes.reduce_u64();
    pool_ = descriptor_pool(ctx, static_cast<std::uint32_t>(sb.input.size()), 3 * static_cast<std::uint32_t>(sb.input.size()));
    partial_.resize(sb.input.size());
    sets_.resize(sb.input.size(), VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    partial_[s] = buffer(ctx_, std::uint64_t{groups_} * 3 * 8, memory_kind::device_local);
    sets_[s] = pool_.allocate(pipes_.sse().set_layout());
    write_storage_buffers(ctx_, sets_[s], {VkDescriptorBufferInfo{sb_.input[s], 0, VK_WHOLE_SIZE}, partial_[s].range(),
                                           VkDescriptorBufferInfo{sb_.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 3 * 8; }
  [[nodiscard]] bool uses_chroma() const noexcept override { return planes_ > 1; }
  [[nodiscard]] int planes() const noexcept { return planes_; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) {
      struct {
        std::uint32_t ref_off[3], dis_off[3], stride[3], width[3], height[3];
        std::uint32_t bpc, rows_per_group, groups, round24, partial_base;
      } pc{};
      for (int p = 0; p < planes_; ++p) {
        pc.ref_off[p] = l_.word(0, p);
        pc.dis_off[p] = l_.word(1, p);
        pc.stride[p] = l_.stride_words(p);
        pc.width[p] = l_.width[p];
        pc.height[p] = l_.height[p];
      }
      pc.bpc = l_.format.bit_depth;
      pc.rows_per_group = rows_;
      pc.groups = groups_;
      pc.round24 = round24_ ? 1 : 0;
      static_assert(sizeof(pc) == 80);
      const auto& p = pipes_.sse();
      p.bind(cb, sets_[slot]);
      p.push(cb, pc);
      p.dispatch(cb, groups_, 1, static_cast<std::uint32_t>(planes_));
    } else if (stage == 1) {
      const struct {
        std::uint32_t count, in_base, out_base;
      } pc{groups_, 0, result_offset / 8};
      const auto& p = pipes_.reduce_u64();
      p.bind(cb, sets_[slot]);
      p.push(cb, pc);
      p.dispatch(cb, 1, 1, static_cast<std::uint32_t>(planes_));
    }
  }

 private:
  const context& ctx_;
  pipeline_set& pipes_;
  frame_layout l_;
  const slot_buffers& sb_;
  int planes_;
  bool round24_;
  std::uint32_t rows_ = 1, groups_ = 1;
  descriptor_pool pool_;
  std::vector<buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
};

// One SSIM level inside an engine's scratch: images x, y (w·h each) and 5 filter planes ((w−10)·h each).
struct ssim_level {
  std::uint32_t w = 0, h = 0;
  std::uint32_t x_off = 0, y_off = 0, tmp_off = 0;  // floats into the scratch buffer
  std::uint32_t groups_x = 0, groups_y = 0, partial_base = 0;  // vpass workgroups, first partial slot
  [[nodiscard]] bool valid() const noexcept { return w >= 11 && h >= 11; }
  [[nodiscard]] std::uint32_t groups() const noexcept { return groups_x * groups_y; }
};

// Shared machinery of the float_ssim and float_ms_ssim engines: scratch, partials, descriptor sets and
// the hpass / vpass / reduce dispatches of one level.
class ssim_base : public engine {
 protected:
  ssim_base(const context& ctx, pipeline_set& pipes, const frame_layout& l) : ctx_(ctx), pipes_(pipes), l_(l) {}

  // Appends a level of w×h; returns its index.
  std::size_t add_level(std::uint32_t w, std::uint32_t h) {
    ssim_level lv;
    lv.w = w;
    lv.h = h;
    lv.x_off = floats_;
    lv.y_off = floats_ + w * h;
    lv.tmp_off = floats_ + 2 * w * h;
    floats_ += 2 * w * h + (lv.valid() ? 5 * (w - 10) * h : 0);
    if (lv.valid()) {
      lv.groups_x = div_up(w - 10, 16);
      lv.groups_y = div_up(h - 10, 16);
      lv.partial_base = partials_;
      partials_ += lv.groups();
    }
    levels_.push_back(lv);
    return levels_.size() - 1;
  }

  void allocate(const slot_buffers& sb) {
    sb_ = &sb;
    pipes_.ssim_prepare();
    pipes_.ssim_hpass();
    pipes_.ssim_vpass();
    pipes_.reduce_f64();
    table_ = pipes_.ssim_table();
    const auto slots = static_cast<std::uint32_t>(sb.input.size());
    pool_ = descriptor_pool(ctx_, slots, 5 * slots);
    scratch_.resize(slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }

 public:
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(ctx_, std::max<std::uint64_t>(floats_, 1) * 4, memory_kind::device_local);
    partial_[s] = buffer(ctx_, std::max<std::uint64_t>(partials_, 1) * 32, memory_kind::device_local);
    sets_[s] = pool_.allocate(pipes_.ssim_prepare().set_layout());
    write_storage_buffers(ctx_, sets_[s],
                          {VkDescriptorBufferInfo{sb_->input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           partial_[s].range(), VkDescriptorBufferInfo{sb_->results[s], 0, VK_WHOLE_SIZE},
                           VkDescriptorBufferInfo{table_, 0, VK_WHOLE_SIZE}});
  }

 protected:

  // Normalised (and box-decimated by `scale`) luma of both pictures into level `lv`.
  void prepare(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv, std::uint32_t scale) {
    struct {
      std::uint32_t in_off[2], stride, width, height, bpc, scale, ow, oh, out_off[2];
      float k;
    } pc{{l_.word(0, 0), l_.word(1, 0)}, l_.stride_words(0), l_.width[0], l_.height[0], l_.format.bit_depth, scale,
         lv.w, lv.h, {lv.x_off, lv.y_off}, 1.0f / static_cast<float>(scale * scale)};
    static_assert(sizeof(pc) == 48);
    const auto& p = pipes_.ssim_prepare();
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, div_up(lv.w, 16), div_up(lv.h, 16), 2);
  }
  void decimate(VkCommandBuffer cb, std::size_t slot, const ssim_level& from, const ssim_level& to) {
    const struct {
      std::uint32_t in_off[2], w, h, out_off[2], ow, oh;
    } pc{{from.x_off, from.y_off}, from.w, from.h, {to.x_off, to.y_off}, to.w, to.h};
    const auto& p = pipes_.ms_ssim_decimate();
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, div_up(to.w, 16), div_up(to.h, 16), 2);
  }
  void hpass(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t x_off, y_off, w, h, tmp_off;
    } pc{lv.x_off, lv.y_off, lv.w, lv.h, lv.tmp_off};
    const auto& p = pipes_.ssim_hpass();
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, div_up(lv.w - 10, 16), div_up(lv.h, 16));
  }
  void vpass(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t tmp_off, ow, h, partial_base;
    } pc{lv.tmp_off, lv.w - 10, lv.h, lv.partial_base};
    const auto& p = pipes_.ssim_vpass();
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, lv.groups_x, lv.groups_y);
  }
  // Level sums into result slot `index` (4 doubles each); an empty map leaves zeros (written by the backend).
  void reduce(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv, std::uint32_t index) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t count, in_base, out_base;
    } pc{lv.groups(), lv.partial_base, result_offset / 32 + index};
    const auto& p = pipes_.reduce_f64();
    p.bind(cb, sets_[slot]);
    p.push(cb, pc);
    p.dispatch(cb, 1);
  }

  const context& ctx_;
  pipeline_set& pipes_;
  frame_layout l_;
  std::vector<ssim_level> levels_;
  std::uint32_t floats_ = 0, partials_ = 0;
  const slot_buffers* sb_ = nullptr;
  VkBuffer table_ = VK_NULL_HANDLE;
  descriptor_pool pool_;
  std::vector<buffer> scratch_, partial_;
  std::vector<VkDescriptorSet> sets_;
};

// float_ssim at decimation factor `scale` (SPEC §4): prepare, hpass, vpass, reduce.
class ssim_engine final : public ssim_base {
 public:
  ssim_engine(const context& ctx, pipeline_set& pipes, const frame_layout& l, const slot_buffers& sb, std::uint32_t scale)
      : ssim_base(ctx, pipes, l), scale_(scale) {
    add_level(ssim_decimated(l.width[0], scale), ssim_decimated(l.height[0], scale));
    allocate(sb);
  }
  [[nodiscard]] int stages() const noexcept override { return 4; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 32; }
  [[nodiscard]] bool empty_map() const noexcept { return !levels_[0].valid(); }
  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    const auto& lv = levels_[0];
    if (!lv.valid()) return;
    switch (stage) {
      case 0: prepare(cb, slot, lv, scale_); break;
      case 1: hpass(cb, slot, lv); break;
      case 2: vpass(cb, slot, lv); break;
      case 3: reduce(cb, slot, lv, 0); break;
      default: break;
    }
  }

 private:
  std::uint32_t scale_;
};

// float_ms_ssim (SPEC §5): a 5-level pyramid; the SSIM passes of level k run beside the decimation of
// level k+1 (stage k+1: Dec2 to level k+1, hpass of level k, vpass of level k−1).
class ms_ssim_engine final : public ssim_base {
 public:
  ms_ssim_engine(const context& ctx, pipeline_set& pipes, const frame_layout& l, const slot_buffers& sb)
      : ssim_base(ctx, pipes, l) {
    for (int k = 0; k < 5; ++k) add_level(ms_ssim_level_size(l.width[0], k), ms_ssim_level_size(l.height[0], k));
    pipes.ms_ssim_decimate();
    allocate(sb);
  }
  [[nodiscard]] int stages() const noexcept override { return 8; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 5 * 32; }
  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) prepare(cb, slot, levels_[0], 1);
    if (stage >= 1 && stage <= 4) decimate(cb, slot, levels_[stage - 1], levels_[stage]);
    if (stage >= 1 && stage <= 5) hpass(cb, slot, levels_[stage - 1]);
    if (stage >= 2 && stage <= 6) vpass(cb, slot, levels_[stage - 2]);
    if (stage == 7)
      for (std::uint32_t k = 0; k < 5; ++k) reduce(cb, slot, levels_[k], k);
  }
};

}  // namespace vqm::vulkan::detail
