// Cpu schedule of VMAF's integer ADM: one luma pass per frame; two adm features that differ only in their
// gain limit (VMAF and NEG in one run) share its DWT.
#pragma once

#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/cpu/adm.hpp"
#include "vqm/cpu/engines/limit_pass.hpp"
#include "vqm/cpu/frame.hpp"

namespace vqm::cpu {

struct adm_engine {
  static void run(const picture_view& r, const picture_view& d, const limit_pass<adm_request, adm_partials>& p,
                  adm_partials& out) {
    run_limit_pass<&cpu::adm_limits>(r, d, p, out);
  }
  void adm(frame& f, const adm_request& q, adm_partials& out) const {
    record_limit_pass<&run>(f, q, q.enhn_gain_limit, out, &same_but_gain_limit);
  }
};

}  // namespace vqm::cpu
