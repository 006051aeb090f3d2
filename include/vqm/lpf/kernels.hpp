// The named kernels of the family, lpf_<dir>_<wd>_8, on any backend that models LpfKernel.
// lpf_h = filtering across a vertical edge (taps along x); lpf_v = across a horizontal edge (taps along y).
#pragma once

#include <span>

#include "vqm/concepts/lpf_kernel.hpp"

namespace vqm::lpf {

#define VQM_LPF_NAMED_KERNEL(fn, k)                                                                 \
  template <class Pixel, LpfKernel<Pixel> B>                                                        \
  void fn(B& b, const plane<Pixel>& p, std::span<const edge> edges, counters* c = nullptr) {        \
    b.filter(k, p, edges, c);                                                                       \
  }
VQM_LPF_NAMED_KERNEL(lpf_h_4_8, lpf_h_4_8_kind)
VQM_LPF_NAMED_KERNEL(lpf_h_8_8, lpf_h_8_8_kind)
VQM_LPF_NAMED_KERNEL(lpf_h_16_8, lpf_h_16_8_kind)
VQM_LPF_NAMED_KERNEL(lpf_v_4_8, lpf_v_4_8_kind)
VQM_LPF_NAMED_KERNEL(lpf_v_8_8, lpf_v_8_8_kind)
VQM_LPF_NAMED_KERNEL(lpf_v_16_8, lpf_v_16_8_kind)
#undef VQM_LPF_NAMED_KERNEL

}  // namespace vqm::lpf
