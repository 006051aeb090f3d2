// Cpu schedule of float_psnr: the luma noise sum.
#pragma once

#include "vqm/concepts/float_sse_kernel.hpp"
#include "vqm/cpu/float_sse.hpp"
#include "vqm/cpu/frame.hpp"

namespace vqm::cpu {

struct float_psnr_engine {
  struct request {};
  static void run(const picture_view& r, const picture_view& d, const request&, float_sse_partials& out) {
    out.noise = cpu::float_sse(r.planes[0], d.planes[0], r.format.bit_depth);
  }
  void float_sse(frame& f, float_sse_partials& out) const { f.record<&run>(request{}, out); }
};

}  // namespace vqm::cpu
