// PsnrHvsKernel: the per-plane binary32 error accumulator of PSNR-HVS (SPEC §6).
#pragma once

#include <array>

#include "vqm/concepts/backend.hpp"

namespace vqm {

// ret[p] is libvmaf's single float accumulator of plane p: Σ (err·csf)^2 over all blocks and
// coefficients in raster order, each add rounded to binary32 (SPEC §6.5, §6.7).
struct psnr_hvs_partials {
  std::array<float, 3> ret{};
};

template <class B>
concept PsnrHvsKernel = Backend<B> && requires(B& b, typename B::frame& f, psnr_hvs_partials& out) {
  b.psnr_hvs(f, out);
};

}  // namespace vqm
