// Integer ADM, feature "adm" (SPEC-vmaf Part II): libvmaf's integer_adm2, integer_aim, integer_adm3 and
// integer_adm_scale0..3. The backend kernel produces the exact integer accumulators (adm_partials); the
// per-frame float part (powf, §9.5, §10, §11) runs here, identically for every backend.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <math.h>  // ::powf, ::pow, ::log10, ::exp: glibc's, called at run time (SPEC §0, §16.4)
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/adm_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/adm.hpp"

namespace vqm {

// Options of SPEC §12, named, typed, bounded and defaulted as libvmaf's.
struct adm_options {
  static constexpr const char* feature = "adm";
  double enhn_gain_limit = 100.0;
  int csf_mode = 0;
  double norm_view_dist = 3.0;
  int ref_display_height = 1080;
  double csf_scale = 1.0;
  double csf_diag_scale = 1.0;
  double noise_weight = 0.03125;
  double dlm_weight = 0.5;
  double min_val = 0.0;
  bool skip_aim = false;
  bool skip_scale0 = false;
  bool debug = false;

  static constexpr auto table() {
    using o = adm_options;
    return std::tuple{
        number("adm_enhn_gain_limit", &o::enhn_gain_limit, 1.0, 100.0, "enhancement gain limit", "egl"),
        number("adm_csf_mode", &o::csf_mode, 0, 3, "contrast sensitivity: 0 Watson, 1 Barten, 2 and 3 blends", "csf"),
        number("adm_norm_view_dist", &o::norm_view_dist, 0.75, 24.0, "viewing distance / display height", "nvd"),
        number("adm_ref_display_height", &o::ref_display_height, 1, 4320, "display height in pixels", "rdh"),
        number("adm_csf_scale", &o::csf_scale, 0.0, 50.0, "Barten csf scale (h/v)", "scf"),
        number("adm_csf_diag_scale", &o::csf_diag_scale, 0.0, 50.0, "Barten csf scale (diagonal)", "scfd"),
        number("adm_noise_weight", &o::noise_weight, 0.0, 1500.0, "noise floor weight", "nw"),
        number("adm_dlm_weight", &o::dlm_weight, 0.0, 1.0, "weight of adm2 in adm3 (the rest: 1 - aim)", "dlmw"),
        number("adm_min_val", &o::min_val, 0.0, 1.0, "lower bound of adm3", "min"),
        flag("adm_skip_aim", &o::skip_aim, "leave integer_aim out (0)"),
        flag("adm_skip_scale0", &o::skip_scale0, "leave scale 0 out", "ssz"),
        flag("debug", &o::debug, "also integer_adm, its num/den and per-scale num/den"),
    };
  }
};

namespace adm_csf {

// glibc's libm, called through volatile pointers so that the compiler neither folds nor replaces them.
[[nodiscard]] inline float powf(float x, float y) noexcept {
  static float (*const volatile f)(float, float) = ::powf;
  return f(x, y);
}
[[nodiscard]] inline double pow(double x, double y) noexcept {
  static double (*const volatile f)(double, double) = ::pow;
  return f(x, y);
}
[[nodiscard]] inline double log10(double x) noexcept {
  static double (*const volatile f)(double) = ::log10;
  return f(x);
}
[[nodiscard]] inline double exp(double x) noexcept {
  static double (*const volatile f)(double) = ::exp;
  return f(x);
}

inline constexpr double pi = 3.14159265358979323846;
inline constexpr float third = 1.0f / 3.0f;  // TH, 0x3EAAAAAB

// §6.1 Watson factor 1/Q(λ, θ) (mode 0); θ = 1 for h/v, 2 for d.
[[nodiscard]] inline float watson(int lambda, int theta, double nvd, int rdh) noexcept {
  namespace T = tables::adm;
  const float r = static_cast<float>(nvd * rdh * pi / 180.0);
  const float tmp = static_cast<float>(log10(pow(2.0, lambda + 1) * static_cast<double>(T::watson_f0) *
                                             static_cast<double>(T::watson_g[static_cast<std::size_t>(theta)]) /
                                             static_cast<double>(r)));
  const float kk = (T::watson_k * tmp) * tmp;
  const float q = static_cast<float>(2.0 * static_cast<double>(T::watson_a) * pow(10.0, static_cast<double>(kk)) /
                                     static_cast<double>(T::watson_amp[lambda][theta]));
  return 1.0f / q;
}

// §12.1 Barten factor (mode 1), luminance 100 cd/m², times `scale`.
[[nodiscard]] inline float barten(int lambda, double nvd, int rdh, double scale) noexcept {
  namespace T = tables::adm;
  const float lum = 100.0f;
  const float r = static_cast<float>(nvd * rdh * pi / 180.0);
  const float sf = static_cast<float>(static_cast<double>(r) / pow(2.0, lambda + 1));
  const int li = 4;  // 20 <= 100 <= 150
  const float lp = static_cast<float>(log10(static_cast<double>(T::barten_anchor[li])));
  const float rp = static_cast<float>(log10(static_cast<double>(T::barten_anchor[li + 1])));
  const float sp = static_cast<float>(log10(100.0));
  float p[4];
  for (int c = 0; c < 4; ++c) {
    const float lv = T::barten_p[li][c + 1], rv = T::barten_p[li + 1][c + 1];
    p[c] = lv + ((rv - lv) / (rp - lp)) * (sp - lp);
  }
  const float a = static_cast<float>(1.0 + pow(static_cast<double>(p[0] * sf), static_cast<double>(p[1])));
  const double e = pow(static_cast<double>(sf / 7.0f), 2.0);
  const float b = static_cast<float>(1.0 / pow(1.0 - exp(-e), static_cast<double>(p[2])));
  const float csf = static_cast<float>(static_cast<double>(p[3]) / pow(static_cast<double>(a * b), 0.5));
  float mtf = 0.0f;
  for (int i = 0; i < 4; ++i)
    mtf = static_cast<float>(static_cast<double>(mtf) +
                             static_cast<double>(T::barten_ma[static_cast<std::size_t>(i)]) *
                                 exp(static_cast<double>(-T::barten_mb[static_cast<std::size_t>(i)] * sf)));
  const float rod = static_cast<float>(
      static_cast<double>(T::barten_sa[0]) *
      pow(pow(static_cast<double>(T::barten_sa[1] / lum), static_cast<double>(T::barten_sa[2])) + 1.0,
          -static_cast<double>(T::barten_sa[3])));
  return static_cast<float>(static_cast<double>((csf * mtf) * rod) * scale);
}

// (factor_hv, factor_d) of scale λ for the options (§6.1, §12.1).
[[nodiscard]] inline std::pair<float, float> factors(int lambda, const adm_options& o) noexcept {
  if (o.csf_mode == 1)
    return {barten(lambda, o.norm_view_dist, o.ref_display_height, o.csf_scale),
            barten(lambda, o.norm_view_dist, o.ref_display_height, o.csf_diag_scale)};
  if (o.csf_mode == 2 || o.csf_mode == 3) {
    const auto& tab = o.csf_mode == 2 ? tables::adm::blend_mode2 : tables::adm::blend_mode3;
    for (const auto& e : tab)
      if (e.rdh == o.ref_display_height && e.nvd == o.norm_view_dist) return {e.f[0][lambda], e.f[1][lambda]};
    return {-22.0f, -22.0f};  // libvmaf returns -EINVAL as the factor
  }
  return {watson(lambda, 1, o.norm_view_dist, o.ref_display_height),
          watson(lambda, 2, o.norm_view_dist, o.ref_display_height)};
}

// C conversions of an in-or-out-of-range double as GCC/x86 does them (§6.2).
[[nodiscard]] inline std::uint16_t to_u16(double d) noexcept {
  const double t = std::trunc(d);
  const std::int32_t v = (t >= -2147483648.0 && t < 2147483648.0) ? static_cast<std::int32_t>(t) : INT32_MIN;
  return static_cast<std::uint16_t>(static_cast<std::uint32_t>(v));
}
[[nodiscard]] inline std::uint32_t to_u32(double d) noexcept {
  const double t = std::trunc(d);
  const std::int64_t v = (t >= -9223372036854775808.0 && t < 9223372036854775808.0) ? static_cast<std::int64_t>(t)
                                                                                     : INT64_MIN;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
}

}  // namespace adm_csf

class adm_algorithm {
 public:
  using partials_type = adm_partials;
  using options = adm_options;
  static constexpr const char* feature_name = options::feature;
  // The outputs, then the debug outputs (integer_adm, num, den, per-scale num and den).
  static constexpr feature_output provided[] = {
      {"VMAF_integer_feature_adm2_score", "integer_adm2"},
      {"VMAF_integer_feature_aim_score", "integer_aim"},
      {"VMAF_integer_feature_adm3_score", "integer_adm3"},
      "integer_adm_scale0",     "integer_adm_scale1",     "integer_adm_scale2",     "integer_adm_scale3",
      "integer_adm",            "integer_adm_num",        "integer_adm_den",        "integer_adm_num_scale0",
      "integer_adm_den_scale0", "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2",
      "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3"};
  static constexpr std::size_t outputs = 7;

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (f.bit_depth < 8 || f.bit_depth > 16)
      return "adm supports 8- to 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (f.width < 33 || f.height < 33)
      return "adm needs a luma plane of at least 33x33 (libvmaf crashes or reads outside its buffers below), the "
             "input is " +
             std::to_string(f.width) + "x" + std::to_string(f.height) + " (use a larger input)";
    if (o.norm_view_dist * o.ref_display_height < 3.0 * 1080)
      return "adm needs adm_norm_view_dist * adm_ref_display_height >= 3240, got " +
             detail::format_g(o.norm_view_dist) + " * " + std::to_string(o.ref_display_height) +
             " (raise either option)";
    return {};
  }

  explicit adm_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    // §6: factors, cubes and the fixed-point multipliers.
    for (int s = 0; s < 4; ++s) {
      const auto [hv, d] = adm_csf::factors(s, o);
      const float fac[3] = {hv, hv, d};
      for (int b = 0; b < 3; ++b) cube_[s][b] = adm_csf::pow(static_cast<double>(fac[b]), 3.0);
      if (s == 0) {
        if (o.csf_mode == 0 && std::fabs(o.norm_view_dist * o.ref_display_height - 3.0 * 1080) < 1.0e-8) {
          for (int b = 0; b < 3; ++b) request_.irf0[b] = tables::adm::irf0_default[static_cast<std::size_t>(b)];
        } else {
          request_.irf0[0] = request_.irf0[1] = adm_csf::to_u16(static_cast<double>(hv) * 2097152.0);
          request_.irf0[2] = adm_csf::to_u16(static_cast<double>(d) * 8388608.0);
        }
      } else {
        for (int b = 0; b < 3; ++b) request_.irf[s - 1][b] = adm_csf::to_u32(static_cast<double>(fac[b]) * 4294967296.0);
      }
    }
    request_.enhn_gain_limit = o.enhn_gain_limit;
    request_.skip_scale0 = o.skip_scale0;
    request_.skip_aim = o.skip_aim;

    names_ = printed_names(provided, options_suffix(o));
    if (!o.debug) names_.resize(outputs);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const adm_request& request() const noexcept { return request_; }
  [[nodiscard]] const options& opts() const noexcept { return opt_; }

  // §9.5, §10 (float part) and §11, in libvmaf's order.
  void scores(const partials_type& p, double* out) const {
    namespace T = tables::adm;
    using adm_csf::powf;
    using adm_csf::third;
    const int W = static_cast<int>(format_.width), H = static_cast<int>(format_.height);
    float num_s[4], den_s[4], aim_s[4];
    for (int s = 0; s < 4; ++s) {
      num_s[s] = den_s[s] = aim_s[s] = 0.0f;
      if (s == 0 && opt_.skip_scale0) {
        den_s[0] = static_cast<float>(1e-10);
        continue;
      }
      const int w = T::subband_size(W, s), h = T::subband_size(H, s);
      const auto reg = T::inner_region(w, h);
      const int area = (reg.bottom - reg.top) * (reg.right - reg.left);
      const float noise = powf(static_cast<float>(area * opt_.noise_weight), third);
      const float noise0 = powf(static_cast<float>(area * 0.0), third);
      const int r = T::ceil_log2(static_cast<std::uint64_t>(h));
      float dn[3], nn[3], an[3];
      for (int b = 0; b < 3; ++b) {
        double csf;
        if (s == 0) {
          const int z = std::max(0, T::bit_length(static_cast<std::uint64_t>(area - 1)) - 20);
          csf = (static_cast<double>(p.den[0][b]) / std::ldexp(1.0, 18 - z)) * cube_[0][b];
          const int cb = T::bit_length(static_cast<std::uint64_t>(w - 1)) - (b == 2 ? 3 : 4);
          const double e = std::ldexp(1.0, (b == 2 ? 57 : 52) - cb - r);
          nn[b] = powf(static_cast<float>(static_cast<double>(p.dlm[0][b]) / e), third) + noise;
          an[b] = powf(static_cast<float>(static_cast<double>(p.aim[0][b]) / e), third) + noise0;
        } else {
          static constexpr int G[4] = {0, 32, 27, 23}, E[4] = {0, 45, 39, 36};
          const int c = T::ceil_log2(static_cast<std::uint64_t>(reg.right - reg.left));
          const int z = T::ceil_log2(static_cast<std::uint64_t>(reg.bottom - reg.top));
          csf = (static_cast<double>(p.den[s][b]) / std::ldexp(1.0, G[s] - z - c)) * cube_[s][b];
          const int cs = T::ceil_log2(static_cast<std::uint64_t>(w));
          const float e = static_cast<float>(std::ldexp(1.0, E[s] - cs - r));
          nn[b] = powf(static_cast<float>(p.dlm[s][b]) / e, third) + noise;
          an[b] = powf(static_cast<float>(p.aim[s][b]) / e, third) + noise0;
        }
        dn[b] = powf(static_cast<float>(csf), third) + noise;
      }
      den_s[s] = (dn[0] + dn[1]) + dn[2];
      num_s[s] = (nn[0] + nn[1]) + nn[2];
      if (!opt_.skip_aim) aim_s[s] = (an[0] + an[1]) + an[2];
    }
    double num = 0.0, den = 0.0, aimn = 0.0;
    for (int s = 0; s < 4; ++s) {
      num += static_cast<double>(num_s[s]);
      den += static_cast<double>(den_s[s]);
      aimn += static_cast<double>(aim_s[s]);
    }
    const double limit = 1e-10 * static_cast<double>(std::int64_t{W} * H) / (1920.0 * 1080.0);
    if (num < limit) num = 0.0;
    if (den < limit) den = 0.0;
    double adm2 = 1.0, aim = 0.0;  // den == 0: libvmaf leaves aim unassigned; 0.0 here (SPEC §14.3)
    if (den != 0.0) {
      adm2 = num / den;
      aim = aimn / den;
    }
    const double e = adm2 * opt_.dlm_weight + (1 - aim) * (1 - opt_.dlm_weight);
    const double adm3 = e > opt_.min_val ? e : opt_.min_val;
    *out++ = adm2;
    *out++ = aim;
    *out++ = adm3;
    for (int s = 0; s < 4; ++s)
      *out++ = (s == 0 && opt_.skip_scale0) ? 0.0 : static_cast<double>(num_s[s]) / static_cast<double>(den_s[s]);
    if (opt_.debug) {
      *out++ = adm2;
      *out++ = num;
      *out++ = den;
      for (int s = 0; s < 4; ++s) {
        *out++ = static_cast<double>(num_s[s]);
        *out++ = static_cast<double>(den_s[s]);
      }
    }
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  options opt_;
  adm_request request_;
  double cube_[4][3] = {};
  std::vector<std::string> names_;
};

template <class B>
  requires AdmKernel<B>
class Adm : public adm_algorithm {
 public:
  using adm_algorithm::adm_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.adm(f, request(), out); }
};

}  // namespace vqm
