// Integer PSNR, feature "psnr" (SPEC §2): psnr_y/cb/cr, optional mse_*, aggregate apsnr_*.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/metrics/reduce.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

// Host math of integer PSNR; backend-independent.
// Options, named, typed and defaulted as libvmaf's.
struct psnr_options {
  static constexpr const char* feature = "psnr";
  bool enable_chroma = true;
  bool enable_mse = false;
  bool enable_apsnr = false;
  bool reduced_hbd_peak = false;
  double min_sse = 0.0;

  static constexpr auto table() {
    return std::tuple{
        flag("enable_chroma", &psnr_options::enable_chroma, "also the Cb and Cr planes (off for 4:0:0 input)"),
        flag("enable_mse", &psnr_options::enable_mse, "also mse_y, mse_cb, mse_cr per frame"),
        flag("enable_apsnr", &psnr_options::enable_apsnr, "also apsnr_y/cb/cr over the whole clip (aggregate)"),
        flag("reduced_hbd_peak", &psnr_options::reduced_hbd_peak, "peak 255 * 2^(bpc-8) instead of 2^bpc - 1"),
        number("min_sse", &psnr_options::min_sse, 0.0, std::numeric_limits<double>::max(),
               "derive the dB ceiling from this minimum SSE (0: 6 * bpc + 12 dB)"),
    };
  }
};

class psnr_algorithm {
 public:
  using partials_type = sse_partials;
  using options = psnr_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"psnr_y", "psnr_cb", "psnr_cr",  "mse_y",   "mse_cb",
                                                "mse_cr", "apsnr_y", "apsnr_cb", "apsnr_cr"};


  // Why this input cannot be measured, or an empty string when it can (non-throwing probe).
  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
      return "psnr supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (!(o.min_sse >= 0.0) || !std::isfinite(o.min_sse)) return "psnr option min_sse must be a finite number >= 0";
    return {};
  }

  // With APSNR, psnr sees every frame, also frames --subsample does not report.
  [[nodiscard]] static bool temporal(const options& o) noexcept { return o.enable_apsnr; }

  explicit psnr_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o), compat_(c) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    planes_ = (o.enable_chroma && f.planes() == 3) ? 3 : 1;
    const std::uint64_t peak = o.reduced_hbd_peak ? (255ull << (f.bit_depth - 8)) : ((1ull << f.bit_depth) - 1);
    peak_sq_ = peak * peak;
    const auto rounding = chroma_rounding_for(c);
    for (int p = 0; p < 3; ++p) {
      // libvmaf sizes the ceiling from floor chroma dims at init (compat) — same for even sizes.
      samples_[p] = std::uint64_t{f.plane_width(p, rounding)} * f.plane_height(p, rounding);
      const double n = static_cast<double>(samples_[p]);
      psnr_max_[p] = o.min_sse > 0.0 ? std::ceil(10.0 * std::log10(static_cast<double>(peak_sq_) / (o.min_sse / n)))
                                     : 6.0 * f.bit_depth + 12.0;
    }
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(provided[p].printed);
      if (o.enable_mse) names_.emplace_back(provided[3 + p].printed);
    }
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] sse_request request() const noexcept { return {planes_ == 3}; }

  // Per-frame values in names() order.
  void scores(const partials_type& part, double* out) const {
    for (int p = 0; p < planes_; ++p) {
      const double mse = static_cast<double>(part.sse[p]) / static_cast<double>(samples_[p]);
      *out++ = reduce::psnr_db(static_cast<double>(peak_sq_), mse, 1e-16, psnr_max_[p]);
      if (opt_.enable_mse) *out++ = mse;
    }
  }

  // psnr is temporal in libvmaf: every frame is accumulated for APSNR, subsampled or not.
  void accumulate(const partials_type& part) noexcept {
    for (int p = 0; p < planes_; ++p) {
      sse_acc_[p] += part.sse[p];
      n_acc_[p] += samples_[p];
    }
  }

  [[nodiscard]] std::vector<named_value> aggregate() const {
    std::vector<named_value> out;
    if (!opt_.enable_apsnr) return out;
    // libvmaf emits all three, -inf for planes it never measured; by default we leave those out.
    const int n = compat_ == compat::libvmaf ? 3 : planes_;
    for (int p = 0; p < n; ++p) {
      const double a = 10.0 * (std::log10(static_cast<double>(peak_sq_)) + std::log10(static_cast<double>(n_acc_[p])) -
                               std::log10(static_cast<double>(sse_acc_[p])));
      const double cap = std::ceil(10.0 * std::log10(static_cast<double>(peak_sq_ * n_acc_[p] * 2)));
      out.emplace_back(provided[6 + p].printed, reduce::vmaf_min(a, cap));
    }
    return out;
  }

  // The APSNR sums (SSE and samples per plane): a shard's, merged by adding (integer sums, so any split
  // gives the whole stream's).
  [[nodiscard]] std::vector<std::uint64_t> clip_state() const {
    return {sse_acc_[0], sse_acc_[1], sse_acc_[2], n_acc_[0], n_acc_[1], n_acc_[2]};
  }
  void set_clip_state(std::span<const std::uint64_t> w) {
    sse_acc_ = {};
    n_acc_ = {};
    merge_clip_state(w);
  }
  void merge_clip_state(std::span<const std::uint64_t> w) {
    if (w.empty()) return;
    if (w.size() != 6) throw error(errc::invalid_argument, "psnr: a clip state of " + std::to_string(w.size()) + " words, not 6");
    for (int p = 0; p < 3; ++p) {
      sse_acc_[p] += w[p];
      n_acc_[p] += w[3 + p];
    }
  }

  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  options opt_;
  compat compat_;
  int planes_ = 1;
  std::uint64_t peak_sq_ = 0;
  std::array<double, 3> psnr_max_{};
  std::array<std::uint64_t, 3> samples_{}, sse_acc_{}, n_acc_{};
  std::vector<std::string> names_;
};

template <class B>
  requires SseKernel<B>
class Psnr : public psnr_algorithm {
 public:
  using psnr_algorithm::psnr_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.sse(f, request(), out); }
};

}  // namespace vqm
