// Cpu schedule of float_ansnr: one luma pass per frame (cpu/float_ansnr.hpp).
#pragma once

#include "vqm/cpu/float_ansnr.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/metrics/float_ansnr.hpp"

namespace vqm::cpu {

struct float_ansnr_engine {
  struct request {};
  static void run(const picture_view& r, const picture_view& d, const request&, ansnr_partials& out) {
    out = cpu::float_ansnr(r.planes[0], d.planes[0], r.format.bit_depth);
  }
  void ansnr(frame& f, ansnr_partials& out) const { f.record<&run>(request{}, out); }
};

}  // namespace vqm::cpu
