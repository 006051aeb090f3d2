// Cpu schedule of float_adm: one luma pass per frame (cpu/float_adm.hpp).
#pragma once

#include "vqm/cpu/float_adm.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/metrics/float_adm.hpp"

namespace vqm::cpu {

struct float_adm_engine {
  static void run(const picture_view& r, const picture_view& d, const float_adm_request& q, float_adm_partials& out) {
    out = cpu::float_adm(r.planes[0], d.planes[0], r.format.bit_depth, q);
  }
  void float_adm(frame& f, const float_adm_request& q, float_adm_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
