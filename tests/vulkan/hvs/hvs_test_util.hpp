// Shared by the PSNR-HVS GPU tests: the fixture pairs psnr_hvs supports, and the Cpu kernel's term stream.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/reference_data.hpp"
#include "vqm/compat.hpp"
#include "vqm/cpu/psnr_hvs.hpp"
#include "vqm/cpu/reference/psnr_hvs.hpp"
#include "vqm/tables/psnr_hvs.hpp"
#include "vqm/picture.hpp"

namespace vqm::test_hvs {

// The 64 terms e·e of every block of a plane, in libvmaf's order, from the scalar reference kernel (the
// tests check that their naive serial sum is cpu::psnr_hvs_plane, so the stream is libvmaf's).
template <class T>
std::vector<float> plane_terms_t(const plane_view& ra, const plane_view& rb, int plane) {
  std::vector<float> out;
  cpu::reference::detail::for_each_hvs_term<T>(ra, rb, plane, [&](float t) { out.push_back(t); });
  return out;
}

inline std::vector<float> plane_terms(const plane_view& a, const plane_view& b, std::uint32_t bit_depth, int plane) {
  return bit_depth > 8 ? plane_terms_t<std::uint16_t>(a, b, plane) : plane_terms_t<std::uint8_t>(a, b, plane);
}

struct fixture_pair {
  std::string name, ref, dis;
};

// Pairs whose reference JSON has psnr_hvs status "ok".
inline std::vector<fixture_pair> psnr_hvs_pairs() {
  std::vector<fixture_pair> out;
  std::ifstream list(std::string(VQM_FIXTURE_DIR) + "/pairs.txt");
  std::string line;
  while (std::getline(list, line)) {
    std::istringstream ss(line);
    fixture_pair p;
    if (!(ss >> p.name >> p.ref >> p.dis)) continue;
    std::ifstream js(std::string(VQM_TEST_DATA_DIR) + "/reference/" + p.name + ".json");
    if (!js) continue;
    const auto j = nlohmann::json::parse(js);
    const auto& f = j.at("features");
    if (f.contains("psnr_hvs") && f.at("psnr_hvs").at("status") == "ok") out.push_back(p);
  }
  return out;
}

inline nlohmann::json reference_json(const std::string& pair) {
  return test::load_json(test::reference_dir() + "/" + pair + ".json");
}

inline double json_value(const nlohmann::json& v) { return test::to_double(v); }

}  // namespace vqm::test_hvs
