// The metric registry: one line per metric. The factory (make_metric), the CLI's feature list and help,
// the benchmarks and the typed tests all read it; nothing else lists metric names.
//
// A line names the metric template (Metric<Backend>), its algorithm class (feature name, options,
// outputs, host math) and the kernel concept a backend must model to run it.
#pragma once

#include <array>
#include <string_view>

#include "vqm/metrics/adm.hpp"
#include "vqm/metrics/float_psnr.hpp"
#include "vqm/metrics/motion.hpp"
#include "vqm/metrics/ms_ssim.hpp"
#include "vqm/metrics/psnr.hpp"
#include "vqm/metrics/psnr_hvs.hpp"
#include "vqm/metrics/ssim.hpp"
#include "vqm/metrics/vif.hpp"

// X(Metric template, algorithm class, kernel concept)
#define VQM_METRIC_REGISTRY(X)                     \
  X(Psnr, psnr_algorithm, SseKernel)               \
  X(FloatPsnr, float_psnr_algorithm, FloatSseKernel) \
  X(Ssim, ssim_algorithm, SsimKernel)              \
  X(MsSsim, ms_ssim_algorithm, MsSsimKernel)       \
  X(PsnrHvs, psnr_hvs_algorithm, PsnrHvsKernel)    \
  X(Adm, adm_algorithm, AdmKernel)                 \
  X(Motion, motion_algorithm, MotionKernel)        \
  X(Vif, vif_algorithm, VifKernel)

namespace vqm::registry {

template <class... E>
struct list {
  // Calls f.template operator()<Entry>() for each entry, in registry order.
  template <class F>
  static constexpr void for_each(F&& f) {
    (f.template operator()<E>(), ...);
  }
  static constexpr std::size_t size = sizeof...(E);
};

#define VQM_REGISTRY_ENTRY(M, A, K)                              \
  struct M##_entry {                                             \
    using algorithm = A;                                         \
    template <class B>                                           \
    using metric = M<B>;                                         \
    template <class B>                                           \
    static constexpr bool runs_on = K<B>;                        \
  };
VQM_METRIC_REGISTRY(VQM_REGISTRY_ENTRY)
#undef VQM_REGISTRY_ENTRY

#define VQM_REGISTRY_NAME(M, A, K) , M##_entry
template <class First, class... Rest>
using list_of = list<Rest...>;
using all = list_of<void VQM_METRIC_REGISTRY(VQM_REGISTRY_NAME)>;
#undef VQM_REGISTRY_NAME

}  // namespace vqm::registry

namespace vqm {

// Every feature name, in registry order.
inline constexpr auto metric_names = [] {
  std::array<std::string_view, registry::all::size> names{};
  std::size_t i = 0;
  registry::all::for_each([&]<class E>() { names[i++] = E::algorithm::feature_name; });
  return names;
}();

// Whether feature `name`'s values depend on the reference alone (its algorithm says reference_only):
// one computation serves every distorted scored against that reference (multi_session).
[[nodiscard]] constexpr bool reference_only_feature(std::string_view name) noexcept {
  bool only = false;
  registry::all::for_each([&]<class E>() {
    if constexpr (requires { E::algorithm::reference_only; })
      if (name == E::algorithm::feature_name) only = E::algorithm::reference_only;
  });
  return only;
}

}  // namespace vqm
