// Vulkan schedule of float_psnr: Σ f32((a − b)²) over luma is exact in units of 2^−2(bpc−8) (SPEC §3;
// cpu/float_sse.hpp), so it runs on psnr's integer SSE program — up to 12 bits the very dispatch psnr
// uses when both are in a frame, at 16 bits with the binary32 rounding of each term (round24).
#pragma once

#include <cstdint>

#include "vqm/concepts/float_sse_kernel.hpp"
#include "vqm/vulkan/engines/banded_sums.hpp"
#include "vqm/vulkan/engines/psnr.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"

namespace vqm::vulkan {

struct float_psnr_engine {
  void float_sse(frame& f, float_sse_partials& out) const {
    require_int64(f, "float_psnr", "exact integer sums");
    const unsigned bpc = f.ref().format.bit_depth;
    f.add({.key = sse_program::key(bpc > 12, 1),
           .decode = &decode,
           .out = &out,
           .arg = {static_cast<std::uint32_t>(bpc)}});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    const double scale = static_cast<double>(1ull << (2 * (j.arg[0] - 8)));
    static_cast<float_sse_partials*>(j.out)->noise = static_cast<double>(banded_sums::sum(slice, 0)) / scale;
  }
};

}  // namespace vqm::vulkan
