// float_adm (libvmaf's float_adm.c, adm.c, adm_tools.c): ADM of the float luma (v = sample / 2^(bpc−8) −
// 128) over four scales of a binary32 db2 DWT. The kernel returns each scale's binary32 num, den and AIM
// num; the outputs (adm2, aim, adm3, adm_scale0..3, debug sums) are computed here in libvmaf's double
// order (docs/spec-float-features.md, "float_adm"). libvmaf divides in the decoupling with x86 RCPSS and
// one Newton step, so its bits depend on the CPU that ran it: adm_rcp picks whose (float_adm_rcp.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/metrics/adm.hpp"
#include "vqm/metrics/float_adm_rcp.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// What the kernel needs besides the pictures.
struct float_adm_request {
  float factor[4][3] = {};         // the CSF weights of each scale, bands (h, v, d)
  double enhn_gain_limit = 100.0;  // adm_enhn_gain_limit (a double in the decoupling)
  double noise_weight = 0.03125;   // adm_noise_weight
  double p_norm = 3.0;             // adm_p_norm
  bool bypass_cm = false;          // adm_bypass_cm: no contrast-masking threshold
  bool skip_scale0 = false;        // adm_skip_scale0: scale 0 computes the DWT's band a only
  const fadm::rcp_table* rcp = nullptr;  // the RCPSS table libvmaf divides with; null: exact division
};

// Per scale: libvmaf's binary32 num_scale, den_scale and aim_num_scale (skipped scale 0: 0, 1e−10f, 0).
struct float_adm_partials {
  std::array<float, 4> num{}, den{}, aim{};
};

template <class B>
concept FloatAdmKernel = Backend<B> && requires(B& b, typename B::frame& f, const float_adm_request& q,
                                                float_adm_partials& out) { b.float_adm(f, q, out); };

// libvmaf's options (float_adm.c), named, bounded and defaulted as there, and vqm's adm_rcp (no alias:
// it never renames the outputs).
struct float_adm_options {
  static constexpr const char* feature = "float_adm";
  static constexpr std::string_view rcp_names[] = {"host", "amd", "intel", "exact"};
  bool debug = false;
  double adm_enhn_gain_limit = 100.0;
  double adm_norm_view_dist = 3.0;
  double adm_noise_weight = 0.03125;
  double adm_csf_scale = 1.0;
  double adm_csf_diag_scale = 1.0;
  int adm_ref_display_height = 1080;
  int adm_csf_mode = 0;
  int adm_bypass_cm = 0;
  bool adm_adm3_apply_hm = false;
  double adm_p_norm = 3.0;
  double adm_dlm_weight = 0.5;
  double adm_min_val = 0.0;
  double adm_f1s0 = -1.0, adm_f1s1 = -1.0, adm_f1s2 = -1.0, adm_f1s3 = -1.0;
  double adm_f2s0 = -1.0, adm_f2s1 = -1.0, adm_f2s2 = -1.0, adm_f2s3 = -1.0;
  int adm_skip_aim_scale = -1;
  bool adm_skip_scale0 = false;
  std::string adm_rcp = "host";  // one of rcp_names

  static constexpr auto table() {
    using o = float_adm_options;
    return std::tuple{
        flag("debug", &o::debug, "also adm, adm_num, adm_den and per-scale num/den"),
        number("adm_enhn_gain_limit", &o::adm_enhn_gain_limit, 1.0, 100.0, "enhancement gain limit", "egl"),
        number("adm_norm_view_dist", &o::adm_norm_view_dist, 0.75, 24.0, "viewing distance / display height", "nvd"),
        number("adm_noise_weight", &o::adm_noise_weight, 0.0, 1500.0, "noise floor weight", "nw"),
        number("adm_csf_scale", &o::adm_csf_scale, 0.0, 50.0, "Barten csf scale (h/v)", "scf"),
        number("adm_csf_diag_scale", &o::adm_csf_diag_scale, 0.0, 50.0, "Barten csf scale (diagonal)", "scfd"),
        number("adm_ref_display_height", &o::adm_ref_display_height, 1, 4320, "display height in pixels", "rdf"),
        number("adm_csf_mode", &o::adm_csf_mode, 0, 9, "contrast sensitivity: 0 Watson, 1 Barten", "csf"),
        number("adm_bypass_cm", &o::adm_bypass_cm, 0, 1, "1: no contrast masking", "bcm"),
        flag("adm_adm3_apply_hm", &o::adm_adm3_apply_hm, "adm3 as the harmonic mean of adm2 and aim", "aah"),
        number("adm_p_norm", &o::adm_p_norm, 1.0, 20.0, "p-norm of the energies", "apn"),
        number("adm_dlm_weight", &o::adm_dlm_weight, 0.0, 1.0, "weight of adm2 in adm3 (the rest: 1 - aim)", "dlmw"),
        number("adm_min_val", &o::adm_min_val, 0.0, 1.0, "lower bound of adm3", "min"),
        number("adm_f1s0", &o::adm_f1s0, -1.0, 10.0, "h/v CSF weight of scale 0 (-1: the model's)", "f1s0"),
        number("adm_f1s1", &o::adm_f1s1, -1.0, 10.0, "h/v CSF weight of scale 1", "f1s1"),
        number("adm_f1s2", &o::adm_f1s2, -1.0, 10.0, "h/v CSF weight of scale 2", "f1s2"),
        number("adm_f1s3", &o::adm_f1s3, -1.0, 10.0, "h/v CSF weight of scale 3", "f1s3"),
        number("adm_f2s0", &o::adm_f2s0, -1.0, 10.0, "diagonal CSF weight of scale 0 (-1: the model's)", "f2s0"),
        number("adm_f2s1", &o::adm_f2s1, -1.0, 10.0, "diagonal CSF weight of scale 1", "f2s1"),
        number("adm_f2s2", &o::adm_f2s2, -1.0, 10.0, "diagonal CSF weight of scale 2", "f2s2"),
        number("adm_f2s3", &o::adm_f2s3, -1.0, 10.0, "diagonal CSF weight of scale 3", "f2s3"),
        number("adm_skip_aim_scale", &o::adm_skip_aim_scale, 0, 3, "leave this scale out of aim", "sasc"),
        flag("adm_skip_scale0", &o::adm_skip_scale0, "leave scale 0 out", "ssz"),
        text("adm_rcp", &o::adm_rcp, rcp_names,
             "vqm: whose x86 RCPSS libvmaf divides with (host: this CPU's; exact: plain division)"),
    };
  }
};

class float_adm_algorithm {
 public:
  using partials_type = float_adm_partials;
  using options = float_adm_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {
      {"VMAF_feature_adm2_score", "adm2"},
      {"VMAF_feature_aim_score", "aim"},
      {"VMAF_feature_adm3_score", "adm3"},
      {"VMAF_feature_adm_scale0_score", "adm_scale0"},
      {"VMAF_feature_adm_scale1_score", "adm_scale1"},
      {"VMAF_feature_adm_scale2_score", "adm_scale2"},
      {"VMAF_feature_adm_scale3_score", "adm_scale3"},
      "adm", "adm_num", "adm_den", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
      "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"};
  static constexpr std::size_t outputs = 7;

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_adm supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (f.width < 17 || f.height < 17)
      return "float_adm needs a luma plane of at least 17x17 (libvmaf reads outside its buffers below), the input is " +
             std::to_string(f.width) + "x" + std::to_string(f.height) + " (use a larger input)";
    if (o.adm_csf_mode != 0 && o.adm_csf_mode != 1)
      return "float_adm supports adm_csf_mode 0 (Watson) and 1 (Barten), not " + std::to_string(o.adm_csf_mode) +
             " (vqm does not reproduce libvmaf's other CSFs for float_adm yet)";
    return {};
  }

  explicit float_adm_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) : opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    const double f1[4] = {o.adm_f1s0, o.adm_f1s1, o.adm_f1s2, o.adm_f1s3};
    const double f2[4] = {o.adm_f2s0, o.adm_f2s1, o.adm_f2s2, o.adm_f2s3};
    for (int s = 0; s < 4; ++s) {
      // adm_tools.c: mode 0 1 / dwt_quant_step (Watson), mode 1 barten_csf at 100 cd/m² times the (diagonal)
      // scale — the integer adm's factors (SPEC-vmaf §6.1, §12.1); then the per-scale overrides.
      const double nvd = o.adm_norm_view_dist;
      const int rdh = o.adm_ref_display_height;
      const bool barten = o.adm_csf_mode == 1;
      float hv = barten ? adm_csf::barten(s, nvd, rdh, o.adm_csf_scale) : adm_csf::watson(s, 1, nvd, rdh);
      float d = barten ? adm_csf::barten(s, nvd, rdh, o.adm_csf_diag_scale) : adm_csf::watson(s, 2, nvd, rdh);
      if (f1[s] >= 0) hv = static_cast<float>(f1[s]);
      if (f2[s] >= 0) d = static_cast<float>(f2[s]);
      request_.factor[s][0] = request_.factor[s][1] = hv;
      request_.factor[s][2] = d;
    }
    request_.enhn_gain_limit = o.adm_enhn_gain_limit;
    request_.noise_weight = o.adm_noise_weight;
    request_.p_norm = o.adm_p_norm;
    request_.bypass_cm = o.adm_bypass_cm != 0;
    request_.skip_scale0 = o.adm_skip_scale0;
    for (std::size_t i = 0; i < std::size(options::rcp_names); ++i)  // the parser took one of them
      if (options::rcp_names[i] == o.adm_rcp) request_.rcp = fadm::table_for(static_cast<fadm::rcp_source>(i));
    // numden_limit of compute_adm: 1e−10 · (w·h, a C int) / (1920·1080).
    limit_ = 1e-10 * static_cast<double>(static_cast<int>(f.width * f.height)) / (1920.0 * 1080.0);
    names_ = printed_names(provided, options_suffix(o));
    names_[outputs] = "adm";  // not among libvmaf's provided_features: printed without the suffix
    if (!o.debug) names_.resize(outputs);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const float_adm_request& request() const noexcept { return request_; }

  // adm.c's compute_adm after the scales, and float_adm.c's outputs.
  void scores(const partials_type& p, double* out) const noexcept {
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    for (int s = 0; s < 4; ++s) {
      num += static_cast<double>(p.num[s]);
      den += static_cast<double>(p.den[s]);
      if (opt_.adm_skip_aim_scale != s) {
        aim_den += static_cast<double>(p.den[s]);
        aim_num += static_cast<double>(p.aim[s]);
      }
    }
    num = num < limit_ ? 0 : num;
    den = den < limit_ ? 0 : den;
    double adm2 = 1.0, aim = 0.0;  // den == 0: libvmaf leaves aim unassigned; 0 here
    if (den != 0.0) {
      const double q = aim_num / aim_den;
      aim = q < 1.0 ? q : 1.0;
      adm2 = num / den;
    }
    const double dw = opt_.adm_dlm_weight, mv = opt_.adm_min_val;
    const double e = opt_.adm_adm3_apply_hm ? 2 * adm2 * aim / (adm2 + aim) : adm2 * dw + (1 - aim) * (1 - dw);
    *out++ = adm2;
    *out++ = aim;
    *out++ = e > mv ? e : mv;
    for (int s = 0; s < 4; ++s) *out++ = static_cast<double>(p.num[s]) / static_cast<double>(p.den[s]);
    if (!opt_.debug) return;
    *out++ = adm2;
    *out++ = num;
    *out++ = den;
    for (int s = 0; s < 4; ++s) {
      *out++ = static_cast<double>(p.num[s]);
      *out++ = static_cast<double>(p.den[s]);
    }
  }

 private:
  options opt_;
  float_adm_request request_;
  std::vector<std::string> names_;
  double limit_ = 0;
};

template <class B>
  requires FloatAdmKernel<B>
class FloatAdm : public float_adm_algorithm {
 public:
  using float_adm_algorithm::float_adm_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.float_adm(f, request(), out); }
};

}  // namespace vqm
