// Cpu schedule of cambi: one luma pass per frame (two with full_ref) (cpu/cambi.hpp).
#pragma once

#include "vqm/cpu/cambi.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/metrics/cambi.hpp"

namespace vqm::cpu {

struct cambi_engine {
  static void run(const picture_view& r, const picture_view& d, const cambi_request& q, cambi_partials& out) {
    out = cpu::cambi(r, d, q);
  }
  void cambi(frame& f, const cambi_request& q, cambi_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
