// float_vif (libvmaf's float_vif.c, vif.c, vif_tools.c): VIF of the float luma (v = sample / 2^(bpc−8) −
// 128) over four scales of binary32 Gaussian filtering and decimation. The kernel returns each scale's
// binary32 num and den sums; the outputs are their double quotients (docs/spec-float-features.md).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
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

// What the kernel needs besides the pictures: the statistic's two parameters, as libvmaf passes them.
struct float_vif_request {
  double gain_limit = 100.0;  // vif_enhn_gain_limit (the statistic uses it as binary32)
  double sigma_nsq = 2.0;     // vif_sigma_nsq (the statistic divides by it in double)
  float kernelscale = 1.0f;   // vif_kernelscale as binary32 (the taps' scale)
  bool skip_scale0 = false;   // vif_skip_scale0: scale 0's statistic is not computed (its sums stay 0)
};

// Per scale, libvmaf's binary32 sums of the per-pixel num and den terms (rows summed, then added).
struct float_vif_partials {
  std::array<float, 4> num{};
  std::array<float, 4> den{};
};

template <class B>
concept FloatVifKernel = Backend<B> && requires(B& b, typename B::frame& f, const float_vif_request& q,
                                                float_vif_partials& out) { b.float_vif(f, q, out); };

namespace fvif {

// libvmaf's filter width of a scale: the odd ceiling of (2^(4−s) + 1)·kernelscale, at least 3.
[[nodiscard]] inline int filter_width(int scale, float kernelscale) {
  const float n = static_cast<float>((1 << (4 - scale)) + 1) * kernelscale;
  const int c = static_cast<int>(std::ceil(n));
  return std::max(c % 2 == 0 ? c + 1 : c, 3);
}

// libvmaf's get_1d_gaussian_kernel, computed at run time in its mixed float/double order: pdf(i) =
// f32(exp(−0.5·x/σ·x/σ)) / f32(1/(σ·sqrt(2π))) in binary32 (x, σ binary32, the rest double), then each
// divided by their binary32 sum (added in order). n taps, n odd.
[[nodiscard]] inline std::vector<float> gaussian_taps(int n, float sd) {
  const double two_pi = 2 * 3.14159265358979323846;
  std::vector<float> t(static_cast<std::size_t>(n));
  float sum = 0;
  for (int i = 0; i < n; ++i) {
    const float x = static_cast<float>(i - (n - 1) / 2);
    const auto num = static_cast<float>(std::exp(-0.5 * x / sd * x / sd));
    const auto den = static_cast<float>(1 / (sd * std::sqrt(two_pi)));
    t[static_cast<std::size_t>(i)] = num / den;
    sum += t[static_cast<std::size_t>(i)];
  }
  for (auto& v : t) v /= sum;
  return t;
}

// The statistic's σ_max_inv = f32(powf(f32(nsq), 2) / 255²): powf(x, 2) is x·x correctly rounded (GCC
// emits x·x for it).
[[nodiscard]] inline float sigma_max_inv(double sigma_nsq) noexcept {
  const float nsq_f = static_cast<float>(sigma_nsq);
  return static_cast<float>(static_cast<double>(nsq_f * nsq_f) / (255.0 * 255.0));
}

// libvmaf's taps of a scale (vif_get_filter): σ = width / 5 in binary32.
[[nodiscard]] inline std::vector<float> filter_taps(int scale, float kernelscale) {
  const int n = filter_width(scale, kernelscale);
  return gaussian_taps(n, static_cast<float>(n) / 5.0f);
}

// libvmaf's accepted kernel scales (vif_tools.h), binary32; a value within 1e−3 of one passes (fabsf of
// the binary32 difference) and is then used as given.
[[nodiscard]] inline bool valid_kernelscale(float ks) {
  static constexpr float valid[] = {1.0f,          1.0f / 2.0f,   3.0f / 2.0f,    2.0f,      2.0f / 3.0f,
                                    24.0f / 10.0f, 360.0f / 97.0f, 4.0f / 3.0f,   3.5f / 3.0f, 3.75f / 3.0f,
                                    4.25f / 3.0f,  5.0f / 3.0f,   3.0f,           1.0f / 2.25f, 1.4746f,
                                    1.54f,         1.6f,          1.06667f,       0.711111f, 0.740740f,
                                    1.111111f};
  for (float v : valid)
    if (std::fabs(ks - v) < 1e-3) return true;
  return false;
}

// The smallest luma side whose every scale has at least half its filter + 1 samples (libvmaf's mirror
// reads outside the picture otherwise): 16 at kernelscale 1.
[[nodiscard]] inline std::uint32_t min_side(float ks) {
  std::uint32_t side = 1;
  for (int s = 0; s < 4; ++s)
    side = std::max(side, static_cast<std::uint32_t>(filter_width(s, ks) / 2 + 1) << s);
  return side;
}

}  // namespace fvif

// libvmaf's options (float_vif.c), named, bounded and defaulted as there. vif_prescale is accepted at its
// default only (unsupported() says why); vif_prescale_method (a string, inert at prescale 1) is not taken.
struct float_vif_options {
  static constexpr const char* feature = "float_vif";
  bool debug = false;
  double vif_enhn_gain_limit = 100.0;
  double vif_kernelscale = 1.0;
  double vif_prescale = 1.0;
  double vif_scale1_min_val = 0.0;
  double vif_scale2_min_val = 0.0;
  double vif_scale3_min_val = 0.0;
  double vif_sigma_nsq = 2.0;
  bool vif_skip_scale0 = false;

  static constexpr auto table() {
    using o = float_vif_options;
    return std::tuple{
        flag("debug", &o::debug, "also vif, vif_num, vif_den and per-scale num/den"),
        number("vif_enhn_gain_limit", &o::vif_enhn_gain_limit, 1.0, 100.0, "enhancement gain limit", "egl"),
        number("vif_kernelscale", &o::vif_kernelscale, 0.1, 4.0, "Gaussian kernel scale (libvmaf's list)", "ks"),
        number("vif_prescale", &o::vif_prescale, 0.1, 4.0, "frame scale before VIF (1 only)", "ps"),
        number("vif_scale1_min_val", &o::vif_scale1_min_val, 0.0, 1.0, "lower bound of vif_scale1", "s1miv"),
        number("vif_scale2_min_val", &o::vif_scale2_min_val, 0.0, 1.0, "lower bound of vif_scale2", "s2miv"),
        number("vif_scale3_min_val", &o::vif_scale3_min_val, 0.0, 1.0, "lower bound of vif_scale3", "s3miv"),
        number("vif_sigma_nsq", &o::vif_sigma_nsq, 0.0, 5.0, "neural noise variance", "snsq"),
        flag("vif_skip_scale0", &o::vif_skip_scale0, "leave scale 0 out", "ssclz"),
    };
  }
};

class float_vif_algorithm {
 public:
  using partials_type = float_vif_partials;
  using options = float_vif_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {
      {"VMAF_feature_vif_scale0_score", "vif_scale0"},
      {"VMAF_feature_vif_scale1_score", "vif_scale1"},
      {"VMAF_feature_vif_scale2_score", "vif_scale2"},
      {"VMAF_feature_vif_scale3_score", "vif_scale3"},
      "vif", "vif_num", "vif_den", "vif_num_scale0", "vif_den_scale0", "vif_num_scale1", "vif_den_scale1",
      "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3"};
  static constexpr std::size_t outputs = 4;

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_vif supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    const auto ks = static_cast<float>(o.vif_kernelscale);
    if (!fvif::valid_kernelscale(ks))
      return "float_vif: invalid vif_kernelscale " + detail::format_g(o.vif_kernelscale) +
             " (libvmaf takes 1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, "
             "1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, 1.111111)";
    if (const auto side = fvif::min_side(ks); f.width < side || f.height < side)
      return "float_vif needs a luma of at least " + std::to_string(side) + "x" + std::to_string(side) +
             " at vif_kernelscale " + detail::format_g(o.vif_kernelscale) +
             " (libvmaf's filters read outside the picture below it), the input is " + std::to_string(f.width) + "x" +
             std::to_string(f.height);
    if (o.vif_prescale != 1.0)
      return "float_vif supports vif_prescale=1 only (vqm does not reproduce libvmaf's resampling yet)";
    return {};
  }

  explicit float_vif_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) : opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_.gain_limit = o.vif_enhn_gain_limit;
    request_.sigma_nsq = o.vif_sigma_nsq;
    request_.kernelscale = static_cast<float>(o.vif_kernelscale);
    request_.skip_scale0 = o.vif_skip_scale0;
    names_ = printed_names(provided, options_suffix(o));
    if (!o.debug) names_.resize(outputs);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const float_vif_request& request() const noexcept { return request_; }

  // float_vif.c: each scale's num/den in double; scales 1–3 raised to their min_val (C's MAX, so a NaN
  // quotient gives min_val); debug: the sums over the scales in double and their quotient. With
  // vif_skip_scale0 scale 0 prints 0, its num 0 and den −1, and adds 0 to the sums.
  void scores(const partials_type& p, double* out) const noexcept {
    const double floor[4] = {0.0, opt_.vif_scale1_min_val, opt_.vif_scale2_min_val, opt_.vif_scale3_min_val};
    const bool skip = opt_.vif_skip_scale0;
    for (int s = 0; s < 4; ++s) {
      const double q = static_cast<double>(p.num[s]) / static_cast<double>(p.den[s]);
      out[s] = s == 0 ? (skip ? 0.0 : q) : (q > floor[s] ? q : floor[s]);
    }
    if (!opt_.debug) return;
    double n = 0.0, d = 0.0;
    for (int s = skip ? 1 : 0; s < 4; ++s) n += static_cast<double>(p.num[s]);
    for (int s = skip ? 1 : 0; s < 4; ++s) d += static_cast<double>(p.den[s]);
    out[4] = d == 0.0 ? 1.0 : n / d;
    out[5] = n;
    out[6] = d;
    for (int s = 0; s < 4; ++s) {
      out[7 + 2 * s] = static_cast<double>(p.num[s]);
      out[8 + 2 * s] = static_cast<double>(p.den[s]);
    }
    if (skip) out[8] = -1.0;
  }

 private:
  options opt_;
  float_vif_request request_;
  std::vector<std::string> names_;
};

template <class B>
  requires FloatVifKernel<B>
class FloatVif : public float_vif_algorithm {
 public:
  using float_vif_algorithm::float_vif_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.float_vif(f, request(), out); }
};

}  // namespace vqm
