// Compatibility mode: reproduce libvmaf's quirks (SPEC §10) instead of the library defaults.
#pragma once

#include "vqm/picture.hpp"

namespace vqm {

enum class compat : std::uint8_t {
  none,     // every sample of every plane counts; degenerate inputs are rejected
  libvmaf,  // floor chroma sizes, -inf chroma APSNR without chroma, libvmaf's values on tiny frames
};

[[nodiscard]] constexpr chroma_rounding chroma_rounding_for(compat c) noexcept {
  return c == compat::libvmaf ? chroma_rounding::floor : chroma_rounding::ceil;
}

}  // namespace vqm
