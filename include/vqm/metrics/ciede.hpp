// ciede (libvmaf's ciede.c): each pixel's YUV (chroma upsampled to 4:4:4) → BT.709 RGB → XYZ → CIELAB,
// the CIEDE2000 ΔE between reference and distorted, summed over the frame; ciede2000 =
// 45 − 20·log10(ΣΔE / (w·h)). With compat::libvmaf the samples are the ones libvmaf's chroma upsampling
// reads, quirks included (docs/spec-float-features.md); otherwise plain nearest-neighbour upsampling.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The kernel's result: libvmaf's serial double sum of the per-pixel f32 ΔE (row-major).
struct ciede_partials {
  double de_sum = 0.0;
};

// What the kernel reads: libvmaf's samples (its upsampling quirks) or the plain 4:4:4 upsampling.
struct ciede_request {
  bool libvmaf = false;
};

// libvmaf's picture rows (picture.c): w samples padded to a multiple of 32.
[[nodiscard]] constexpr std::size_t ciede_vmaf_stride(std::uint32_t w) noexcept { return (std::size_t{w} + 31) / 32 * 32; }

// Whether libvmaf's chroma upsampling of an f picture reads past the end of its picture buffer (Y, Cb, Cr
// back to back, chroma w>>1 × h>>1 for 4:2:0): the last Cr row it reads is ⌊(h−1)/2⌋, the last column
// ⌊(w−1)/2⌋ (4:2:0) or w−1 (4:2:2 reads column j). Odd-height 4:2:0 reads a row past Cr.
[[nodiscard]] constexpr bool ciede_reads_past_picture(const picture_format& f) noexcept {
  if (f.chroma == chroma_format::yuv444 && f.planes() == 3) return false;
  const bool c420 = f.chroma == chroma_format::yuv420 || f.planes() == 1;  // gray: as 4:2:0, mid-grey chroma
  const std::size_t cw = f.width >> 1, ch = c420 ? f.height >> 1 : f.height;
  const std::size_t luma = ciede_vmaf_stride(f.width) * f.height, chroma = ciede_vmaf_stride(f.width >> 1) * ch;
  const std::size_t last = luma + chroma + (f.height - 1) / 2 * ciede_vmaf_stride(f.width >> 1) +
                           (c420 ? (f.width - 1) / 2 : f.width - 1);
  return cw == 0 || last >= luma + 2 * chroma;
}

template <class B>
concept CiedeKernel = Backend<B> && requires(B& b, typename B::frame& f, const ciede_request& q, ciede_partials& out) {
  b.ciede(f, q, out);
};

struct ciede_options {
  static constexpr const char* feature = "ciede";
  static constexpr auto table() { return std::tuple{}; }
};

class ciede_algorithm {
 public:
  using partials_type = ciede_partials;
  using options = ciede_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"ciede2000"};

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat c = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "ciede supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (c == compat::libvmaf && ciede_reads_past_picture(f))
      return "ciede with --compat libvmaf: libvmaf reads chroma past the end of its " + std::to_string(f.width) + "x" +
             std::to_string(f.height) + " " + to_string(f.chroma) +
             " picture (odd height, or too small), so its value depends on memory outside the picture";
    return {};
  }

  explicit ciede_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : request_{c == compat::libvmaf} {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    samples_ = static_cast<double>(f.width * f.height);  // libvmaf: w[0] * h[0], unsigned
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  void scores(const partials_type& p, double* out) const noexcept {
    out[0] = 45. - 20. * std::log10(p.de_sum / samples_);
  }

 protected:
  ciede_request request_;

 private:
  double samples_ = 1;
  std::vector<std::string> names_ = printed_names(provided);
};

template <class B>
  requires CiedeKernel<B>
class Ciede : public ciede_algorithm {
 public:
  using ciede_algorithm::ciede_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.ciede(f, request_, out); }
};

}  // namespace vqm
