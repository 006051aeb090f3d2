// LpfKernel: a backend that runs the VP9 loop-filter family on planes of Pixel.
//
// b.filter(kind, plane, edges, counters*) filters the edges in place, as if one after the other in any
// order (the contract makes the order irrelevant), and adds the batch's decision counts to *counters
// when non-null. A backend implements only the pixel types it supports.
#pragma once

#include <span>

#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"

namespace vqm::lpf {

template <class B, class Pixel>
concept LpfKernel = requires(B& b, kind k, const plane<Pixel>& p, std::span<const edge> e, counters* c) {
  b.filter(k, p, e, c);
};

}  // namespace vqm::lpf
