// Integer VIF, feature "vif" (SPEC-vmaf Part I): libvmaf's integer_vif_scale0..3. The backend kernel
// produces the exact integer sums per scale (vif_partials); the per-frame float part (§10, §11) runs here,
// identically for every backend.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/vif.hpp"

namespace vqm {

// Options of SPEC §1, named, typed, bounded and defaulted as libvmaf's.
struct vif_options {
  static constexpr const char* feature = "vif";
  double vif_enhn_gain_limit = tables::vif_default_gain_limit;
  bool vif_skip_scale0 = false;
  bool debug = false;

  static constexpr auto table() {
    using o = vif_options;
    return std::tuple{
        number("vif_enhn_gain_limit", &o::vif_enhn_gain_limit, 1.0, 100.0, "enhancement gain limit", "egl"),
        flag("vif_skip_scale0", &o::vif_skip_scale0, "leave scale 0 out", "ssclz"),
        flag("debug", &o::debug, "also integer_vif, its num/den and per-scale num/den"),
    };
  }
};

class vif_algorithm {
 public:
  using partials_type = vif_partials;
  using options = vif_options;
  static constexpr const char* feature_name = options::feature;
  // The outputs, then the debug outputs (integer_vif, num, den, per-scale num and den).
  static constexpr feature_output provided[] = {
      {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
      {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
      {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
      {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
      "integer_vif",            "integer_vif_num",        "integer_vif_den",        "integer_vif_num_scale0",
      "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1", "integer_vif_num_scale2",
      "integer_vif_den_scale2", "integer_vif_num_scale3", "integer_vif_den_scale3"};
  static constexpr std::size_t outputs = 4;

  // Empty when libvmaf's integer VIF is defined for this input (SPEC §12), else why not and what to do.
  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    const auto size = std::to_string(f.width) + "x" + std::to_string(f.height);
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "vif supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (f.height < 8)
      return "vif needs a luma height of at least 8 (libvmaf crashes below it), the input is " + size +
             " (use a taller input)";
    if (f.width < 2)
      return "vif needs a luma width of at least 2 (libvmaf reads undefined memory below it), the input is " + size +
             " (use a wider input)";
    if (o.vif_skip_scale0 && f.width < 4)
      return "vif with vif_skip_scale0 needs a luma width of at least 4 (libvmaf reads undefined memory below it), "
             "the input is " + size + " (use a wider input, or leave vif_skip_scale0 off)";
    return {};
  }

  explicit vif_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_.gain_limit = o.vif_enhn_gain_limit;
    request_.skip_scale0 = o.vif_skip_scale0;
    names_ = printed_names(provided, options_suffix(o));
    if (!o.debug) names_.resize(outputs);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const vif_request& request() const noexcept { return request_; }

  // §10: num and den of one scale as libvmaf stores them (binary32), from the exact sums.
  [[nodiscard]] static std::pair<float, float> num_den(const vif_scale_sums& t) noexcept {
    const double a = static_cast<double>(t.num_log) / 2048.0;
    const double c = (static_cast<double>(t.num_non_log) / 16384.0) / 65025.0;
    const double dn = static_cast<double>(t.den_non_log);
    const auto num = static_cast<float>(a + (dn - c));
    const auto den = static_cast<float>(static_cast<double>(t.den_log) / 2048.0 + dn);
    return {num, den};
  }

  // §10, §11: the outputs in names() order.
  void scores(const partials_type& part, double* out) const {
    std::array<float, 4> num{}, den{};
    for (int s = 0; s < 4; ++s) {
      if (s == 0 && opt_.vif_skip_scale0) {
        num[0] = 0.0f;
        den[0] = -1.0f;
        out[0] = 0.0;
        continue;
      }
      std::tie(num[s], den[s]) = num_den(part.scale[static_cast<std::size_t>(s)]);
      out[s] = static_cast<double>(num[s] / den[s]);  // binary32 division; 0/0 (empty scale) is NaN
    }
    if (!opt_.debug) return;
    double n = 0.0, d = 0.0;
    const int first = opt_.vif_skip_scale0 ? 1 : 0;
    for (int s = first; s < 4; ++s) n += static_cast<double>(num[s]);
    for (int s = first; s < 4; ++s) d += static_cast<double>(den[s]);
    out[4] = d == 0.0 ? 1.0 : n / d;
    out[5] = n;
    out[6] = d;
    for (int s = 0; s < 4; ++s) {
      out[7 + 2 * s] = static_cast<double>(num[s]);
      out[8 + 2 * s] = static_cast<double>(den[s]);
    }
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  options opt_;
  vif_request request_;
  std::vector<std::string> names_;
};

template <class B>
  requires VifKernel<B>
class Vif : public vif_algorithm {
 public:
  using vif_algorithm::vif_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.vif(f, request(), out); }
};

}  // namespace vqm
