// Cpu kernel of cambi (SPEC-vmaf-v1 A.5–A.10): one luma to its unclipped score. Integer work throughout
// (10-bit image, zero-derivative mask, mode filter, sliding per-column histograms as libvmaf keeps them);
// binary32 only in the c-value (int product to float, times the reciprocal table); the pooling is the host
// algorithm's (cambi_model::top_k_mean).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vqm/cpu/simd.hpp"
#include "vqm/error.hpp"
#include "vqm/metrics/cambi.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

namespace cambi_detail {

// A w × h image (row stride `stride`, the full width: the scales shrink in place).
struct image {
  std::vector<std::uint16_t> px;
  std::vector<std::uint8_t> mask;
  std::uint32_t w = 0, h = 0, stride = 0;
};

// A.5: the luma at w × h (nearest sample when the size differs), in 10 bits; samples above the depth's
// range are libvmaf's frame error.
template <class T>
void to_10_bit(const plane_view& p, std::uint32_t bpc, std::uint32_t w, std::uint32_t h, image& out) {
  if (bpc > 8 && bpc < 16) {
    const std::uint32_t top = (1u << bpc) - 1;
    for (std::uint32_t y = 0; y < p.height; ++y) {
      const T* row = p.row<T>(y);
      for (std::uint32_t x = 0; x < p.width; ++x)
        if (row[x] > top)
          throw error(errc::bad_input, "cambi: luma sample " + std::to_string(row[x]) + " at (" + std::to_string(x) +
                                           ", " + std::to_string(y) + ") exceeds " + std::to_string(bpc) +
                                           "-bit range (libvmaf refuses the frame); check the input's bit depth");
    }
  }
  const auto convert = [bpc](std::uint32_t v) -> std::uint16_t {
    if (bpc <= 10) return static_cast<std::uint16_t>(v << (10 - bpc));
    return static_cast<std::uint16_t>((v + (1u << (bpc - 11))) >> (bpc - 10));
  };
  out.w = out.stride = w;
  out.h = h;
  out.px.resize(std::size_t{w} * h);
  if (p.width == w && p.height == h) {
    for (std::uint32_t y = 0; y < h; ++y) {
      const T* row = p.row<T>(y);
      std::uint16_t* o = out.px.data() + std::size_t{y} * w;
      for (std::uint32_t x = 0; x < w; ++x) o[x] = convert(row[x]);
    }
    return;
  }
  thread_local std::vector<std::uint32_t> xs, ys;
  cambi_model::nearest_indices(p.width, w, xs);
  cambi_model::nearest_indices(p.height, h, ys);
  for (std::uint32_t y = 0; y < h; ++y) {
    const T* row = p.row<T>(ys[y]);
    std::uint16_t* o = out.px.data() + std::size_t{y} * w;
    for (std::uint32_t x = 0; x < w; ++x) o[x] = convert(row[xs[x]]);
  }
}

// A.5 step 3: the mean of each 2×2 block (pairs on the last row and column), from the unfiltered values.
inline void anti_dither(image& m) {
  const std::uint32_t w = m.w, h = m.h;
  std::uint16_t* p = m.px.data();
  for (std::uint32_t y = 0; y + 1 < h; ++y) {
    std::uint16_t* r = p + std::size_t{y} * w;
    const std::uint16_t* n = r + w;
    for (std::uint32_t x = 0; x + 1 < w; ++x) r[x] = static_cast<std::uint16_t>((r[x] + r[x + 1] + n[x] + n[x + 1]) >> 2);
    r[w - 1] = static_cast<std::uint16_t>((r[w - 1] + n[w - 1]) >> 1);
  }
  std::uint16_t* r = p + std::size_t{h - 1} * w;
  for (std::uint32_t x = 0; x + 1 < w; ++x) r[x] = static_cast<std::uint16_t>((r[x] + r[x + 1]) >> 1);
}

[[nodiscard]] inline int ceil_log2(std::uint32_t n) {
  int s = 0;
  for (std::uint32_t t = n == 0 ? 0 : n - 1; t > 0; t >>= 1) ++s;
  return s;
}

// A.6: a sample is flat where it equals its right and lower neighbours (missing ones count as equal); the
// mask keeps samples with more than mask_index flat samples in their 7×7 square (outside counts 0).
inline void spatial_mask(image& m) {
  const int w = static_cast<int>(m.w), h = static_cast<int>(m.h);
  const std::uint16_t* p = m.px.data();
  const int index = (49 + 3 * (ceil_log2((m.w >> 6) * (m.h >> 6)) - 11) - 1) >> 1;
  thread_local std::vector<std::uint8_t> flat;
  thread_local std::vector<std::uint16_t> col;
  flat.resize(std::size_t(w) * h);
  col.resize(std::size_t(w));
  for (int y = 0; y < h; ++y) {
    const std::uint16_t* r = p + std::size_t(y) * w;
    const std::uint16_t* n = y + 1 < h ? r + w : r;  // the last row is equal to "itself below"
    std::uint8_t* f = flat.data() + std::size_t(y) * w;
    for (int x = 0; x + 1 < w; ++x) f[x] = (r[x] == r[x + 1]) & (r[x] == n[x]);
    f[w - 1] = r[w - 1] == n[w - 1];
  }
  // Box sums, row by row: col[x] holds the 7 rows around y (running), then 7 columns of it.
  std::fill(col.begin(), col.end(), std::uint16_t{0});
  for (int y = 0; y < std::min(3, h); ++y) {
    const std::uint8_t* f = flat.data() + std::size_t(y) * w;
    for (int x = 0; x < w; ++x) col[std::size_t(x)] = static_cast<std::uint16_t>(col[std::size_t(x)] + f[x]);
  }
  m.mask.resize(std::size_t(w) * h);
  for (int y = 0; y < h; ++y) {
    if (y + 3 < h) {
      const std::uint8_t* f = flat.data() + std::size_t(y + 3) * w;
      for (int x = 0; x < w; ++x) col[std::size_t(x)] = static_cast<std::uint16_t>(col[std::size_t(x)] + f[x]);
    }
    if (y - 4 >= 0) {
      const std::uint8_t* f = flat.data() + std::size_t(y - 4) * w;
      for (int x = 0; x < w; ++x) col[std::size_t(x)] = static_cast<std::uint16_t>(col[std::size_t(x)] - f[x]);
    }
    const std::uint16_t* c = col.data();
    std::uint8_t* out = m.mask.data() + std::size_t(y) * w;
    int s = 0;
    for (int x = 0; x < std::min(3, w); ++x) s += c[x];
    for (int x = 0; x < w; ++x) {
      if (x + 3 < w) s += c[x + 3];
      if (x - 4 >= 0) s -= c[x - 4];
      out[x] = s > index;
    }
  }
}

// A.7: keep every other row and column (in place; the stride stays).
inline void decimate(image& m) {
  const std::uint32_t w = (m.w + 1) >> 1, h = (m.h + 1) >> 1, s = m.stride;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      m.px[std::size_t{y} * s + x] = m.px[std::size_t{2 * y} * s + 2 * x];
      m.mask[std::size_t{y} * s + x] = m.mask[std::size_t{2 * y} * s + 2 * x];
    }
  m.w = w;
  m.h = h;
}

[[nodiscard]] inline std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) noexcept {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return std::min(std::min(a, b), c);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
using u16x16 = std::uint16_t __attribute__((vector_size(32)));

// mode3 on 16 lanes (lanes of m all ones or zero: x where set, else y).
VQM_CPU_INLINE u16x16 select(u16x16 m, u16x16 x, u16x16 y) noexcept { return (x & m) | (y & ~m); }
VQM_CPU_INLINE u16x16 mode3(u16x16 a, u16x16 b, u16x16 c) noexcept {
  u16x16 mn = select(reinterpret_cast<u16x16>(a < b), a, b);
  mn = select(reinterpret_cast<u16x16>(mn < c), mn, c);
  const u16x16 r = select(reinterpret_cast<u16x16>(b == c), b, mn);
  return select(reinterpret_cast<u16x16>((a == b) | (a == c)), a, r);
}
VQM_CPU_INLINE u16x16 load16(const std::uint16_t* p) noexcept {
  u16x16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A.7's mode filter: horizontal mode of three (edge columns kept), then vertical over rows 1..h−2; the
// first and last rows keep their original values. In place with a rolling window of filtered rows.
inline void mode_filter_rows(image& m) {
  const std::uint32_t w = m.w, h = m.h, s = m.stride;
  if (h < 3) return;
  thread_local std::vector<std::uint16_t> rows;
  rows.resize(std::size_t{3} * w);
  const auto horizontal = [&](std::uint32_t y, std::uint16_t* out) {
    const std::uint16_t* r = m.px.data() + std::size_t{y} * s;
    out[0] = r[0];
    std::uint32_t x = 1;
    for (; x + 17 <= w; x += 16) {
      const u16x16 v = mode3(load16(r + x - 1), load16(r + x), load16(r + x + 1));
      std::memcpy(out + x, &v, sizeof v);
    }
    for (; x + 1 < w; ++x) out[x] = mode3(r[x - 1], r[x], r[x + 1]);
    out[w - 1] = r[w - 1];
  };
  const auto slot = [&](std::uint32_t y) { return rows.data() + std::size_t{y % 3} * w; };
  horizontal(0, slot(0));
  horizontal(1, slot(1));
  for (std::uint32_t y = 1; y + 1 < h; ++y) {
    horizontal(y + 1, slot(y + 1));  // row y+1 is still unfiltered: only rows up to y are written
    const std::uint16_t *a = slot(y - 1), *b = slot(y), *c = slot(y + 1);
    std::uint16_t* o = m.px.data() + std::size_t{y} * s;
    std::uint32_t x = 0;
    for (; x + 16 <= w; x += 16) {
      const u16x16 v = mode3(load16(a + x), load16(b + x), load16(c + x));
      std::memcpy(o + x, &v, sizeof v);
    }
    for (; x < w; ++x) o[x] = mode3(a[x], b[x], c[x]);
  }
}

// mode_filter_rows on the widest instruction set allowed (its vectors as AVX2 or AVX-512 code).
inline void mode_filter(image& m) {
#if VQM_CPU_X86
  const isa level = active_isa();
  if (level >= isa::avx512) return simd::as_avx512([&] { mode_filter_rows(m); });
  if (level >= isa::avx2) return simd::as_avx2([&] { mode_filter_rows(m); });
#endif
  mode_filter_rows(m);
}
#pragma GCC diagnostic pop

}  // namespace cambi_detail
}  // namespace vqm::cpu

#include "vqm/cpu/cambi_scale.hpp"
