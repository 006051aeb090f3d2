// MS-SSIM, feature "float_ms_ssim" (SPEC §5): luma only; 5-scale Wang product, optional 15 lcs values.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/metrics/ms_ssim_combine.hpp"
#include "vqm/metrics/reduce.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

// Options, named, typed and defaulted as libvmaf's.
struct ms_ssim_options {
  static constexpr const char* feature = "float_ms_ssim";
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;

  static constexpr auto table() {
    return std::tuple{
        flag("enable_lcs", &ms_ssim_options::enable_lcs, "also the 15 per-scale l, c and s means"),
        flag("enable_db", &ms_ssim_options::enable_db, "float_ms_ssim in dB: -10 * log10(1 - ms_ssim)"),
        flag("clip_db", &ms_ssim_options::clip_db, "with enable_db, cap the dB value at the input's maximum"),
    };
  }
};

class ms_ssim_algorithm {
 public:
  using partials_type = ms_ssim_partials;
  using options = ms_ssim_options;
  static constexpr const char* feature_name = options::feature;
  // float_ms_ssim, then l, c and s of scales 0..4.
  static constexpr feature_output provided[] = {
      "float_ms_ssim",        "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
      "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4", "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1",
      "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4", "float_ms_ssim_s_scale0",
      "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4"};
  static constexpr std::uint32_t min_size = 176;  // 11 << 4: every level keeps an 11x11 window


  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_ms_ssim supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    // libvmaf fails mid-run ("scale below 1x1"); we refuse up front, in every mode.
    if (f.width < min_size || f.height < min_size)
      return "float_ms_ssim needs at least 176x176 samples (5 scales of an 11x11 window), the input is " +
             std::to_string(f.width) + "x" + std::to_string(f.height);
    return {};
  }

  explicit ms_ssim_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    for (int k = 0; k < ms_ssim_scales; ++k)
      map_size_[k] = (std::int64_t{ms_ssim_level_size(f.width, k)} - 10) * (std::int64_t{ms_ssim_level_size(f.height, k)} - 10);
    max_db_ = o.clip_db ? reduce::ssim_max_db(f.width, f.height, f.bit_depth) : std::numeric_limits<double>::infinity();
    names_ = printed_names(provided);
    if (!o.enable_lcs) names_.resize(1);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  [[nodiscard]] ms_ssim_scale_means means(const partials_type& part) const noexcept {
    ms_ssim_scale_means m;
    for (int k = 0; k < ms_ssim_scales; ++k) {
      m.l[k] = reduce::ssim_mean(part.level[k].l, map_size_[k]);
      m.c[k] = reduce::ssim_mean(part.level[k].c, map_size_[k]);
      m.s[k] = reduce::ssim_mean(part.level[k].s, map_size_[k]);
    }
    return m;
  }

  void scores(const partials_type& part, double* out) const {
    const auto m = means(part);
    const double ms = ms_ssim_combine(m);
    if (ms == std::numeric_limits<double>::infinity())
      throw error(errc::bad_input, "float_ms_ssim: the scale product overflowed to infinity");
    *out++ = opt_.enable_db ? reduce::ssim_db(ms, max_db_) : ms;
    if (opt_.enable_lcs)
      for (const auto* t : {&m.l, &m.c, &m.s})
        for (int k = 0; k < ms_ssim_scales; ++k) *out++ = (*t)[k];
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  options opt_;
  std::array<std::int64_t, ms_ssim_scales> map_size_{};
  double max_db_ = 0;
  std::vector<std::string> names_;
};

template <class B>
  requires MsSsimKernel<B>
class MsSsim : public ms_ssim_algorithm {
 public:
  using ms_ssim_algorithm::ms_ssim_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.ms_ssim(f, out); }
};

}  // namespace vqm
