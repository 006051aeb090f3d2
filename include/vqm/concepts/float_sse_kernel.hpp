// FloatSseKernel: float_psnr's noise sum on the normalised luma plane (SPEC §3).
#pragma once

#include "vqm/concepts/backend.hpp"

namespace vqm {

struct float_sse_partials {
  double noise = 0.0;  // Σ f64(f32(a - b)^2) over luma, a, b normalised per SPEC §1.2
};

template <class B>
concept FloatSseKernel = Backend<B> && requires(B& b, typename B::frame& f, float_sse_partials& out) {
  b.float_sse(f, out);
};

}  // namespace vqm
