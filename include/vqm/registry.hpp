// The metric registry: one line per metric. The factory (make_metric), the backends' engine sets, the
// VMAF models' feature lookup, the CLI's feature list and help, the benchmarks and the typed tests all read
// it; nothing else lists metrics.
//
// A line names the metric template (Metric<Backend>), its algorithm class (feature name, options,
// outputs, host math) and the kernel concept a backend must model to run it.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "vqm/feature/algorithm.hpp"
#include "vqm/metrics/adm.hpp"
#include "vqm/metrics/cambi.hpp"
#include "vqm/metrics/ciede.hpp"
#include "vqm/metrics/float_adm.hpp"
#include "vqm/metrics/float_ansnr.hpp"
#include "vqm/metrics/float_moment.hpp"
#include "vqm/metrics/float_motion.hpp"
#include "vqm/metrics/float_psnr.hpp"
#include "vqm/metrics/float_vif.hpp"
#include "vqm/metrics/motion.hpp"
#include "vqm/metrics/ms_ssim.hpp"
#include "vqm/metrics/psnr.hpp"
#include "vqm/metrics/psnr_hvs.hpp"
#include "vqm/metrics/speed_chroma.hpp"
#include "vqm/metrics/speed_temporal.hpp"
#include "vqm/metrics/ssim.hpp"
#include "vqm/metrics/vif.hpp"

// X(name, Metric template, algorithm class, kernel concept). `name` also names each backend's engine
// (cpu::psnr_engine, vulkan::psnr_engine, in <backend>/engines/psnr.hpp): the backends derive their engine
// sets from these lines (cpu/engines.hpp, vulkan/engines.hpp), so a missing engine fails to compile.
#define VQM_METRIC_REGISTRY(X)                              \
  X(psnr, Psnr, psnr_algorithm, SseKernel)                  \
  X(float_psnr, FloatPsnr, float_psnr_algorithm, FloatSseKernel) \
  X(ssim, Ssim, ssim_algorithm, SsimKernel)                 \
  X(ms_ssim, MsSsim, ms_ssim_algorithm, MsSsimKernel)       \
  X(psnr_hvs, PsnrHvs, psnr_hvs_algorithm, PsnrHvsKernel)   \
  X(adm, Adm, adm_algorithm, AdmKernel)                     \
  X(motion, Motion, motion_algorithm, MotionKernel)         \
  X(vif, Vif, vif_algorithm, VifKernel)                     \
  X(float_moment, FloatMoment, float_moment_algorithm, MomentKernel) \
  X(ciede, Ciede, ciede_algorithm, CiedeKernel)                 \
  X(float_motion, FloatMotion, float_motion_algorithm, FloatMotionKernel) \
  X(float_vif, FloatVif, float_vif_algorithm, FloatVifKernel) \
  X(cambi, Cambi, cambi_algorithm, CambiKernel) \
  X(speed_chroma, SpeedChroma, speed_chroma_algorithm, SpeedChromaKernel) \
  X(speed_temporal, SpeedTemporal, speed_temporal_algorithm, SpeedTemporalKernel) \
  X(float_adm, FloatAdm, float_adm_algorithm, FloatAdmKernel) \
  X(float_ansnr, FloatAnsnr, float_ansnr_algorithm, AnsnrKernel)

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

#define VQM_REGISTRY_ENTRY(N, M, A, K)                           \
  static_assert(Algorithm<A>, #A " does not model vqm::Algorithm (vqm/feature/algorithm.hpp)"); \
  struct M##_entry {                                             \
    using algorithm = A;                                         \
    template <class B>                                           \
    using metric = M<B>;                                         \
    template <class B>                                           \
    static constexpr bool runs_on = K<B>;                        \
  };
VQM_METRIC_REGISTRY(VQM_REGISTRY_ENTRY)
#undef VQM_REGISTRY_ENTRY

#define VQM_REGISTRY_NAME(N, M, A, K) , M##_entry
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

// "psnr, float_psnr, ..." (every registered feature).
[[nodiscard]] inline std::string metric_name_list() {
  std::string s;
  for (auto n : metric_names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

// Whether feature `name`'s values depend on the reference alone (its algorithm says reference_only):
// one computation serves every distorted scored against that reference (multi_session).
[[nodiscard]] constexpr bool reference_only_feature(std::string_view name) noexcept {
  bool only = false;
  registry::all::for_each([&]<class E>() {
    if (name == E::algorithm::feature_name) only = algorithm::reference_only<typename E::algorithm>;
  });
  return only;
}

}  // namespace vqm
