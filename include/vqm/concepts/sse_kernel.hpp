// SseKernel: exact integer sums of squared differences per plane (integer PSNR).
#pragma once

#include <array>
#include <cstdint>

#include "vqm/concepts/backend.hpp"

namespace vqm {

struct sse_request {
  bool chroma = true;  // also the Cb and Cr planes (when the format has them)
};

struct sse_partials {
  std::array<std::uint64_t, 3> sse{};  // Σ (ref - dis)^2 per plane
};

template <class B>
concept SseKernel = Backend<B> && requires(B& b, typename B::frame& f, const sse_request& q, sse_partials& out) {
  b.sse(f, q, out);
};

}  // namespace vqm
