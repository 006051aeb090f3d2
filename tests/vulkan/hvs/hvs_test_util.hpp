// Shared by the PSNR-HVS GPU tests: the fixture pairs psnr_hvs supports, and the Cpu kernel's term stream.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "vqm/compat.hpp"
#include "vqm/cpu/psnr_hvs.hpp"
#include "vqm/tables/psnr_hvs.hpp"
#include "vqm/picture.hpp"

namespace vqm::test_hvs {

// An independent scalar transcription of SPEC §6.4–6.5 (the tests check that the naive sum of its term
// stream is cpu::psnr_hvs_plane, so the stream is libvmaf's).
constexpr std::int32_t half_tz(std::int32_t v) noexcept { return (v + (v < 0 ? 1 : 0)) >> 1; }
constexpr std::int32_t mul_sh(std::int32_t v, std::int32_t k, int s) noexcept { return (v * k + (1 << (s - 1))) >> s; }

constexpr void fdct8(const std::int32_t* x, std::int32_t* y) noexcept {
  std::int32_t t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  t1 = t0 - t1; const std::int32_t h1 = half_tz(t1); t0 = t0 - h1;
  t4 = t4 + t5; const std::int32_t h4 = half_tz(t4); t5 = t5 - h4;
  t3 = t2 - t3; t2 = t2 - half_tz(t3);
  t6 = t6 + t7; const std::int32_t h6 = half_tz(t6); t7 = h6 - t7;
  t0 = t0 + h6; t6 = t0 - t6; t2 = h4 - t2; t4 = t2 - t4;
  t0 -= mul_sh(t4, 13573, 15); t4 += mul_sh(t0, 11585, 14); t0 -= mul_sh(t4, 13573, 15);
  t6 -= mul_sh(t2, 21895, 15); t2 += mul_sh(t6, 15137, 14); t6 -= mul_sh(t2, 21895, 15);
  t3 += mul_sh(t5, 19195, 15); t5 += mul_sh(t3, 11585, 14); t3 -= mul_sh(t5, 7489, 13);
  t7 = half_tz(t5) - t7; t5 = t5 - t7; t3 = h1 - t3; t1 = t1 - t3;
  t7 += mul_sh(t1, 3227, 15); t1 -= mul_sh(t7, 6393, 15); t7 += mul_sh(t1, 3227, 15);
  t5 += mul_sh(t3, 2485, 13); t3 -= mul_sh(t5, 18205, 15); t5 += mul_sh(t3, 2485, 13);
  y[0] = t0; y[1] = t1; y[2] = t2; y[3] = t3; y[4] = t4; y[5] = t5; y[6] = t6; y[7] = t7;
}

constexpr void fdct8x8(const std::int32_t (&b)[8][8], std::int32_t (&out)[8][8]) noexcept {
  std::int32_t z[8][8]{}, col[8]{};
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = b[r][c];
    fdct8(col, z[c]);
  }
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = z[r][c];
    fdct8(col, out[c]);
  }
}

inline float block_mask(const std::int32_t (&a)[8][8], const std::int32_t (&d)[8][8], const tables::csf_table& mask) noexcept {
  float g = 0.0f, q[4] = {0, 0, 0, 0};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const float v = static_cast<float>(a[i][j]);
      g += v;
      q[(i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0)] += v;
    }
  g /= 64.0f;
  for (auto& qq : q) qq /= 16.0f;
  float var = 0.0f, qv[4] = {0, 0, 0, 0};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const float v = static_cast<float>(a[i][j]);
      const int k = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
      const float dg = v - g;
      var += dg * dg;
      const float dq = v - q[k];
      qv[k] += dq * dq;
    }
  var *= tables::k63;
  for (auto& x : qv) x *= tables::k15;
  if (var > 0.0f) var = (((qv[0] + qv[1]) + qv[2]) + qv[3]) / var;
  float e = 0.0f;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      if (i != 0 || j != 0) e += static_cast<float>(d[i][j] * d[i][j]) * mask[i][j];
  return std::sqrt(e * var) / 32.0f;
}

// The 64 terms e·e of every block of a plane, in libvmaf's order (block raster, coefficient raster).
template <class T>
std::vector<float> plane_terms_t(const plane_view& ra, const plane_view& rb, int plane) {
  const auto& csf = *tables::csf[plane];
  const auto& mask = tables::mask[plane];
  std::vector<float> out;
  std::int32_t a[8][8], b[8][8], da[8][8], db[8][8];
  const int w = static_cast<int>(ra.width), h = static_cast<int>(ra.height);
  for (int y = 0; y < h - 7; y += 7)
    for (int x = 0; x < w - 7; x += 7) {
      for (int i = 0; i < 8; ++i) {
        const T* pa = ra.row<T>(static_cast<std::uint32_t>(y + i)) + x;
        const T* pb = rb.row<T>(static_cast<std::uint32_t>(y + i)) + x;
        for (int j = 0; j < 8; ++j) {
          a[i][j] = pa[j];
          b[i][j] = pb[j];
        }
      }
      fdct8x8(a, da);
      fdct8x8(b, db);
      const float ma = block_mask(a, da, mask);
      const float mb = block_mask(b, db, mask);
      const float m = mb > ma ? mb : ma;
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          const std::int32_t diff = da[i][j] - db[i][j];
          float err = static_cast<float>(diff < 0 ? -diff : diff);
          if (i != 0 || j != 0) {
            const float t = m / mask[i][j];
            err = err < t ? 0.0f : err - t;
          }
          const float e = err * csf[i][j];
          out.push_back(e * e);
        }
    }
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
  std::ifstream js(std::string(VQM_TEST_DATA_DIR) + "/reference/" + pair + ".json");
  return nlohmann::json::parse(js);
}

// A JSON number or "inf"/"-inf"/"nan".
inline double json_value(const nlohmann::json& v) {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    return NAN;
  }
  return v.get<double>();
}

}  // namespace vqm::test_hvs
