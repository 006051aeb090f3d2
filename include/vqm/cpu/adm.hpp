// Cpu kernel: integer ADM accumulators (SPEC-vmaf Part II). Placeholder: the reference.
#pragma once
#include "vqm/cpu/reference/adm.hpp"
namespace vqm::cpu {
[[nodiscard]] inline adm_partials adm(const plane_view& ref, const plane_view& dis, unsigned bpc, const adm_request& q) {
  return reference::adm(ref, dis, bpc, q);
}
}  // namespace vqm::cpu
