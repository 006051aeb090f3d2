// Reference kernel (scalar, kept for tests): PSNR-HVS per plane (SPEC §6): integer DCT blocks every 7 samples, contrast masking, and
// libvmaf's single binary32 accumulator in raster block and coefficient order.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "vqm/metrics/psnr_hvs.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/psnr_hvs.hpp"

namespace vqm::cpu::reference {

namespace detail {

// v / 2 rounded toward zero.
constexpr std::int32_t hvs_half(std::int32_t v) noexcept { return (v + (v < 0 ? 1 : 0)) >> 1; }
// (v·k + 2^(s−1)) >> s, arithmetic shift.
constexpr std::int32_t hvs_mul(std::int32_t v, std::int32_t k, int s) noexcept { return (v * k + (1 << (s - 1))) >> s; }

// The integer lifting 8-point DCT of SPEC §6.4; x and y may not alias.
constexpr void fdct8(const std::int32_t* x, std::int32_t* y) noexcept {
  std::int32_t t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  t1 = t0 - t1;
  const std::int32_t h1 = hvs_half(t1);
  t0 = t0 - h1;
  t4 = t4 + t5;
  const std::int32_t h4 = hvs_half(t4);
  t5 = t5 - h4;
  t3 = t2 - t3;
  t2 = t2 - hvs_half(t3);
  t6 = t6 + t7;
  const std::int32_t h6 = hvs_half(t6);
  t7 = h6 - t7;
  t0 = t0 + h6;
  t6 = t0 - t6;
  t2 = h4 - t2;
  t4 = t2 - t4;
  t0 -= hvs_mul(t4, 13573, 15);
  t4 += hvs_mul(t0, 11585, 14);
  t0 -= hvs_mul(t4, 13573, 15);
  t6 -= hvs_mul(t2, 21895, 15);
  t2 += hvs_mul(t6, 15137, 14);
  t6 -= hvs_mul(t2, 21895, 15);
  t3 += hvs_mul(t5, 19195, 15);
  t5 += hvs_mul(t3, 11585, 14);
  t3 -= hvs_mul(t5, 7489, 13);
  t7 = hvs_half(t5) - t7;
  t5 = t5 - t7;
  t3 = h1 - t3;
  t1 = t1 - t3;
  t7 += hvs_mul(t1, 3227, 15);
  t1 -= hvs_mul(t7, 6393, 15);
  t7 += hvs_mul(t1, 3227, 15);
  t5 += hvs_mul(t3, 2485, 13);
  t3 -= hvs_mul(t5, 18205, 15);
  t5 += hvs_mul(t3, 2485, 13);
  y[0] = t0; y[1] = t1; y[2] = t2; y[3] = t3; y[4] = t4; y[5] = t5; y[6] = t6; y[7] = t7;
}

// 2-D transform: columns first (Z[c] = fdct8(column c)), then out[c] = fdct8(Z[·][c]).
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

// Variance ratio and masking of one block (SPEC §6.5 steps 1–7). Returns the mask m_A.
inline float hvs_block_mask(const std::int32_t (&a)[8][8], const std::int32_t (&d)[8][8], const tables::csf_table& mask) noexcept {
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

// Calls term(e·e) for every coefficient of every block, in libvmaf's order (block raster, coefficient
// raster). The plane's score is the serial binary32 sum of these terms.
template <class T, class Fn>
void for_each_hvs_term(const plane_view& ra, const plane_view& rb, int plane, Fn&& term) {
  const auto& csf = *tables::csf[plane];
  const auto& mask = tables::mask[plane];
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
      const float ma = hvs_block_mask(a, da, mask);
      const float mb = hvs_block_mask(b, db, mask);
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
          term(e * e);
        }
    }
}

template <class T>
float psnr_hvs_rows(const plane_view& ra, const plane_view& rb, int plane) noexcept {
  float ret = 0.0f;
  for_each_hvs_term<T>(ra, rb, plane, [&](float t) { ret = ret + t; });
  return ret;
}

}  // namespace detail

// The binary32 accumulator `ret` of one plane (plane 0 = Y, 1 = Cb, 2 = Cr selects the CSF table).
[[nodiscard]] inline float psnr_hvs_plane(const plane_view& a, const plane_view& b, std::uint32_t bit_depth, int plane) noexcept {
  return bit_depth > 8 ? detail::psnr_hvs_rows<std::uint16_t>(a, b, plane) : detail::psnr_hvs_rows<std::uint8_t>(a, b, plane);
}

}  // namespace vqm::cpu::reference
