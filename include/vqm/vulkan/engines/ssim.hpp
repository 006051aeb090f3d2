// Vulkan schedule of float_ssim at decimation factor `scale` (SPEC §4): prepare, hpass, vpass, reduce.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/vulkan/engines/ssim_passes.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

class ssim_program final : public detail::ssim_base {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t scale, std::uint32_t) {
    return std::make_unique<ssim_program>(env, scale);
  }

  ssim_program(program_env& env, std::uint32_t scale) : ssim_base(env), scale_(scale) {
    add_level(ssim_decimated(l_.width[0], scale), ssim_decimated(l_.height[0], scale));
    allocate(false);
  }
  [[nodiscard]] int stages() const noexcept override { return 4; }
  // Its heaviest stage: the horizontal pass.
  [[nodiscard]] schedule_hint schedule() const noexcept override { return {.heaviest_stage = 1}; }
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

struct ssim_engine {
  void ssim(frame& f, const ssim_request& q, ssim_partials& out) const {
    require_float64(f, "float_ssim", "libvmaf's double accumulation");
    f.add({.key = {&ssim_program::make, std::max<std::uint32_t>(q.scale, 1), 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    auto& o = *static_cast<ssim_partials*>(j.out);
    o = static_cast<const ssim_program&>(p).empty_map() ? ssim_partials{} : detail::ssim_sums(slice);
  }
};

}  // namespace vqm::vulkan
