// Cpu schedule of VMAF's integer ADM: one luma pass per frame.
#pragma once

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/frame.hpp"

namespace vqm::cpu {

struct adm_engine {
  static void run(const picture_view& r, const picture_view& d, const adm_request& q, adm_partials& out) {
    out = cpu::adm(r.planes[0], d.planes[0], r.format.bit_depth, q);
  }
  void adm(frame& f, const adm_request& q, adm_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
