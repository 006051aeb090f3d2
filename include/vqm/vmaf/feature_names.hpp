// The feature names a VMAF model may name (SPEC-vmaf B.2): every output a registered feature provides
// (its algorithm's `provided` list), the feature that writes it, and the name libvmaf prints (A.6).
#pragma once

#include <string>
#include <string_view>

#include "vqm/registry.hpp"

namespace vqm::vmaf {

// The feature ("adm", "vif", "motion", ...) that writes output `internal`, or "" when vqm has none.
[[nodiscard]] constexpr std::string_view extractor_of(std::string_view internal) noexcept {
  std::string_view out;
  registry::all::for_each([&]<class E>() {
    for (const auto& o : E::algorithm::provided)
      if (out.empty() && o.internal == internal) out = E::algorithm::feature_name;
  });
  return out;
}

// libvmaf's alias map: VMAF_integer_feature_adm2_score -> integer_adm2; names without an alias
// (VMAF_integer_feature_motion_sad_score, anything unknown) are returned unchanged.
[[nodiscard]] constexpr std::string_view alias_of(std::string_view name) noexcept {
  std::string_view out = name;
  registry::all::for_each([&]<class E>() {
    for (const auto& o : E::algorithm::provided)
      if (o.internal == name) out = o.printed;
  });
  return out;
}

// The printed collector name of `internal` written by a feature whose options render to `suffix` (A.6).
[[nodiscard]] inline std::string printed_name(std::string_view internal, std::string_view suffix) {
  return vqm::printed_name(feature_output{internal, alias_of(internal)}, suffix);
}

}  // namespace vqm::vmaf
