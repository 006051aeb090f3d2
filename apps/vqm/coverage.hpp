// How far vqm covers libvmaf 3.2.0: its extractors and built-in models, each with vqm's status per
// backend, read off the registry and the built-in model list (so the table cannot claim what is not
// built). `vqm --help` prints it; the README's "libvmaf 3.2 coverage" table says the same.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "built_backends.hpp"
#include "vqm/metric_factory.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm::cli {

// libvmaf 3.2.0's feature extractors by the names its --feature takes (feature_extractor.c, with
// VMAF_FLOAT_FEATURES), and its built-in models (model.c).
inline constexpr std::string_view libvmaf_extractors[] = {
    "psnr",         "float_psnr",   "float_ansnr", "float_ssim", "float_ms_ssim", "psnr_hvs",
    "ciede",        "adm",          "vif",         "motion",     "float_adm",     "float_vif",
    "float_motion", "float_moment", "cambi",       "speed_chroma", "speed_temporal"};
inline constexpr std::string_view libvmaf_models[] = {
    "vmaf_v0.6.1",           "vmaf_v0.6.1neg",          "vmaf_4k_v0.6.1",         "vmaf_4k_v0.6.1neg",
    "vmaf_b_v0.6.3",         "vmaf_float_v0.6.1",       "vmaf_float_v0.6.1neg",   "vmaf_float_4k_v0.6.1",
    "vmaf_float_b_v0.6.3",   "vmaf_v1.0.16_3d0h",       "vmaf_v1.0.16_5d0h",      "vmaf_v1.0.16_3d0h_2160",
    "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h",  "vmaf_v1.0.16_hfr_5d0h",  "vmaf_v1.0.16_hfr_3d0h_2160",
    "vmaf_v1.0.16_hfr_1d5h_2160"};

// "exact" where the backend runs the feature (every registered feature is tested == against libvmaf's
// values: tests/vulkan/test_vulkan_metrics.cpp, backend_reference), "not yet" where it does not.
template <class B>
[[nodiscard]] std::string_view feature_status(std::string_view name) {
  return runs_on<B>(name) ? "exact" : "not yet";
}

// A built-in model is "exact" on a backend that runs every feature it reads ("not yet" where vqm lacks one).
template <class B>
[[nodiscard]] std::string_view model_status(std::string_view version) {
  try {
    const auto m = vmaf::builtin_model(version);
    for (const auto& f : m.features())
      if (!runs_on<B>(f.extractor)) return "not yet";
    return "exact";
  } catch (const error&) {
    return "not yet";
  }
}

[[nodiscard]] inline std::string coverage_text() {
  std::string s = "libvmaf 3.2 coverage (exact: every libvmaf value tested ==; not yet: refused with a message):\n";
  const auto pad = [](std::string_view n, std::size_t w) {
    return std::string(n) + std::string(w > n.size() ? w - n.size() : 1, ' ');
  };
  for (auto n : libvmaf_extractors) {
    s += "  " + pad(n, 16) + "Cpu: " + pad(feature_status<Cpu>(n), 9);
#if VQM_HAVE_VULKAN
    s += "Vulkan: " + std::string(feature_status<Vulkan>(n));
#else
    s += "Vulkan: not in this build";
#endif
    s += "\n";
  }
  const auto builtin = vmaf::builtin_versions();
  for (auto m : libvmaf_models) {
    s += "  model " + pad(m, 28);
    if (std::find(builtin.begin(), builtin.end(), m) == builtin.end()) {
      s += "not yet\n";
      continue;
    }
    s += "built in, Cpu: " + pad(model_status<Cpu>(m), 9);
#if VQM_HAVE_VULKAN
    s += "Vulkan: " + std::string(model_status<Vulkan>(m));
#else
    s += "Vulkan: not in this build";
#endif
    s += "\n";
  }
  return s;
}

}  // namespace vqm::cli
