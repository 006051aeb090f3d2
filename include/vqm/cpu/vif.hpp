// Cpu kernel: integer VIF (SPEC-vmaf Part I). Placeholder: forwards to the reference kernel.
#pragma once
#include "vqm/cpu/reference/vif.hpp"
namespace vqm::cpu {
[[nodiscard]] inline vif_partials vif(const plane_view& ref, const plane_view& dis, unsigned bpc, const vif_request& q) {
  return reference::vif(ref, dis, bpc, q);
}
}  // namespace vqm::cpu
