// The run hierarchy of the GPU's exact serial binary32 sum (shaders/hvs_tables.comp, hvs_walk.comp): level 0
// runs are single 64-term blocks, a level-l run is `serial_sum_fan` runs of level l − 1; the walk starts at
// the top level. Host-side geometry only; the algorithm and its proof are in
// include/vqm/detail/serial_float_sum.hpp and docs/psnr_hvs_gpu.md.
#pragma once

#include <array>
#include <cstdint>

namespace vqm::vulkan {

inline constexpr std::uint32_t serial_sum_fan = 16;        // HVS_FAN in shaders/hvs_common.glsl
inline constexpr std::uint32_t serial_sum_max_levels = 8;  // HVS_MAX_LEVELS: 16^7 blocks, far above 8K

struct serial_sum_levels {
  std::uint32_t levels = 0;  // 0 for a plane without blocks
  std::array<std::uint32_t, serial_sum_max_levels> run_blocks{}, node_count{};
  std::uint32_t nodes = 0;   // all levels
};

// Levels for a plane of `blocks` blocks: add levels until the top one has at most `fan` runs.
[[nodiscard]] constexpr serial_sum_levels plan_serial_sum(std::uint32_t blocks) noexcept {
  serial_sum_levels s;
  if (blocks == 0) return s;
  std::uint64_t run = 1;
  while (s.levels < serial_sum_max_levels) {
    const auto count = static_cast<std::uint32_t>((blocks + run - 1) / run);
    s.run_blocks[s.levels] = static_cast<std::uint32_t>(run);
    s.node_count[s.levels] = count;
    s.nodes += count;
    ++s.levels;
    if (count <= serial_sum_fan) break;
    run *= serial_sum_fan;
  }
  return s;
}

static_assert(plan_serial_sum(3772).levels == 3 && plan_serial_sum(3772).node_count[2] == 15);
static_assert(plan_serial_sum(1).levels == 1 && plan_serial_sum(0).levels == 0);

}  // namespace vqm::vulkan
