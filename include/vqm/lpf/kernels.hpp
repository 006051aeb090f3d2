// LpfKernel: a backend that runs the VP9 loop-filter family on planes of Pixel, and the named kernels of
// the family, lpf_<dir>_<wd>_8, on any backend that models it.
//
// b.filter(kind, plane, edges, counters*) filters the edges in place, as if one after the other in any
// order (the contract makes the order irrelevant), and adds the batch's decision counts to *counters
// when non-null. A backend implements only the pixel types it supports.
// lpf_h = filtering across a vertical edge (taps along x); lpf_v = across a horizontal edge (taps along y).
#pragma once

#include <span>

#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"

namespace vqm::lpf {

template <class B, class Pixel>
concept LpfKernel = requires(B& b, kind k, const plane<Pixel>& p, std::span<const edge> e, counters* c) {
  b.filter(k, p, e, c);
};

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
