// Cpu schedule of VMAF's integer VIF: one luma pass per frame.
#pragma once

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/vif.hpp"

namespace vqm::cpu {

struct vif_engine {
  static void run(const picture_view& r, const picture_view& d, const vif_request& q, vif_partials& out) {
    out = cpu::vif(r.planes[0], d.planes[0], r.format.bit_depth, q);
  }
  void vif(frame& f, const vif_request& q, vif_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
