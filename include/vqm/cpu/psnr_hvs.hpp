// Cpu kernel: PSNR-HVS per plane (SPEC §6): integer DCT blocks every 7 samples, contrast masking, and
// libvmaf's single binary32 accumulator in raster block and coefficient order.
//
// Eight horizontally adjacent blocks run side by side, one per SIMD lane: each lane does one block's
// integer DCTs and its masking sums with exactly libvmaf's operations in libvmaf's (serial, per block)
// order. The 64 squared errors of each block are then added to `ret` one by one, blocks in raster
// order — that single float chain is the reference and stays serial.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/psnr_hvs.hpp"

namespace vqm::cpu {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace detail {

// v / 2 rounded toward zero (adds 1 to negatives before the arithmetic shift); int32 or int32 lanes.
template <class T>
[[gnu::always_inline]] constexpr T hvs_half(T v) noexcept {
  return (v + ((v >> 31) & 1)) >> 1;
}
// (v·k + 2^(s−1)) >> s, arithmetic shift.
template <class T>
[[gnu::always_inline]] constexpr T hvs_mul(T v, std::int32_t k, int s) noexcept {
  return (v * k + (1 << (s - 1))) >> s;
}

// The integer lifting 8-point DCT of SPEC §6.4 on int32 or on int32 lanes; x and y may not alias.
template <class T>
[[gnu::always_inline]] constexpr void fdct8(const T* x, T* y) noexcept {
  T t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  t1 = t0 - t1;
  const T h1 = hvs_half(t1);
  t0 = t0 - h1;
  t4 = t4 + t5;
  const T h4 = hvs_half(t4);
  t5 = t5 - h4;
  t3 = t2 - t3;
  t2 = t2 - hvs_half(t3);
  t6 = t6 + t7;
  const T h6 = hvs_half(t6);
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

// 2-D transform of b[row·8 + col]: columns first (Z[c] = fdct8(column c)), then out[c] = fdct8(Z[·][c]);
// out[u·8 + v] has vertical frequency u, horizontal frequency v.
template <class T>
[[gnu::always_inline]] constexpr void fdct8x8(const T* b, T* out) noexcept {
  T z[64]{}, col[8]{};
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = b[r * 8 + c];
    fdct8(col, z + c * 8);
  }
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) col[r] = z[r * 8 + c];
    fdct8(col, out + c * 8);
  }
}

// Steps 1–7 of SPEC §6.5 for eight blocks (one per lane): the mask m of each block.
VQM_CPU_INLINE simd::f8 hvs_block_mask(const simd::i8* a, const simd::i8* d, const tables::csf_table& mask) noexcept {
  using namespace simd;
  f8 g{}, q[4]{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const f8 v = __builtin_convertvector(a[i * 8 + j], f8);
      g += v;
      q[(i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0)] += v;
    }
  g = g / splat8(64.0f);
  for (auto& qq : q) qq = qq / splat8(16.0f);
  f8 var{}, qv[4]{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const f8 v = __builtin_convertvector(a[i * 8 + j], f8);
      const int k = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
      const f8 dg = v - g;
      var += dg * dg;
      const f8 dq = v - q[k];
      qv[k] += dq * dq;
    }
  var = var * splat8(tables::k63);
  for (auto& x : qv) x = x * splat8(tables::k15);
  const f8 zero{};
  var = var > zero ? (((qv[0] + qv[1]) + qv[2]) + qv[3]) / var : var;
  f8 e{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      if (i != 0 || j != 0) e += __builtin_convertvector(d[i * 8 + j] * d[i * 8 + j], f8) * splat8(mask[i][j]);
  return simd::sqrt(e * var) / splat8(32.0f);
}

template <class T>
VQM_CPU_INLINE float psnr_hvs_impl(const plane_view& ra, const plane_view& rb, int plane) noexcept {
  using namespace simd;
  const auto& csf = *tables::csf[plane];
  const auto& mask = tables::mask[plane];
  float ret = 0.0f;
  const int w = static_cast<int>(ra.width), h = static_cast<int>(ra.height);
  if (w < 8 || h < 8) return ret;
  const int blocks = (w - 8) / 7 + 1;  // origins 0, 7, … while x < w − 7
  alignas(32) std::int32_t ga[64][8], gb[64][8];
  alignas(32) float terms[64][8];
  i8 a[64], b[64], da[64], db[64];
  for (int y = 0; y < h - 7; y += 7)
    for (int bx = 0; bx < blocks; bx += 8) {
      const int lanes = blocks - bx < 8 ? blocks - bx : 8;
      for (int i = 0; i < 8; ++i) {
        const T* pa = ra.row<T>(static_cast<std::uint32_t>(y + i)) + 7 * bx;
        const T* pb = rb.row<T>(static_cast<std::uint32_t>(y + i)) + 7 * bx;
        for (int l = 0; l < 8; ++l)
          for (int j = 0; j < 8; ++j) {
            ga[i * 8 + j][l] = l < lanes ? pa[7 * l + j] : 0;  // idle lanes compute an ignored flat block
            gb[i * 8 + j][l] = l < lanes ? pb[7 * l + j] : 0;
          }
      }
      for (int k = 0; k < 64; ++k) {
        a[k] = load<i8>(ga[k]);
        b[k] = load<i8>(gb[k]);
      }
      fdct8x8(a, da);
      fdct8x8(b, db);
      const f8 ma = hvs_block_mask(a, da, mask);
      const f8 mb = hvs_block_mask(b, db, mask);
      const f8 m = mb > ma ? mb : ma;
      const f8 zero{};
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          const i8 diff = da[i * 8 + j] - db[i * 8 + j];
          f8 err = __builtin_convertvector(diff < 0 ? -diff : diff, f8);
          if (i != 0 || j != 0) {
            const f8 t = m / splat8(mask[i][j]);
            err = err < t ? zero : err - t;
          }
          const f8 e = err * splat8(csf[i][j]);
          store(terms[i * 8 + j], e * e);
        }
      for (int l = 0; l < lanes; ++l)
        for (int k = 0; k < 64; ++k) ret = ret + terms[k][l];
    }
  return ret;
}

template <class T>
float psnr_hvs_rows(const plane_view& a, const plane_view& b, int plane) noexcept {
#if VQM_CPU_X86
  if (active_isa() >= isa::avx2) return simd::as_avx2([&] { return psnr_hvs_impl<T>(a, b, plane); });
#endif
  return psnr_hvs_impl<T>(a, b, plane);
}

}  // namespace detail

#pragma GCC diagnostic pop

// The binary32 accumulator `ret` of one plane (plane 0 = Y, 1 = Cb, 2 = Cr selects the CSF table).
[[nodiscard]] VQM_CPU_KERNEL float psnr_hvs_plane(const plane_view& a, const plane_view& b, std::uint32_t bit_depth, int plane) noexcept
#if VQM_CPU_KERNEL_BODIES
{
  return bit_depth > 8 ? detail::psnr_hvs_rows<std::uint16_t>(a, b, plane) : detail::psnr_hvs_rows<std::uint8_t>(a, b, plane);
}
#else
;
#endif

}  // namespace vqm::cpu
