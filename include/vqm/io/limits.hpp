// Sanity limits for input geometry, shared by every reader: a bad header must become a clear error,
// not a multi-gigabyte allocation.
#pragma once

#include <cstdint>
#include <string>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

inline constexpr std::uint32_t max_dimension = 32768;                 // per side (twice 16K video)
inline constexpr std::uint64_t max_luma_samples = std::uint64_t{1} << 28;  // 16384 x 16384

// Throws errc::bad_input naming `what` (a file, or an option) unless the format is plausible.
inline void check_geometry(const std::string& what, const picture_format& f) {
  if (f.width == 0 || f.height == 0)
    throw error(errc::bad_input, what + ": picture size " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                                     " has a zero dimension (width and height must be at least 1)");
  if (f.width > max_dimension || f.height > max_dimension ||
      std::uint64_t{f.width} * f.height > max_luma_samples)
    throw error(errc::bad_input, what + ": picture size " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                                     " is implausibly large (at most " + std::to_string(max_dimension) +
                                     " per side and 16384x16384 samples); check the width and height");
  if (f.bit_depth < 8 || f.bit_depth > 16)
    throw error(errc::bad_input, what + ": bit depth " + std::to_string(f.bit_depth) + " is outside 8..16");
}

}  // namespace vqm::io
