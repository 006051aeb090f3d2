// Loading libvmaf's reference values (tests/data/reference/*.json) and the fixture frames.
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
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

// Every <pair>.json in tests/data/reference, sorted.
inline std::vector<std::string> reference_pairs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(reference_dir()))
    if (e.path().extension() == ".json" && e.path().stem() != "manifest") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Numbers, or the strings "inf", "-inf", "nan".
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

// Bit-level agreement of two doubles: NaN equals NaN, and the sign of zero counts.
inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

inline std::vector<picture> read_all(const std::string& path) {
  io::y4m_reader r(path);
  std::vector<picture> frames;
  for (picture p; r.read(p);) frames.push_back(std::move(p));
  return frames;
}

// "--feature psnr=enable_mse=true:min_sse=0.5" -> name "psnr", options "enable_mse=true:min_sse=0.5"
inline std::pair<std::string, std::string> split_feature_args(std::string args) {
  const std::string prefix = "--feature ";
  if (args.starts_with(prefix)) args = args.substr(prefix.size());
  const auto eq = args.find('=');
  if (eq == std::string::npos) return {args, ""};
  return {args.substr(0, eq), args.substr(eq + 1)};
}

}  // namespace vqm::test
