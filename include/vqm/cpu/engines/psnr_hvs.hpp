// Cpu schedule of psnr_hvs: the three planes' binary32 accumulators.
#pragma once

#include "vqm/concepts/psnr_hvs_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/psnr_hvs.hpp"

namespace vqm::cpu {

struct psnr_hvs_engine {
  struct request {};
  static void run(const picture_view& r, const picture_view& d, const request&, psnr_hvs_partials& out) {
    for (int p = 0; p < 3; ++p) out.ret[p] = psnr_hvs_plane(r.planes[p], d.planes[p], r.format.bit_depth, p);
  }
  void psnr_hvs(frame& f, psnr_hvs_partials& out) const { f.record<&run>(request{}, out); }
};

}  // namespace vqm::cpu
