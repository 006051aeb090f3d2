// Cpu schedule of VMAF's integer VIF: one luma pass per frame; two vif features that differ only in their
// gain limit (VMAF and NEG in one run) share it.
#pragma once

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/cpu/engines/limit_pass.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/vif.hpp"

namespace vqm::cpu {

struct vif_engine {
  static void run(const picture_view& r, const picture_view& d, const limit_pass<vif_request, vif_partials>& p,
                  vif_partials& out) {
    run_limit_pass<&cpu::vif_limits>(r, d, p, out);
  }
  void vif(frame& f, const vif_request& q, vif_partials& out) const {
    record_limit_pass<&run>(f, q, q.gain_limit, out,
                            [](const vif_request& a, const vif_request& b) { return a.skip_scale0 == b.skip_scale0; });
  }
};

}  // namespace vqm::cpu
