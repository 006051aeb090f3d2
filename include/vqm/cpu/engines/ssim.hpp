// Cpu schedule of float_ssim: one luma pass.
#pragma once

#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/ssim.hpp"

namespace vqm::cpu {

struct ssim_engine {
  static void run(const picture_view& r, const picture_view& d, const ssim_request& q, ssim_partials& out) {
    out = cpu::ssim(r.planes[0], d.planes[0], r.format.bit_depth, q.scale);
  }
  void ssim(frame& f, const ssim_request& q, ssim_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
