// SpEED (libvmaf's speed.c; SPEC-vmaf-v1 Part B), what speed_chroma and speed_temporal share: the prescale
// methods, the options both take, the working geometry (prescaled size, 1/16 operating size, 5×5 blocks),
// the inputs libvmaf measures and the one-line refusals where it fails or crashes. docs/spec-vmaf-v1.md,
// "## speed".
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "vqm/feature/options.hpp"
#include "vqm/metrics/float_vif.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// libvmaf's prescale methods (vif_get_scaling_method), in its order; the option takes these names.
enum class scale_method : std::uint8_t { nearest, bilinear, bicubic, lanczos4 };
inline constexpr std::string_view scale_method_names[] = {"nearest", "bilinear", "bicubic", "lanczos4"};
[[nodiscard]] inline scale_method scale_method_named(std::string_view n) noexcept {  // a name the option took
  for (std::size_t i = 0; i < std::size(scale_method_names); ++i)
    if (scale_method_names[i] == n) return static_cast<scale_method>(i);
  return scale_method::nearest;
}

// What a SpEED kernel needs, fixed per stream (trivially copyable: the Cpu backend copies it per frame).
struct speed_request {
  std::uint32_t width = 0, height = 0;                // working plane (chroma: floor of luma / subsampling)
  std::uint32_t scaled_width = 0, scaled_height = 0;  // (int)(n·prescale + 0.5) in double
  bool resample = false;                              // |prescale − 1| >= 1e-3: resampled, else cropped/padded
  scale_method method = scale_method::nearest;
  float kernelscale = 1.0f;
  float sigma_nn = 0.29f;  // (f32) speed_sigma_nn
  float nn_floor = 0.0f;   // (f32) speed_nn_floor
  int weight_var_mode = 0;
  bool use_ref_diff = false;  // speed_temporal: the distorted difference is against the current reference
};

namespace speed {

// The options both extractors take, in libvmaf's table order (each renames the outputs when not default).
template <class O>
constexpr auto common_table() {
  return std::tuple{
      number("speed_kernelscale", &O::speed_kernelscale, 0.1, 4.0, "Gaussian kernel scale (libvmaf's list)", "ks"),
      number("speed_prescale", &O::speed_prescale, 0.1, 4.0, "resample the plane by this factor first", "ps"),
      text("speed_prescale_method", &O::speed_prescale_method, scale_method_names,
           "resampling method of speed_prescale", "psm"),
      number("speed_sigma_nn", &O::speed_sigma_nn, 0.1, 2.0, "neural noise standard deviation", "snn"),
      number("speed_nn_floor", &O::speed_nn_floor, 0.0, 1.0, "neural noise floor, a fraction of sigma_nn", "nnf"),
  };
}

// (int)(n·prescale + 0.5), in double as libvmaf.
[[nodiscard]] inline std::uint32_t scaled(std::uint32_t n, double prescale) noexcept {
  return static_cast<std::uint32_t>(static_cast<int>(n * prescale + 0.5));
}

template <class O>
[[nodiscard]] speed_request request(std::uint32_t w, std::uint32_t h, const O& o) {
  speed_request q;
  q.width = w;
  q.height = h;
  q.scaled_width = scaled(w, o.speed_prescale);
  q.scaled_height = scaled(h, o.speed_prescale);
  q.resample = !(std::fabs(o.speed_prescale - 1.0) < 1.0e-3);
  q.method = scale_method_named(o.speed_prescale_method);
  q.kernelscale = static_cast<float>(o.speed_kernelscale);
  q.sigma_nn = static_cast<float>(o.speed_sigma_nn);
  q.nn_floor = static_cast<float>(o.speed_nn_floor);
  return q;
}

// Empty when libvmaf measures a w×h working plane (`what`: "chroma" or "luma") of f with these options;
// else why not, in one line. libvmaf ignores speed_init's errors and then crashes, so each is a refusal.
template <class O>
[[nodiscard]] std::string unsupported(std::string_view feature, const picture_format& f, std::uint32_t w,
                                      std::uint32_t h, std::string_view what, const O& o) {
  const std::string name(feature);
  if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
    return name + " supports 8, 10, 12 and 16-bit input, not " + std::to_string(f.bit_depth) +
           "-bit (libvmaf reads other depths as bytes)";
  if (!fvif::valid_kernelscale(static_cast<float>(o.speed_kernelscale)))
    return name + ": invalid speed_kernelscale " + detail::format_g(o.speed_kernelscale) +
           " (libvmaf takes 1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, "
           "1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, 1.111111)";
  const std::uint32_t sw = scaled(w, o.speed_prescale), sh = scaled(h, o.speed_prescale);
  if ((sw >> 4) / 5 == 0 || (sh >> 4) / 5 == 0)
    return name + " needs a " + std::string(what) + " plane of at least 80x80 after speed_prescale (one 5x5 block "
           "at 1/16 size; libvmaf crashes below it), the input's is " + std::to_string(w) + "x" + std::to_string(h) +
           (sw != w || sh != h ? ", prescaled " + std::to_string(sw) + "x" + std::to_string(sh) : std::string()) +
           " (use a larger input" + (o.speed_prescale < 1.0 ? " or a larger speed_prescale)" : ")");
  return {};
}

}  // namespace speed
}  // namespace vqm
