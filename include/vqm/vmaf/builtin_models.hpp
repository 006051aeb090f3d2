// The built-in VMAF models (Netflix's model files, BSD-2-Clause-Patent, see vqm/vmaf/models/LICENSE),
// embedded at configure time (cmake/VqmEmbedModels.cmake), and load_model's CLI-style specs.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vmaf/model.hpp"

namespace vqm::vmaf {

namespace detail {
struct embedded_model {
  std::string_view version;
  const std::string_view* chunks;
  std::size_t count;
};
}  // namespace detail

}  // namespace vqm::vmaf

#if __has_include("vqm/vmaf/builtin_models.inc")
#include "vqm/vmaf/builtin_models.inc"  // defines vqm::vmaf::detail::embedded_models (an array)
#define VQM_VMAF_HAVE_BUILTIN_MODELS 1
#else
#define VQM_VMAF_HAVE_BUILTIN_MODELS 0
#endif

namespace vqm::vmaf {

// The versions builtin_model() knows.
[[nodiscard]] inline std::vector<std::string_view> builtin_versions() {
  std::vector<std::string_view> out;
#if VQM_VMAF_HAVE_BUILTIN_MODELS
  for (const auto& e : detail::embedded_models) out.push_back(e.version);
#endif
  return out;
}

// The text of a built-in model file, or an empty string for an unknown version.
[[nodiscard]] inline std::string builtin_model_text(std::string_view version) {
  std::string text;
#if VQM_VMAF_HAVE_BUILTIN_MODELS
  for (const auto& e : detail::embedded_models)
    if (e.version == version)
      for (std::size_t i = 0; i < e.count; ++i) text += e.chunks[i];
#else
  (void)version;
#endif
  return text;
}

[[nodiscard]] inline model builtin_model(std::string_view version, const load_options& lo = {}) {
  const std::string text = builtin_model_text(version);
  if (text.empty()) {
    std::string list;
    for (auto v : builtin_versions()) list += (list.empty() ? "" : ", ") + std::string(v);
    throw error(errc::invalid_argument, "unknown VMAF model version '" + std::string(version) + "' (built in: " +
                                            (list.empty() ? std::string("none in this build") : list) + ")");
  }
  return model::from_json(text, version, lo);
}

// An output series name that every output format can hold as it is: an XML name (an attribute of
// <frame>), a JSON string and a CSV column without escapes.
[[nodiscard]] inline bool valid_output_name(std::string_view n) noexcept {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (n.empty() || !letter(n.front())) return false;
  for (char c : n)
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
  return true;
}

// A model as libvmaf's CLI names it: "version=vmaf_v0.6.1" or "path=FILE.json", plus ":name=N",
// ":enable_transform", ":disable_clip" (each also "=true"/"=false") and ":EXTRACTOR.OPTION=VALUE"
// overloads. A spec without '=' is a built-in version, or a file path when it names an existing file.
[[nodiscard]] inline model load_model(std::string_view spec) {
  if (spec.find('=') == std::string_view::npos) {
    const std::string s(spec);
    std::error_code ec;
    if (builtin_model_text(s).empty() && std::filesystem::is_regular_file(s, ec)) return model_from_file(s);
    return builtin_model(s);
  }
  load_options lo;
  std::string version, path;
  const auto flag = [&](std::string_view key, std::string_view v, bool& out) {
    if (v.empty() || v == "true") out = true;
    else if (v == "false") out = false;
    else throw error(errc::invalid_argument, "VMAF model option " + std::string(key) + "=" + std::string(v) + ": expected true or false");
  };
  while (!spec.empty()) {
    const auto colon = spec.find(':');
    const auto item = spec.substr(0, colon);
    const auto eq = item.find('=');
    const auto key = item.substr(0, eq);
    const auto val = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    if (key == "version") version = val;
    else if (key == "path") path = val;
    else if (key == "name") lo.name = val;
    else if (key == "enable_transform") flag(key, val, lo.enable_transform);
    else if (key == "disable_clip") flag(key, val, lo.disable_clip);
    else if (key.find('.') != std::string_view::npos && eq != std::string_view::npos)
      lo.overloads.emplace_back(std::string(key), std::string(val));
    else
      throw error(errc::invalid_argument,
                  "VMAF model option '" + std::string(item) +
                      "' is unknown (version=, path=, name=, enable_transform, disable_clip, EXTRACTOR.OPTION=VALUE)");
    if (colon == std::string_view::npos) break;
    spec.remove_prefix(colon + 1);
  }
  if (version.empty() == path.empty())
    throw error(errc::invalid_argument, "a VMAF model needs exactly one of version= and path=");
  if (!valid_output_name(lo.name)) {
    std::string shown;  // one line whatever the name holds
    for (const char c : lo.name) {
      if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
        shown += c;
        continue;
      }
      constexpr char hex[] = "0123456789abcdef";
      shown += "\\x";
      shown += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
      shown += hex[static_cast<unsigned char>(c) & 0xf];
    }
    throw error(errc::invalid_argument,
                "VMAF model name '" + shown + "': use a letter or '_' then letters, digits, '_', '-' or '.' (the "
                "name is an XML attribute and a JSON and CSV key of the output)");
  }
  return path.empty() ? builtin_model(version, lo) : model_from_file(path, lo);
}

}  // namespace vqm::vmaf
