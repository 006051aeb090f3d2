// Vulkan schedule of psnr_hvs: psnr_hvs_kernel (engines/psnr_hvs_kernel.hpp) on the slot's three planes
// in place. Its five dependent stages start with the frame, so that the walk's two latency-bound halves
// run beside the other programs' heaviest stages (schedule_hint).
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/concepts/psnr_hvs_kernel.hpp"
#include "vqm/vulkan/engines/psnr_hvs_kernel.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

class psnr_hvs_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<psnr_hvs_program>(env);
  }

  // The layout holds the views' chroma sizes: floor ones in compat::libvmaf mode on odd sizes.
  explicit psnr_hvs_program(program_env& env)
      : env_(env),
        kernel_(env.ctx, env.layout.format,
                env.layout.width[1] == env.layout.format.plane_width(1) &&
                        env.layout.height[1] == env.layout.format.plane_height(1)
                    ? chroma_rounding::ceil
                    : chroma_rounding::floor,
                env.slots),
        args_(env.slots) {}

  [[nodiscard]] int stages() const noexcept override { return psnr_hvs_kernel::stages; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 16; }
  [[nodiscard]] int planes() const noexcept override { return 3; }
  [[nodiscard]] bool gpu_bound() const noexcept override { return true; }
  // The walk's halves are latency-bound: the other programs' heavy stages run beside them.
  [[nodiscard]] schedule_hint schedule() const noexcept override {
    return {.latency_bound_from = psnr_hvs_kernel::stages - psnr_hvs_kernel::serial_stages};
  }
  void ensure(std::size_t) override {}  // the kernel creates a slot's scratch on its first frame

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) {
      const auto& l = env_.layout;
      std::array<plane_binding, 3> r{}, d{};
      for (int p = 0; p < 3; ++p) {
        r[p] = l.binding(env_.buffers.input[slot], 0, p);
        d[p] = l.binding(env_.buffers.input[slot], 1, p);
      }
      args_[slot] = kernel_.prepare(r, d, env_.buffers.results[slot], result_offset, slot);
    }
    kernel_.record_stage(cb, args_[slot], stage);
  }

 private:
  program_env& env_;
  psnr_hvs_kernel kernel_;
  std::vector<psnr_hvs_kernel::frame_args> args_;
};

struct psnr_hvs_engine {
  void psnr_hvs(frame& f, psnr_hvs_partials& out) const {
    f.add({.key = {&psnr_hvs_program::make, 0, 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    std::memcpy(static_cast<psnr_hvs_partials*>(j.out)->ret.data(), slice, 12);
  }
};

}  // namespace vqm::vulkan
