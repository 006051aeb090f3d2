// Vulkan engine of speed_temporal. Temporal, on integer motion's history type (detail::motion_history):
// each ring entry holds a frame's raw reference and distorted lumas (two entries: frames run in
// submission order with a barrier on the history); from frame 1 on, speed_program scores previous minus
// current of both (the distorted's against the current reference with speed_use_ref_diff) and decode runs
// the shared host math. Needs shaderFloat64 (the covariance sums are double).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "vqm/error.hpp"
#include "vqm/metrics/speed_temporal.hpp"
#include "vqm/vulkan/engines/motion.hpp"
#include "vqm/vulkan/engines/speed_program.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

struct speed_temporal_engine {
  struct speed_temporal_state {
    std::shared_ptr<detail::motion_history> history;
  };

  [[nodiscard]] speed_temporal_state make_speed_temporal_state(const picture_format& f, std::size_t /*ring*/) const {
    const std::uint64_t row = (std::uint64_t{f.width} * f.bytes_per_sample() + 3) / 4 * 4;
    return {std::make_shared<detail::motion_history>(f, 2, 2 * row * f.height)};
  }

  void speed_temporal(frame& f, speed_temporal_state& s, const speed_request& q, speed_temporal_partials& out) const {
    require_float64(f, "speed_temporal", "libvmaf's double covariance sums");
    auto& hist = *s.history;
    const auto& luma = f.ref().planes[0];
    if (luma.width != hist.format.width || luma.height != hist.format.height ||
        f.ref().format.bit_depth != hist.format.bit_depth)
      throw error(errc::mismatch, "speed_temporal: the picture format changed");
    const std::uint64_t n = hist.ring.advance();
    out = {};
    f.add({.key = {&speed_program::make_temporal, hist.id << 16 | detail::speed_requests::index(q), 0},
           .decode = &decode,
           .out = &out,
           .state = &hist,
           .arg = hist.ring.pair_args(n, 1)});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    auto& o = *static_cast<speed_temporal_partials*>(j.out);
    o = {};
    if ((j.arg[2] & 1u) == 0) return;
    (void)detail::speed_pair(slice, static_cast<const speed_program&>(p), 0, 1, o.score);
    o.computed = true;
  }
};

}  // namespace vqm::vulkan
