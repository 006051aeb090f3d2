// Cpu kernel and schedule of speed_temporal. Temporal: both raw lumas are captured into the metric's rings
// (cpu::motion_state, as motion's) when the frame is recorded, in presentation order; the kernel converts
// the previous and current lumas, takes the binary32 differences and scores them (cpu/speed.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/motion.hpp"
#include "vqm/cpu/speed.hpp"
#include "vqm/metrics/speed_temporal.hpp"

namespace vqm::cpu {

struct speed_temporal_engine {
  struct speed_temporal_state {
    motion_state ref, dis;
  };

  [[nodiscard]] speed_temporal_state make_speed_temporal_state(const picture_format& f, std::size_t ring) const {
    return {motion_state(f, ring), motion_state(f, ring)};
  }

  struct job {
    plane_view prev_ref, cur_ref, prev_dis, cur_dis;
    speed_request q;
  };
  static void run(const picture_view& r, const picture_view&, const job& j, speed_temporal_partials& out) {
    thread_local speed_detail::workspace ws;
    thread_local std::vector<float> buf[3];
    const speed_request& q = j.q;
    const std::size_t n = std::size_t{q.width} * q.height;
    for (auto& v : buf)
      if (v.size() < n) v.resize(n);
    const unsigned bpc = r.format.bit_depth;
    float *rd = buf[0].data(), *dd = buf[1].data(), *cur = buf[2].data();
    speed_detail::load(&j.prev_ref, bpc, q.width, q.height, rd);
    speed_detail::load(&j.cur_ref, bpc, q.width, q.height, cur);
    for (std::size_t i = 0; i < n; ++i) rd[i] -= cur[i];
    speed_detail::load(&j.prev_dis, bpc, q.width, q.height, dd);
    if (!q.use_ref_diff) speed_detail::load(&j.cur_dis, bpc, q.width, q.height, cur);
    for (std::size_t i = 0; i < n; ++i) dd[i] -= cur[i];
    (void)speed_detail::extract_score(ws, q, rd, dd, out.score);
    out.computed = true;
  }

  void speed_temporal(frame& f, speed_temporal_state& s, const speed_request& q, speed_temporal_partials& out) const {
    const std::size_t n = s.ref.capture(f.ref().planes[0]);
    (void)s.dis.capture(f.dis().planes[0]);
    out = {};
    if (n >= 1) f.record<&run>(job{s.ref.at(n - 1), s.ref.at(n), s.dis.at(n - 1), s.dis.at(n), q}, out);
  }
};

}  // namespace vqm::cpu
