// Cpu schedule of integer PSNR: exact SSE per plane.
#pragma once

#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/sse.hpp"

namespace vqm::cpu {

struct psnr_engine {
  static void run_sse(const picture_view& r, const picture_view& d, const sse_request& q, sse_partials& out) {
    const int planes = q.chroma ? r.format.planes() : 1;
    for (int p = 0; p < planes; ++p) out.sse[p] = sse_plane(r.planes[p], d.planes[p], r.format.bit_depth);
  }
  void sse(frame& f, const sse_request& q, sse_partials& out) const { f.record<&run_sse>(q, out); }
};

}  // namespace vqm::cpu
