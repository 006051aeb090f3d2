// MsSsimKernel: the SSIM term sums at each of the five pyramid levels (SPEC §5).
#pragma once

#include <array>

#include "vqm/concepts/ssim_kernel.hpp"

namespace vqm {

inline constexpr int ms_ssim_scales = 5;

struct ms_ssim_partials {
  std::array<ssim_partials, ms_ssim_scales> level{};
};

template <class B>
concept MsSsimKernel = Backend<B> && requires(B& b, typename B::frame& f, ms_ssim_partials& out) {
  b.ms_ssim(f, out);
};

}  // namespace vqm
