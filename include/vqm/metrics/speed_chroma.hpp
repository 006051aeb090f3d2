// speed_chroma (libvmaf's speed.c, vmaf_fex_speed_chroma; SPEC-vmaf-v1 §B.2–B.12): SpEED of the U plane and
// of the V plane, each a binary32 score of the reference and distorted planes (their err flags say where
// the covariance was singular), and their combination uv. Gray input is measured as libvmaf measures it
// fed as 4:2:0 with mid-grey chroma.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/metrics/speed.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// Per chroma plane: the binary32 score and whether the reference or distorted covariance was singular.
struct speed_chroma_partials {
  float u = 0.0f, v = 0.0f;
  bool u_err = false, v_err = false;
};

template <class B>
concept SpeedChromaKernel = Backend<B> && requires(B& b, typename B::frame& f, const speed_request& q,
                                                   speed_chroma_partials& out) { b.speed_chroma(f, q, out); };

// libvmaf 3.2's options of speed_chroma, named, typed, bounded and defaulted as its table.
struct speed_chroma_options {
  static constexpr const char* feature = "speed_chroma";
  double speed_kernelscale = 1.0;
  double speed_prescale = 1.0;
  std::string speed_prescale_method = "nearest";
  double speed_sigma_nn = 0.29;
  double speed_nn_floor = 0.0;
  double speed_max_val = 1000.0;
  int speed_weight_var_mode = 0;

  static constexpr auto table() {
    using o = speed_chroma_options;
    return std::tuple_cat(
        speed::common_table<o>(),
        std::tuple{number("speed_max_val", &o::speed_max_val, 0.0, 1000.0, "cap of every score", "mxv"),
                   number("speed_weight_var_mode", &o::speed_weight_var_mode, 0, 6,
                          "how the block variances weight the entropies (0-6)", "wvm")});
  }
};

class speed_chroma_algorithm {
 public:
  using partials_type = speed_chroma_partials;
  using options = speed_chroma_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {{"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
                                                {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
                                                {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"}};

  // The chroma working size: floor of the luma size over the subsampling (gray: as 4:2:0).
  [[nodiscard]] static std::uint32_t working_width(const picture_format& f) noexcept {
    return f.chroma == chroma_format::yuv444 ? f.width : f.width / 2;
  }
  [[nodiscard]] static std::uint32_t working_height(const picture_format& f) noexcept {
    return f.chroma == chroma_format::yuv420 || f.chroma == chroma_format::yuv400 ? f.height / 2 : f.height;
  }

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    return speed::unsupported(feature_name, f, working_width(f), working_height(f), "chroma", o);
  }

  explicit speed_chroma_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_ = speed::request(working_width(f), working_height(f), o);
    request_.weight_var_mode = o.speed_weight_var_mode;
    names_ = printed_names(provided, options_suffix(o));
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const speed_request& request() const noexcept { return request_; }

  // uv: the other plane's score where only one plane is singular, else (f32)((u + v) / 2.0) with u + v
  // in binary32; every output is C's MIN(score, speed_max_val) in double.
  void scores(const partials_type& p, double* out) const noexcept {
    float uv;
    if (p.u_err && !p.v_err) uv = p.v;
    else if (p.v_err && !p.u_err) uv = p.u;
    else uv = static_cast<float>(static_cast<double>(p.u + p.v) / 2.0);
    const double cap = opt_.speed_max_val;
    const float s[3] = {p.u, p.v, uv};
    for (int i = 0; i < 3; ++i) out[i] = static_cast<double>(s[i]) < cap ? static_cast<double>(s[i]) : cap;
  }

 private:
  options opt_;
  speed_request request_;
  std::vector<std::string> names_;
};

template <class B>
  requires SpeedChromaKernel<B>
class SpeedChroma : public speed_chroma_algorithm {
 public:
  using speed_chroma_algorithm::speed_chroma_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.speed_chroma(f, request(), out); }
};

}  // namespace vqm
