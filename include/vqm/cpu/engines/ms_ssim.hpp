// Cpu schedule of float_ms_ssim: the five-scale luma pyramid.
#pragma once

#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/ms_ssim.hpp"

namespace vqm::cpu {

struct ms_ssim_engine {
  struct request {};
  static void run(const picture_view& r, const picture_view& d, const request&, ms_ssim_partials& out) {
    out = cpu::ms_ssim(r.planes[0], d.planes[0], r.format.bit_depth);
  }
  void ms_ssim(frame& f, ms_ssim_partials& out) const { f.record<&run>(request{}, out); }
};

}  // namespace vqm::cpu
