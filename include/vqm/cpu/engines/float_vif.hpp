// Cpu schedule of float_vif: one luma pass per frame (cpu/float_vif.hpp).
#pragma once

#include "vqm/cpu/float_vif.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/metrics/float_vif.hpp"

namespace vqm::cpu {

struct float_vif_engine {
  static void run(const picture_view& r, const picture_view& d, const float_vif_request& q, float_vif_partials& out) {
    out = cpu::float_vif(r.planes[0], d.planes[0], r.format.bit_depth, q);
  }
  void float_vif(frame& f, const float_vif_request& q, float_vif_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
