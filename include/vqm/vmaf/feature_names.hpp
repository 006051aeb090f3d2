// The VMAF feature names a model may name (SPEC-vmaf B.2), the extractor that writes each, and the
// printed alias (SPEC-vmaf A.6).
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace vqm::vmaf {

struct feature_name_entry {
  std::string_view internal;   // the name a model file and an extractor use
  std::string_view extractor;  // "adm" | "vif" | "motion"
  std::string_view alias;      // the printed name (the internal one when libvmaf has no alias)
};

inline constexpr std::array<feature_name_entry, 15> feature_name_table{{
    {"VMAF_integer_feature_adm2_score", "adm", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "adm", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "adm", "integer_adm3"},
    {"integer_adm_scale0", "adm", "integer_adm_scale0"},
    {"integer_adm_scale1", "adm", "integer_adm_scale1"},
    {"integer_adm_scale2", "adm", "integer_adm_scale2"},
    {"integer_adm_scale3", "adm", "integer_adm_scale3"},
    {"VMAF_integer_feature_motion_sad_score", "motion", "VMAF_integer_feature_motion_sad_score"},
    {"VMAF_integer_feature_motion_score", "motion", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "motion", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "motion", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "vif", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "vif", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "vif", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "vif", "integer_vif_scale3"},
}};

// The extractor ("adm", "vif", "motion") that writes `internal`, or "" when vqm has none.
[[nodiscard]] constexpr std::string_view extractor_of(std::string_view internal) noexcept {
  for (const auto& e : feature_name_table)
    if (e.internal == internal) return e.extractor;
  return {};
}

// libvmaf's alias map: VMAF_integer_feature_adm2_score -> integer_adm2; names without an alias
// (VMAF_integer_feature_motion_sad_score, anything unknown) are returned unchanged.
[[nodiscard]] constexpr std::string_view alias_of(std::string_view name) noexcept {
  for (const auto& e : feature_name_table)
    if (e.internal == name) return e.alias;
  return name;
}

// The printed collector name of `internal` written by an extractor whose non-default options render to
// `suffix` (A.6): the internal name when suffix is empty, else alias + suffix; printing aliases once more.
[[nodiscard]] inline std::string printed_name(std::string_view internal, std::string_view suffix) {
  if (suffix.empty()) return std::string(alias_of(internal));
  return std::string(alias_of(internal)) + std::string(suffix);
}

}  // namespace vqm::vmaf
