// Loading libvmaf's reference values (tests/data/reference/*.json) and the fixture frames; shared by the
// Cpu, Vulkan and CLI test programs.
#pragma once

#include <string>
#include <utility>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "vqm/io/y4m.hpp"
#include "vqm/picture.hpp"

namespace vqm::test {

inline std::string reference_dir() { return std::string(VQM_TEST_DATA_DIR) + "/reference"; }
inline std::string fixture(const std::string& name) { return std::string(VQM_FIXTURE_DIR) + "/" + name; }

inline nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// libvmaf's VMAF values (the four models and the adm/vif/motion runs), one <pair>.json per fixture pair.
inline std::string vmaf_reference_dir() { return std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf"; }

// The pairs with a <pair>.json in `dir`, sorted.
inline std::vector<std::string> reference_pairs(const std::string& dir = reference_dir()) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.path().stem() != "manifest") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  // VQM_TEST_PAIRS=a,b,... restricts a run to those pairs (for debugging; CI leaves it unset).
  if (const char* only = std::getenv("VQM_TEST_PAIRS"); only && *only) {
    const std::string list = std::string(",") + only + ",";
    std::erase_if(out, [&](const std::string& p) { return list.find("," + p + ",") == std::string::npos; });
  }
  return out;
}

inline std::vector<std::string> vmaf_reference_pairs() { return reference_pairs(vmaf_reference_dir()); }

inline double to_double(const nlohmann::json& v) {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "nan") return NAN;
    throw std::runtime_error("unexpected value string '" + s + "'");
  }
  return v.get<double>();
}

// Bit-level agreement: NaN equals NaN, the sign of zero counts.
inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// |a − b|, 0 for equal infinities / both NaN, +inf for a mismatch of kind.
inline double abs_diff(double a, double b) {
  if (same(a, b)) return 0.0;
  if (!std::isfinite(a) || !std::isfinite(b)) return INFINITY;
  return std::fabs(a - b);
}

inline std::vector<picture> read_all(const std::string& path) {
  io::y4m_reader r(path);
  std::vector<picture> frames;
  for (picture p; r.read(p);) frames.push_back(std::move(p));
  return frames;
}

// The frames of a reference pair, read once per test program.
inline const std::pair<std::vector<picture>, std::vector<picture>>& frames_of(const nlohmann::json& j) {
  static std::map<std::string, std::pair<std::vector<picture>, std::vector<picture>>> cache;
  const auto pair = j.at("pair").get<std::string>();
  auto it = cache.find(pair);
  if (it == cache.end())
    it = cache.emplace(pair, std::pair{read_all(fixture(j.at("reference").at("file").get<std::string>())),
                                       read_all(fixture(j.at("distorted").at("file").get<std::string>()))})
             .first;
  return it->second;
}

// "--feature psnr=enable_mse=true:min_sse=0.5" -> {"psnr", "enable_mse=true:min_sse=0.5"}
inline std::pair<std::string, std::string> split_feature_args(std::string args) {
  const std::string prefix = "--feature ";
  if (args.starts_with(prefix)) args = args.substr(prefix.size());
  const auto eq = args.find('=');
  if (eq == std::string::npos) return {args, ""};
  return {args.substr(0, eq), args.substr(eq + 1)};
}

}  // namespace vqm::test
