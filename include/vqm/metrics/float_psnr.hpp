// Float PSNR, feature "float_psnr" (SPEC §3): luma only, on the normalised float picture.
#pragma once

#include <string>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/float_sse_kernel.hpp"
#include "vqm/metrics/reduce.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

// float_psnr takes no options.
struct float_psnr_options {
  static constexpr const char* feature = "float_psnr";
};

class float_psnr_algorithm {
 public:
  using partials_type = float_sse_partials;
  using options = float_psnr_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"float_psnr"};


  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_psnr supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    return {};
  }

  explicit float_psnr_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) : format_(f) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    // peak = (2^bpc − 1) / 2^(bpc−8): 255, 255.75, 255.9375, 255.99609375.
    const double peak = static_cast<double>((1u << f.bit_depth) - 1u) / static_cast<double>(1u << (f.bit_depth - 8));
    peak_sq_ = peak * peak;
    psnr_max_ = 6.0 * f.bit_depth + 12.0;
    samples_ = static_cast<double>(std::uint64_t{f.width} * f.height);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  void scores(const partials_type& part, double* out) const {
    *out = reduce::psnr_db(peak_sq_, part.noise / samples_, 1e-10, psnr_max_);
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  double peak_sq_ = 0, psnr_max_ = 0, samples_ = 0;
  std::vector<std::string> names_ = printed_names(provided);
};

template <class B>
  requires FloatSseKernel<B>
class FloatPsnr : public float_psnr_algorithm {
 public:
  using float_psnr_algorithm::float_psnr_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.float_sse(f, out); }
};

}  // namespace vqm
