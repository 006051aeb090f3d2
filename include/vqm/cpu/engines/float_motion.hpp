// Cpu schedule of float_motion. Temporal: the raw reference luma is captured into the metric's ring
// (cpu::motion_state, as integer motion's) when the frame is recorded, in presentation order; the kernel
// (cpu/float_motion.hpp) compares captures n − 1 and n, and reuses its thread's blur of n − 1 when that
// thread ran frame n − 1 of the same state (the stream number tells states apart).
#pragma once

#include <cstddef>
#include <cstdint>

#include "vqm/cpu/float_motion.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/motion.hpp"
#include "vqm/metrics/float_motion.hpp"

namespace vqm::cpu {

struct float_motion_engine {
  struct float_motion_state {
    motion_state raw;
    std::uint64_t stream = detail::fmotion_new_stream();
  };

  [[nodiscard]] float_motion_state make_float_motion_state(const picture_format& f, std::size_t ring) const {
    return float_motion_state{motion_state(f, ring)};
  }

  struct fmotion_pair {
    plane_view prev, cur;
    std::uint64_t stream;
    std::size_t frame;
  };
  static void run_float_motion(const picture_view& r, const picture_view&, const fmotion_pair& q,
                               float_motion_partials& out) {
    out.sad = float_motion_sad(q.prev, q.cur, r.format.bit_depth, q.stream, q.frame);
    out.computed = true;
  }

  void float_motion(frame& f, float_motion_state& s, float_motion_partials& out) const {
    const std::size_t n = s.raw.capture(f.ref().planes[0]);
    out = {};
    if (n >= 1) f.record<&run_float_motion>(fmotion_pair{s.raw.at(n - 1), s.raw.at(n), s.stream, n}, out);
  }
};

}  // namespace vqm::cpu
