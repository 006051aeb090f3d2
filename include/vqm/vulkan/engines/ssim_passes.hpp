// What the float_ssim and float_ms_ssim programs share: the 9x9 low-pass table, the levels of a luma
// pyramid in one scratch buffer, and the prepare / decimate / hpass / vpass / reduce dispatches of a level.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/tables/ssim.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/ms_ssim_decimate.hpp"
#include "vqm/vulkan/spirv/reduce_f64.hpp"
#include "vqm/vulkan/spirv/ssim_hpass.hpp"
#include "vqm/vulkan/spirv/ssim_prepare.hpp"
#include "vqm/vulkan/spirv/ssim_vpass.hpp"

namespace vqm::vulkan::detail {

// The 9x9 low-pass table (binding 4 of the SSIM family), uploaded once from vqm/tables/ssim.hpp.
struct ssim_lowpass_table {
  explicit ssim_lowpass_table(const context& ctx) : table(ctx, 81 * sizeof(float), memory_kind::device_local) {
    constexpr auto& t = tables::ms_ssim_lowpass;
    buffer up(ctx, 81 * sizeof(float), memory_kind::upload);
    for (int i = 0; i < 81; ++i) up.as<float>()[i] = t[static_cast<std::size_t>(i / 9)][static_cast<std::size_t>(i % 9)];
    up.flush();
    one_shot cmd(ctx);
    const VkBufferCopy all{0, 0, 81 * sizeof(float)};
    ctx.fn().vkCmdCopyBuffer(cmd, up, table, 1, &all);
    transfer_to_compute(ctx, cmd);
    cmd.submit_and_wait();
  }
  buffer table;
};

// The 11-tap window G0..G10 and C1..C3 of ssim_common.glsl (never retyped: from tables/ssim.hpp); K is
// the shader's constants (spirv::<stem>_constants).
template <class K>
[[nodiscard]] specialization ssim_spec() {
  specialization s;
  for (std::size_t k = 0; k < 11; ++k) s.set(K::g[k], tables::ssim_window[k]);
  s.set(K::c1, tables::ssim_c1).set(K::c2, tables::ssim_c2).set(K::c3, tables::ssim_c3);
  return s;
}

// One SSIM level inside a program's scratch: images x, y (w·h each) and 5 filter planes ((w−10)·h each).
struct ssim_level {
  std::uint32_t w = 0, h = 0;
  std::uint32_t x_off = 0, y_off = 0, tmp_off = 0;  // floats into the scratch buffer
  std::uint32_t groups_x = 0, groups_y = 0, partial_base = 0;  // vpass workgroups, first partial slot
  [[nodiscard]] bool valid() const noexcept { return w >= 11 && h >= 11; }
  [[nodiscard]] std::uint32_t groups() const noexcept { return groups_x * groups_y; }
};

// Scratch, partials, descriptor sets and the per-level dispatches; derived programs add levels, then
// call allocate(), and schedule the passes in record().
class ssim_base : public program {
 protected:
  explicit ssim_base(program_env& env) : env_(env), l_(env.layout) {}

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

  void allocate(bool decimation) {
    prepare_ = &env_.shared.pipeline(spirv::ssim_prepare, 5, 48, ssim_spec<spirv::ssim_prepare_constants>());
    if (decimation)
      decimate_ = &env_.shared.pipeline(spirv::ms_ssim_decimate, 5, 32, ssim_spec<spirv::ms_ssim_decimate_constants>());
    hpass_ = &env_.shared.pipeline(spirv::ssim_hpass, 5, 20, ssim_spec<spirv::ssim_hpass_constants>());
    vpass_ = &env_.shared.pipeline(spirv::ssim_vpass, 5, 16, ssim_spec<spirv::ssim_vpass_constants>());
    reduce_ = &env_.shared.pipeline(spirv::reduce_f64, 5, 12, ssim_spec<spirv::reduce_f64_constants>());
    table_ = env_.shared.get<ssim_lowpass_table>().table.get();
    const auto slots = static_cast<std::uint32_t>(env_.slots);
    pool_ = descriptor_pool(env_.ctx, slots, 5 * slots);
    scratch_.resize(slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }

 public:
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(env_.ctx, std::max<std::uint64_t>(floats_, 1) * 4, memory_kind::device_local);
    partial_[s] = buffer(env_.ctx, std::max<std::uint64_t>(partials_, 1) * 32, memory_kind::device_local);
    sets_[s] = pool_.allocate(prepare_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           partial_[s].range(), VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE},
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
    prepare_->bind(cb, sets_[slot]);
    prepare_->push(cb, pc);
    prepare_->dispatch(cb, div_up(lv.w, 16), div_up(lv.h, 16), 2);
  }
  void decimate(VkCommandBuffer cb, std::size_t slot, const ssim_level& from, const ssim_level& to) {
    const struct {
      std::uint32_t in_off[2], w, h, out_off[2], ow, oh;
    } pc{{from.x_off, from.y_off}, from.w, from.h, {to.x_off, to.y_off}, to.w, to.h};
    decimate_->bind(cb, sets_[slot]);
    decimate_->push(cb, pc);
    decimate_->dispatch(cb, div_up(to.w, 16), div_up(to.h, 16), 2);
  }
  void hpass(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t x_off, y_off, w, h, tmp_off;
    } pc{lv.x_off, lv.y_off, lv.w, lv.h, lv.tmp_off};
    hpass_->bind(cb, sets_[slot]);
    hpass_->push(cb, pc);
    hpass_->dispatch(cb, div_up(lv.w - 10, 16), div_up(lv.h, 16));
  }
  void vpass(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t tmp_off, ow, h, partial_base;
    } pc{lv.tmp_off, lv.w - 10, lv.h, lv.partial_base};
    vpass_->bind(cb, sets_[slot]);
    vpass_->push(cb, pc);
    vpass_->dispatch(cb, lv.groups_x, lv.groups_y);
  }
  // Level sums into result slot `index` (4 doubles each); an empty map writes nothing (decoded as zeros).
  void reduce(VkCommandBuffer cb, std::size_t slot, const ssim_level& lv, std::uint32_t index) {
    if (!lv.valid()) return;
    const struct {
      std::uint32_t count, in_base, out_base;
    } pc{lv.groups(), lv.partial_base, result_offset / 32 + index};
    reduce_->bind(cb, sets_[slot]);
    reduce_->push(cb, pc);
    reduce_->dispatch(cb, 1);
  }

  program_env& env_;
  frame_layout l_;
  std::vector<ssim_level> levels_;
  std::uint32_t floats_ = 0, partials_ = 0;
  const compute_pipeline *prepare_ = nullptr, *decimate_ = nullptr, *hpass_ = nullptr, *vpass_ = nullptr,
                         *reduce_ = nullptr;
  VkBuffer table_ = VK_NULL_HANDLE;
  descriptor_pool pool_;
  std::vector<buffer> scratch_, partial_;
  std::vector<VkDescriptorSet> sets_;
};

// Four doubles of a decoded slice: one level's sums.
[[nodiscard]] inline ssim_partials ssim_sums(const std::byte* p) noexcept {
  double v[4];
  std::memcpy(v, p, sizeof v);
  return {v[0], v[1], v[2], v[3]};
}

}  // namespace vqm::vulkan::detail
