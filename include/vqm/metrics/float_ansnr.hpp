// float_ansnr (libvmaf's float_ansnr.c, ansnr.c, ansnr_tools.c): the lumas as floats less 128 (float_motion's
// picture), the reference blurred by a 3x3 and the distorted by a 5x5 float kernel (mirrored edges), and
// the signal Σ r² and noise Σ (r − d)² of the two, summed in float row by row. float_ansnr is
// 10·log10(f32(signal / noise)), float_anpsnr the PSNR of the noise against the float peak
// (docs/spec-float-features.md, "## float_ansnr").
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The kernel's result: libvmaf's float sums (each row summed in float, the row sums added in float).
struct ansnr_partials {
  float sig = 0.0f;
  float noise = 0.0f;
};

template <class B>
concept AnsnrKernel = Backend<B> && requires(B& b, typename B::frame& f, ansnr_partials& out) { b.ansnr(f, out); };

namespace ansnr {
// libvmaf's filters (ansnr_tools.c): binary32 roundings of k/16 and k/571, rows then columns.
inline constexpr int ref_width = 3, dis_width = 5;
inline constexpr float ref_taps[9] = {1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0,
                                      2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0};
inline constexpr float dis_taps[25] = {
    2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0,  7.0 / 571.0,  31.0 / 571.0,
    52.0 / 571.0, 31.0 / 571.0, 7.0 / 571.0,   12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0, 52.0 / 571.0,
    12.0 / 571.0, 7.0 / 571.0,  31.0 / 571.0,  52.0 / 571.0, 31.0 / 571.0, 7.0 / 571.0,  2.0 / 571.0,
    7.0 / 571.0,  12.0 / 571.0, 7.0 / 571.0,   2.0 / 571.0};

// libvmaf's edge rule: −t before 0 (the edge sample not repeated), 2n − 1 − t from n on (repeated).
[[nodiscard]] constexpr int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - 1 - t : t); }

// The 5x5 filter mirrors two samples past each edge: below 3 rows or columns libvmaf reads outside its
// picture (its values are undefined there), so vqm refuses those sizes.
inline constexpr std::uint32_t min_size = 3;
}  // namespace ansnr

// float_ansnr takes no options.
struct float_ansnr_options {
  static constexpr const char* feature = "float_ansnr";
};

class float_ansnr_algorithm {
 public:
  using partials_type = ansnr_partials;
  using options = float_ansnr_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"float_ansnr", "float_anpsnr"};

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_ansnr supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (f.width < ansnr::min_size || f.height < ansnr::min_size)
      return "float_ansnr needs a luma of at least 3x3 (its 5x5 filter mirrors two samples past each edge; "
             "libvmaf reads outside its picture below that), the input is " +
             std::to_string(f.width) + "x" + std::to_string(f.height);
    return {};
  }

  explicit float_ansnr_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    // libvmaf's table (float_ansnr.c): peak (2^bpc − 1) / 2^(bpc−8), cap 6·bpc + 12 dB.
    const double peak = static_cast<double>((1u << f.bit_depth) - 1u) / static_cast<double>(1u << (f.bit_depth - 8));
    psnr_max_ = 6.0 * f.bit_depth + 12.0;
    // peak * peak * w * h, left to right in double (w, h are libvmaf's ints).
    peak_area_ = peak * peak * static_cast<double>(static_cast<int>(f.width)) *
                 static_cast<double>(static_cast<int>(f.height));
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  void scores(const partials_type& p, double* out) const noexcept {
    // ansnr.c: the quotient is a float division; log10 of its double.
    out[0] = p.noise == 0.0f ? psnr_max_ : 10.0 * std::log10(static_cast<double>(p.sig / p.noise));
    constexpr double eps = 1e-10;
    const double noise = static_cast<double>(p.noise);
    const double db = 10.0 * std::log10(peak_area_ / (noise > eps ? noise : eps));
    out[1] = db < psnr_max_ ? db : psnr_max_;
  }

 private:
  double psnr_max_ = 0, peak_area_ = 0;
  std::vector<std::string> names_ = printed_names(provided);
};

template <class B>
  requires AnsnrKernel<B>
class FloatAnsnr : public float_ansnr_algorithm {
 public:
  using float_ansnr_algorithm::float_ansnr_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.ansnr(f, out); }
};

}  // namespace vqm
