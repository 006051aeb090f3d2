// Vulkan schedule of float_ms_ssim (SPEC §5): a 5-level pyramid; the SSIM passes of level k run beside the
// decimation of level k+1 (stage k+1: Dec2 to level k+1, hpass of level k, vpass of level k−1).
#pragma once

#include <cstdint>
#include <memory>

#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/vulkan/engines/ssim_passes.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

class ms_ssim_program final : public detail::ssim_base {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<ms_ssim_program>(env);
  }

  explicit ms_ssim_program(program_env& env) : ssim_base(env) {
    for (int k = 0; k < ms_ssim_scales; ++k)
      add_level(ms_ssim_level_size(l_.width[0], k), ms_ssim_level_size(l_.height[0], k));
    allocate(true);
  }
  [[nodiscard]] int stages() const noexcept override { return 8; }
  // Its heaviest stage: level 0's horizontal pass.
  [[nodiscard]] schedule_hint schedule() const noexcept override { return {.heaviest_stage = 1}; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return ms_ssim_scales * 32; }
  [[nodiscard]] bool gpu_bound() const noexcept override { return true; }
  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) prepare(cb, slot, levels_[0], 1);
    if (stage >= 1 && stage <= 4) decimate(cb, slot, levels_[stage - 1], levels_[stage]);
    if (stage >= 1 && stage <= 5) hpass(cb, slot, levels_[stage - 1]);
    if (stage >= 2 && stage <= 6) vpass(cb, slot, levels_[stage - 2]);
    if (stage == 7)
      for (std::uint32_t k = 0; k < ms_ssim_scales; ++k) reduce(cb, slot, levels_[k], k);
  }
};

struct ms_ssim_engine {
  void ms_ssim(frame& f, ms_ssim_partials& out) const {
    require_float64(f, "float_ms_ssim", "libvmaf's double accumulation");
    f.add({.key = {&ms_ssim_program::make, 0, 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<ms_ssim_partials*>(j.out);
    for (int k = 0; k < ms_ssim_scales; ++k) o.level[static_cast<std::size_t>(k)] = detail::ssim_sums(slice + 32 * k);
  }
};

}  // namespace vqm::vulkan
