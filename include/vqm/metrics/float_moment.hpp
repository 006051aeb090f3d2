// float_moment (libvmaf's float_moment.c): the first and second moments of the reference and distorted
// lumas, on the float picture of float_psnr (v = sample / 2^(bpc−8), SPEC §1.2). libvmaf adds f64(v) and
// f64(f32(v·v)) row by row in double and divides by the sample count (docs/spec-float-features.md).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The kernel's result: Σ v and Σ f32(v·v) of each luma ([0] reference, [1] distorted), as libvmaf's
// serial double sums give them.
struct moment_partials {
  std::array<double, 2> sum{};
  std::array<double, 2> sum_sq{};
};

template <class B>
concept MomentKernel = Backend<B> && requires(B& b, typename B::frame& f, moment_partials& out) { b.moment(f, out); };

struct float_moment_options {
  static constexpr const char* feature = "float_moment";
};

class float_moment_algorithm {
 public:
  using partials_type = moment_partials;
  using options = float_moment_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                                "float_moment_dis2nd"};

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_moment supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    return {};
  }

  explicit float_moment_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    samples_ = static_cast<double>(static_cast<int>(f.width * f.height));  // libvmaf: cum /= (w * h), int
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  void scores(const partials_type& p, double* out) const noexcept {
    out[0] = p.sum[0] / samples_;
    out[1] = p.sum[1] / samples_;
    out[2] = p.sum_sq[0] / samples_;
    out[3] = p.sum_sq[1] / samples_;
  }

 private:
  double samples_ = 1;
  std::vector<std::string> names_ = printed_names(provided);
};

template <class B>
  requires MomentKernel<B>
class FloatMoment : public float_moment_algorithm {
 public:
  using float_moment_algorithm::float_moment_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.moment(f, out); }
};

}  // namespace vqm
