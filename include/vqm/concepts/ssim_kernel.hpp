// SsimKernel: sums of the per-pixel SSIM terms over the valid 11x11 map (SPEC §4).
#pragma once

#include <cstdint>

#include "vqm/concepts/backend.hpp"

namespace vqm {

struct ssim_request {
  std::uint32_t scale = 1;  // decimation factor s >= 1, already resolved (SPEC §4.3)
};

// Sums in double over every map position; an empty map (tiny input) gives zeros.
struct ssim_partials {
  double ssim = 0.0;  // Σ (l·c)·s
  double l = 0.0;
  double c = 0.0;
  double s = 0.0;
};

template <class B>
concept SsimKernel = Backend<B> && requires(B& b, typename B::frame& f, const ssim_request& q, ssim_partials& out) {
  b.ssim(f, q, out);
};

}  // namespace vqm
