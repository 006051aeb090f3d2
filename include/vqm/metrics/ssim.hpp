// SSIM, feature "float_ssim" (SPEC §4): luma only; outputs float_ssim and optionally _l/_c/_s.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/metrics/reduce.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

// Options, named, typed and defaulted as libvmaf's.
struct ssim_options {
  static constexpr const char* feature = "float_ssim";
  std::uint32_t scale = 0;
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;

  static constexpr auto table() {
    return std::tuple{
        number("scale", &ssim_options::scale, 0u, 10u, "decimation factor: 0 automatic, 1 none, 2..10 forced"),
        flag("enable_lcs", &ssim_options::enable_lcs, "also float_ssim_l, _c and _s (luminance, contrast, structure)"),
        flag("enable_db", &ssim_options::enable_db, "float_ssim in dB: -10 * log10(1 - ssim)"),
        flag("clip_db", &ssim_options::clip_db, "with enable_db, cap the dB value at the input's maximum"),
    };
  }
};

class ssim_algorithm {
 public:
  using partials_type = ssim_partials;
  using options = ssim_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"};


  [[nodiscard]] static std::uint32_t resolved_scale(const picture_format& f, const options& o) noexcept {
    return o.scale > 0 ? o.scale : ssim_auto_scale(f.width, f.height);
  }

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat c = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "float_ssim supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (o.scale > 10) return "float_ssim option scale must be 0 (automatic) to 10, got " + std::to_string(o.scale);
    const auto s = resolved_scale(f, o);
    const auto w = ssim_decimated(f.width, s), h = ssim_decimated(f.height, s);
    if (c != compat::libvmaf && (w < 11 || h < 11))
      return "float_ssim needs at least 11x11 samples after decimation by " + std::to_string(s) + ", the input " +
             std::to_string(f.width) + "x" + std::to_string(f.height) + " gives " + std::to_string(w) + "x" +
             std::to_string(h) + " (use a larger input, or scale=1)";
    return {};
  }

  explicit ssim_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_.scale = resolved_scale(f, o);
    // Signed: libvmaf's mean over a degenerate map is 0/(negative or zero) (compat mode only).
    map_size_ = (std::int64_t{ssim_decimated(f.width, request_.scale)} - 10) *
                (std::int64_t{ssim_decimated(f.height, request_.scale)} - 10);
    max_db_ = o.clip_db ? reduce::ssim_max_db(f.width, f.height, f.bit_depth) : std::numeric_limits<double>::infinity();
    names_ = printed_names(provided);
    if (!o.enable_lcs) names_.resize(1);
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const ssim_request& request() const noexcept { return request_; }

  void scores(const partials_type& part, double* out) const {
    const double ssim = reduce::ssim_mean(part.ssim, map_size_);
    *out++ = opt_.enable_db ? reduce::ssim_db(ssim, max_db_) : ssim;
    if (opt_.enable_lcs) {
      *out++ = reduce::ssim_mean(part.l, map_size_);
      *out++ = reduce::ssim_mean(part.c, map_size_);
      *out++ = reduce::ssim_mean(part.s, map_size_);
    }
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  options opt_;
  ssim_request request_;
  std::int64_t map_size_ = 0;
  double max_db_ = 0;
  std::vector<std::string> names_;
};

template <class B>
  requires SsimKernel<B>
class Ssim : public ssim_algorithm {
 public:
  using ssim_algorithm::ssim_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.ssim(f, request(), out); }
};

}  // namespace vqm
