// PSNR-HVS, feature "psnr_hvs" (SPEC §6): psnr_hvs_y/cb/cr and the combined psnr_hvs.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/psnr_hvs_kernel.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

// Blocks along one dimension: 8x8 blocks every 7 samples, origins while origin < D − 7 (SPEC §6.2).
[[nodiscard]] constexpr std::uint32_t psnr_hvs_blocks(std::uint32_t d) noexcept { return d >= 8 ? (d - 8) / 7 + 1 : 0; }

// psnr_hvs takes no options.
struct psnr_hvs_options {
  static constexpr const char* feature = "psnr_hvs";
};

class psnr_hvs_algorithm {
 public:
  using partials_type = psnr_hvs_partials;
  using options = psnr_hvs_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};


  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& = {}, compat c = compat::none) {
    if (f.bit_depth < 8 || f.bit_depth > 12)
      return "psnr_hvs supports 8 to 12-bit input (its integer DCT overflows above), not " +
             std::to_string(f.bit_depth) + "-bit";
    if (f.chroma == chroma_format::yuv400) return "psnr_hvs needs chroma planes; 4:0:0 (gray) input is not supported";
    if (c != compat::libvmaf)
      for (int p = 0; p < 3; ++p)
        if (f.plane_width(p) < 8 || f.plane_height(p) < 8)
          return "psnr_hvs needs every plane to be at least 8x8 samples; plane " + std::to_string(p) + " is " +
                 std::to_string(f.plane_width(p)) + "x" + std::to_string(f.plane_height(p));
    return {};
  }

  explicit psnr_hvs_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) : format_(f) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    const auto r = chroma_rounding_for(c);
    for (int p = 0; p < 3; ++p)
      count_[p] = static_cast<float>(64ull * psnr_hvs_blocks(f.plane_width(p, r)) * psnr_hvs_blocks(f.plane_height(p, r)));
    const float maxv = static_cast<float>((1u << f.bit_depth) - 1u);
    maxv_sq_ = maxv * maxv;
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

  void scores(const partials_type& part, double* out) const {
    std::array<float, 3> score{};
    for (int p = 0; p < 3; ++p) score[p] = (part.ret[p] / count_[p]) / maxv_sq_;  // binary32, as libvmaf
    for (int p = 0; p < 3; ++p) out[p] = -10.0 * std::log10(static_cast<double>(score[p]));
    const double s = 0.8 * static_cast<double>(score[0]) + 0.1 * (static_cast<double>(score[1]) + static_cast<double>(score[2]));
    out[3] = -10.0 * std::log10(s);
  }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

 private:
  picture_format format_;
  std::array<float, 3> count_{};
  float maxv_sq_ = 0;
  std::vector<std::string> names_ = printed_names(provided);
};

template <class B>
  requires PsnrHvsKernel<B>
class PsnrHvs : public psnr_hvs_algorithm {
 public:
  using psnr_hvs_algorithm::psnr_hvs_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.psnr_hvs(f, out); }
};

}  // namespace vqm
