// Vulkan engine of speed_chroma: one speed_program (engines/speed_program.hpp) per request scores U and V
// (four images); decode runs the shared host math per plane (metrics/speed_stats.hpp). Gray input is
// measured as mid-grey planes, as on the Cpu. Needs shaderFloat64 (the covariance sums are double).
#pragma once

#include <cstring>

#include "vqm/metrics/speed_chroma.hpp"
#include "vqm/vulkan/engines/speed_program.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

struct speed_chroma_engine {
  void speed_chroma(frame& f, const speed_request& q, speed_chroma_partials& out) const {
    require_float64(f, "speed_chroma", "libvmaf's double covariance sums");
    f.add({.key = {&speed_program::make_chroma, detail::speed_requests::index(q), 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    const auto& prog = static_cast<const speed_program&>(p);
    auto& o = *static_cast<speed_chroma_partials*>(j.out);
    o.u_err = detail::speed_pair(slice, prog, 0, 1, o.u);
    o.v_err = detail::speed_pair(slice, prog, 2, 3, o.v);
  }
};

}  // namespace vqm::vulkan
