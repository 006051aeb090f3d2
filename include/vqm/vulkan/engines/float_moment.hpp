// Vulkan schedule of float_moment: exact Σ v and Σ f32(v)² of both lumas in uint64 (float_moment.comp
// per row band, then reduce_u64: banded_sums), scaled to libvmaf's doubles on the host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vqm/metrics/float_moment.hpp"
#include "vqm/vulkan/engines/banded_sums.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_moment.hpp"

namespace vqm::vulkan {

class moment_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<moment_program>(env);
  }

  // Four segments: Σ ref, Σ dis, Σ ref², Σ dis²; ~8 words a thread of each of the two pictures.
  explicit moment_program(program_env& env) : l_(env.layout), sums_(env, spirv::float_moment, 32, 4, 2048) {}
  void ensure(std::size_t s) override { sums_.ensure(s); }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4 * 8; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    if (stage == 0) {
      const struct {
        std::uint32_t off[2], stride, width, height, bpc, rows_per_group, groups;
      } pc{{l_.word(0, 0), l_.word(1, 0)}, l_.stride_words(0), l_.width[0], l_.height[0], l_.format.bit_depth,
           sums_.rows(), sums_.groups()};
      static_assert(sizeof(pc) == 32);
      sums_.record_pass1(cb, slot, pc, 1);
    } else {
      sums_.record_reduce(cb, slot, result_offset, 4);
    }
  }

 private:
  detail::frame_layout l_;
  banded_sums sums_;
};

struct float_moment_engine {
  void moment(frame& f, moment_partials& out) const {
    require_int64(f, "float_moment", "exact integer sums");
    const auto& fmt = f.ref().format;
    // libvmaf's serial double sum of 16-bit squares rounds once it passes 2^53 units of 2^−16; below
    // 2^21 samples it cannot (every square is below 2^32), so the exact integer sum is the same double.
    if (fmt.bit_depth > 12 && std::uint64_t{fmt.width} * fmt.height > (1u << 21))
      throw error(errc::unsupported_format,
                  "float_moment on Vulkan supports 16-bit input up to 2,097,152 luma samples (where its exact sums "
                  "are libvmaf's doubles), the input is " + std::to_string(fmt.width) + "x" +
                      std::to_string(fmt.height) + " (use the Cpu backend)");
    f.add({.key = {&moment_program::make, 0, 0},
           .decode = &decode,
           .out = &out,
           .arg = {static_cast<std::uint32_t>(fmt.bit_depth)}});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<moment_partials*>(j.out);
    const int shift = static_cast<int>(j.arg[0]) - 8;
    for (std::uint32_t k = 0; k < 2; ++k) {
      o.sum[k] = static_cast<double>(banded_sums::sum(slice, k)) / static_cast<double>(1ull << shift);
      o.sum_sq[k] = static_cast<double>(banded_sums::sum(slice, 2 + k)) / static_cast<double>(1ull << (2 * shift));
    }
  }
};

}  // namespace vqm::vulkan
