// Cpu kernel of cambi, per scale (SPEC-vmaf-v1 A.8–A.10): c-values from sliding per-column histograms,
// then the host algorithm's top-k pooling of each scale (cambi_model::top_k_mean). Included by cpu/cambi.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "vqm/cpu/cambi.hpp"

namespace vqm::cpu {

namespace cambi_detail {

// The histograms of a scale: hist[v][x] counts the masked in-band samples of value v in the window of
// column x over the current rows (libvmaf's layout, row stride the widest scale's). `num_diffs` zero rows pad
// both ends so contrasts that leave the band read 0. All counts are back to 0 after each scale (its last
// rows are removed), so the buffer is cleared only when its shape changes.
struct histograms {
  std::vector<std::uint16_t> counts;
  int base = 0, band = 0, pad_rows = 0;
  std::size_t stride = 0;
  std::uint32_t w = 0;

  void prepare(int band_base, int band_size, int diffs, std::uint32_t width, std::uint32_t max_width) {
    if (band_base != base || band_size != band || diffs != pad_rows || max_width != stride) {
      base = band_base;
      band = band_size;
      pad_rows = diffs;
      stride = max_width;
      counts.assign(std::size_t(band + 2 * pad_rows) * stride, 0);
    }
    w = width;
  }
  [[nodiscard]] std::uint16_t* row(int v) noexcept { return counts.data() + std::size_t(v - base + pad_rows) * stride; }
  [[nodiscard]] bool in_band(int v) const noexcept { return v >= base && v < base + band; }

  // Adds (+1) or removes (−1) image row y's samples to the windows of the columns they fall in.
  void update(const image& m, std::uint32_t y, int pad, int delta) {
    const std::uint16_t* p = m.px.data() + std::size_t{y} * m.stride;
    const std::uint8_t* k = m.mask.data() + std::size_t{y} * m.stride;
    const int wi = static_cast<int>(w);
    for (int x = 0; x < wi; ++x) {
      if (!k[x] || !in_band(p[x])) continue;
      std::uint16_t* h = row(p[x]);
      const int lo = std::max(0, x - pad), hi = std::min(wi - 1, x + pad);
      if (delta > 0)
        for (int c = lo; c <= hi; ++c) ++h[c];
      else
        for (int c = lo; c <= hi; ++c) --h[c];
    }
  }
};

// A.8: every sample's c-value (binary32), row-major at the scale's width.
inline void c_values(image& m, const cambi_request& q, int window, histograms& hist, std::vector<float>& out) {
  const auto& lut = cambi_model::reciprocals();
  const int pad = window >> 1, diffs = q.num_diffs, vlt = q.vlt_luma;
  const int base = std::max(0, vlt - 3 * diffs + 1);
  hist.prepare(base, q.tvi[static_cast<std::size_t>(diffs - 1)] + 1 - base, diffs, m.w, m.stride);
  if (out.size() < std::size_t{m.w} * m.h) out.resize(std::size_t{m.w} * m.h);  // never shrunk: no refill
  const auto h = static_cast<std::uint32_t>(m.h);
  for (std::uint32_t y = 0; y < std::min<std::uint32_t>(static_cast<std::uint32_t>(pad), h); ++y)
    hist.update(m, y, pad, +1);
  for (std::uint32_t y = 0; y < h; ++y) {
    if (y + static_cast<std::uint32_t>(pad) < h) hist.update(m, y + static_cast<std::uint32_t>(pad), pad, +1);
    if (y >= static_cast<std::uint32_t>(pad) + 1) hist.update(m, y - static_cast<std::uint32_t>(pad) - 1, pad, -1);
    const std::uint16_t* p = m.px.data() + std::size_t{y} * m.stride;
    const std::uint8_t* k = m.mask.data() + std::size_t{y} * m.stride;
    float* o = out.data() + std::size_t{y} * m.w;
    for (std::uint32_t x = 0; x < m.w; ++x) {
      const int v = p[x];
      o[x] = 0.0f;
      if (!k[x] || !hist.in_band(v)) continue;
      const int adjusted = v + diffs;
      const int p0 = hist.row(v)[x];
      float c = 0.0f;
      for (int d = 0; d < diffs; ++d) {
        if (adjusted > q.tvi[static_cast<std::size_t>(d)] || adjusted + d + 1 <= vlt) continue;
        const int p1 = hist.row(v + d + 1)[x], p2 = hist.row(v - d - 1)[x];
        const int pm = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(cambi_model::contrast_weights[d] * p0 * pm) * lut[static_cast<std::size_t>(pm + p0)];
        if (val > c) c = val;
      }
      o[x] = c;
    }
  }
  // Rows still counted after the last one: removed, leaving every count 0 for the next scale.
  const auto pad_u = static_cast<std::uint32_t>(pad);
  for (std::uint32_t y = h > pad_u + 1 ? h - pad_u - 1 : 0; y < h; ++y) hist.update(m, y, pad, -1);
}

// A.5–A.10: the unclipped score of a luma at w × h with window `window`.
template <class T>
[[nodiscard]] double score(const plane_view& luma, std::uint32_t bpc, const cambi_request& q, std::uint32_t w,
                           std::uint32_t h, int window) {
  thread_local image m;
  thread_local histograms hist;
  thread_local std::vector<float> c;
  to_10_bit<T>(luma, bpc, w, h, m);
  if (q.enc_bit_depth < 10) anti_dither(m);
  spatial_mask(m);
  double s = 0.0;
  for (int scale = 0; scale < 5; ++scale) {
    if (scale > 0 || q.high_res) decimate(m);
    mode_filter(m);
    c_values(m, q, window, hist, c);
    s = cambi_model::add_scale(s, scale, cambi_model::top_k_mean(c.data(), static_cast<int>(m.w * m.h), q.topk));
  }
  return cambi_model::pooled(s, window);
}

}  // namespace cambi_detail

// The distorted's score and, with full_ref, the reference's (at the source size and window).
inline cambi_partials cambi(const picture_view& ref, const picture_view& dis, const cambi_request& q) {
  const auto run = [&q](const picture_view& v, std::uint32_t w, std::uint32_t h, int window) {
    const std::uint32_t bpc = v.format.bit_depth;
    return bpc <= 8 ? cambi_detail::score<std::uint8_t>(v.planes[0], bpc, q, w, h, window)
                    : cambi_detail::score<std::uint16_t>(v.planes[0], bpc, q, w, h, window);
  };
  cambi_partials out;
  out.dis = run(dis, q.enc_width, q.enc_height, q.window);
  if (q.full_ref) out.src = run(ref, q.src_width, q.src_height, q.src_window);
  return out;
}

}  // namespace vqm::cpu
