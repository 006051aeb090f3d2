// make_metric<B>(name, options, format): libvmaf feature names to metric objects at run time.
#pragma once

#include <string>
#include <string_view>

#include "vqm/any_metric.hpp"
#include "vqm/metrics/float_psnr.hpp"
#include "vqm/metrics/ms_ssim.hpp"
#include "vqm/metrics/psnr.hpp"
#include "vqm/metrics/psnr_hvs.hpp"
#include "vqm/metrics/ssim.hpp"

namespace vqm {

inline constexpr std::string_view metric_names[] = {"psnr", "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"};

namespace detail {
template <class B>
[[nodiscard]] std::string backend_name() {
  if constexpr (requires { B::name; }) return std::string(B::name);
  else return "this";
}
template <template <class> class Metric, class Algorithm, class B, bool supported>
any_metric<B> make(const option_map& opt, const picture_format& f, compat c, bool temporal = false) {
  const auto o = Algorithm::options::parse(opt);
  if constexpr (supported) {
    return any_metric<B>(Metric<B>(f, o, c), temporal);
  } else {
    throw error(errc::unsupported_format,
                std::string("the ") + backend_name<B>() + " backend does not implement " + Algorithm::feature_name);
  }
}
}  // namespace detail

template <Backend B>
[[nodiscard]] any_metric<B> make_metric(std::string_view name, const option_map& opt, const picture_format& f,
                                        compat c = compat::none) {
  if (name == "psnr") {
    const bool temporal = psnr_algorithm::options::parse(opt).enable_apsnr;
    return detail::make<Psnr, psnr_algorithm, B, SseKernel<B>>(opt, f, c, temporal);
  }
  if (name == "float_psnr") return detail::make<FloatPsnr, float_psnr_algorithm, B, FloatSseKernel<B>>(opt, f, c);
  if (name == "float_ssim") return detail::make<Ssim, ssim_algorithm, B, SsimKernel<B>>(opt, f, c);
  if (name == "float_ms_ssim") return detail::make<MsSsim, ms_ssim_algorithm, B, MsSsimKernel<B>>(opt, f, c);
  if (name == "psnr_hvs") return detail::make<PsnrHvs, psnr_hvs_algorithm, B, PsnrHvsKernel<B>>(opt, f, c);
  throw error(errc::invalid_argument, "unknown feature '" + std::string(name) +
                                          "' (known: psnr, float_psnr, float_ssim, float_ms_ssim, psnr_hvs)");
}

}  // namespace vqm
