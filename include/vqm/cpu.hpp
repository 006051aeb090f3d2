// The Cpu backend and everything needed to run metrics on it.
#pragma once

#include "vqm/cpu/backend.hpp"  // IWYU pragma: export
#include "vqm/vqm.hpp"          // IWYU pragma: export

#if defined(VQM_CPU_COMPILED)
namespace vqm {
// Compiled (vqm::cpu_compiled): make_metric<Cpu> — the run-time feature names that session, scorer and
// make_metrics use — is instantiated once, in src/cpu/metric_factory.cpp. Without this, every translation
// unit that builds metrics by name compiles every registered metric's Cpu engine (cambi, float_vif,
// SpEED, ...), the kernels libvqm_cpu.a does not hold included: most of a VMAF program's compile time.
extern template any_metric<Cpu> make_metric<Cpu>(std::string_view, const option_map&, const picture_format&,
                                                 compat);
}  // namespace vqm
#endif
