// Cpu schedule of VMAF's integer motion. Temporal: the reference luma is captured into the metric's ring
// (cpu::motion_state) when the frame is recorded, in presentation order, so frames may then run in any
// order on the pool; the kernel compares two captured lumas.
#pragma once

#include <cstddef>

#include "vqm/concepts/motion_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/motion.hpp"

namespace vqm::cpu {

struct motion_engine {
  using motion_state = cpu::motion_state;

  [[nodiscard]] motion_state make_motion_state(const picture_format& f, std::size_t ring) const {
    return motion_state(f, ring);
  }

  struct pair {
    plane_view prev, cur;
  };
  static void run(const picture_view& r, const picture_view&, const pair& q, motion_partials& out) {
    out.sad = cpu::motion_sad(q.prev, q.cur, r.format.bit_depth);
    out.computed = true;
  }

  void motion(frame& f, motion_state& s, const motion_request& q, motion_partials& out) const {
    const std::size_t n = s.capture(f.ref().planes[0]);
    const std::size_t window = q.five_frame_window ? 2 : 1;
    out = {};
    if (n >= window) f.record<&run>(pair{s.at(n - window), s.at(n)}, out);
  }
};

}  // namespace vqm::cpu
