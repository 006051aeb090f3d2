// Cpu schedule of VMAF's integer ADM: one luma pass per frame; two adm features that differ only in their
// gain limit (VMAF and NEG in one run) share its DWT.
#pragma once

#include <cstring>

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
    record_limit_pass<&run>(f, q, q.enhn_gain_limit, out, [](const adm_request& a, const adm_request& b) {
      return a.skip_scale0 == b.skip_scale0 && a.skip_aim == b.skip_aim &&
             std::memcmp(a.irf0, b.irf0, sizeof a.irf0) == 0 && std::memcmp(a.irf, b.irf, sizeof a.irf) == 0;
    });
  }
};

}  // namespace vqm::cpu
