// Cpu kernel of cambi, per scale (SPEC-vmaf-v1 A.8–A.10): c-values from sliding per-column histograms (a
// row slides in one pass: equal columns cancel, runs update as ramps), then the host algorithm's top-k
// pooling of each scale (cambi_model::top_k_mean). The scan, ramp and c-value row run portable here or as
// AVX2 / AVX-512 code (x86/cambi.hpp), picked by cpu::active_isa(). Included by cpu/cambi.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "vqm/cpu/cambi.hpp"
#include "vqm/cpu/simd.hpp"

namespace vqm::cpu {

namespace cambi_detail {

// The histograms of a scale: hist[v][x] counts the masked in-band samples of value v in the window of
// column x over the current rows (libvmaf's layout, row stride the widest scale's). `num_diffs` zero rows pad
// both ends so contrasts that leave the band read 0. All counts are back to 0 after each scale (its last
// rows are removed), so the buffer is cleared only when its shape changes.
struct histograms {
  std::vector<std::uint16_t> counts;  // + slack: the x86 gathers read 32 bits at a uint16 index
  int base = 0, band = 0, pad_rows = 0;
  std::size_t stride = 0;
  std::uint32_t w = 0;

  void prepare(int band_base, int band_size, int diffs, std::uint32_t width, std::uint32_t max_width) {
    if (band_base != base || band_size != band || diffs != pad_rows || max_width != stride) {
      base = band_base;
      band = band_size;
      pad_rows = diffs;
      stride = max_width;
      counts.assign(std::size_t(band + 2 * pad_rows) * stride + 16, 0);
    }
    w = width;
  }
  [[nodiscard]] std::uint16_t* row(int v) noexcept { return counts.data() + std::size_t(v - base + pad_rows) * stride; }
};

inline constexpr std::uint16_t no_key = 0xffff;  // a sample outside the histograms (masked out or out of band)

// One c-value row's inputs (A.8): the scale's row y as keys (the sample where it is counted, else no_key),
// the histograms, the request's constants.
struct c_row_args {
  const std::uint16_t* keys;
  const std::uint16_t* counts;  // value v's row at counts + (v - base + pad_rows) * stride
  std::ptrdiff_t stride;
  int base, pad_rows, diffs, vlt;
  const std::uint16_t* tvi;
  const float* lut;
  int w;
};

// The portable run scan, range update and c-value row; x86/cambi.hpp has them as AVX2 and AVX-512 code.
struct c_scalar_ops {
  // The first column from x on where the two key rows differ (w if none).
  static int skip_equal(const std::uint16_t* a, const std::uint16_t* b, int x, int w) noexcept {
    while (x < w && a[x] == b[x]) ++x;
    return x;
  }
  // h[c] ±= the number of x in [x0, x0 + len) with |x − c| ≤ pad, for c in [0, w): a run of len equal
  // samples added to (or removed from) the windows, in one pass (lo = x0 − pad, hi = x0 + len − 1 + pad).
  static void ramp(std::uint16_t* h, int lo, int hi, int cap, int w, bool add) noexcept {
    for (int c = std::max(lo, 0), e = std::min(hi, w - 1); c <= e; ++c) {
      const int n = std::min(std::min(c - lo + 1, hi - c + 1), cap);
      h[c] = static_cast<std::uint16_t>(add ? h[c] + n : h[c] - n);
    }
  }
  static void c_row(const c_row_args& a, float* o) noexcept { c_row_tail(a, 0, o); }
  // Columns x0.. of the row, one sample at a time (also the vector paths' last columns).
  static void c_row_tail(const c_row_args& a, int x0, float* o) noexcept {
    const float* lut = a.lut;
    for (int x = x0; x < a.w; ++x) {
      const int v = a.keys[x];
      o[x] = 0.0f;
      if (v == no_key) continue;
      const std::uint16_t* h0 = a.counts + (v - a.base + a.pad_rows) * a.stride + x;
      const int adjusted = v + a.diffs;
      const int p0 = *h0;
      float c = 0.0f;
      for (int d = 0; d < a.diffs; ++d) {
        if (adjusted > a.tvi[d] || adjusted + d + 1 <= a.vlt) continue;
        const int p1 = h0[(d + 1) * a.stride], p2 = h0[-(d + 1) * a.stride];
        const int pm = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(cambi_model::contrast_weights[d] * p0 * pm) * lut[pm + p0];
        if (val > c) c = val;
      }
      o[x] = c;
    }
  }
};

}  // namespace cambi_detail
}  // namespace vqm::cpu

#if VQM_CPU_X86
#include "vqm/cpu/x86/cambi.hpp"
#endif

namespace vqm::cpu {
namespace cambi_detail {

// Adds the samples of key row `add` to the windows and removes those of `rem` (no_keys: none). A column
// whose two samples count for the same value cancels; a run of columns with the same change is one ramp
// (Ops::ramp). Exact: the counts are sums of the same ±1s in another order (uint16, modular).
template <class Ops>
void slide(histograms& hist, const std::uint16_t* add, const std::uint16_t* rem, int pad) {
  const int w = static_cast<int>(hist.w), cap = 2 * pad + 1;
  for (int x = Ops::skip_equal(add, rem, 0, w); x < w; x = Ops::skip_equal(add, rem, x, w)) {
    const std::uint16_t a = add[x], r = rem[x];
    int e = x + 1;
    while (e < w && add[e] == a && rem[e] == r) ++e;
    const int len = std::min(e - x, cap);
    if (a != no_key) Ops::ramp(hist.row(a), x - pad, e - 1 + pad, len, w, true);
    if (r != no_key) Ops::ramp(hist.row(r), x - pad, e - 1 + pad, len, w, false);
    x = e;
  }
}

// The key image of a scale (w × h, compact): each sample where the histograms count it, or no_key.
inline void keys_of(const image& m, const histograms& hist, std::vector<std::uint16_t>& keys) {
  keys.resize(std::size_t{m.w} * (m.h + 1));  // + a row of no_keys: "no row"
  const int base = hist.base, top = hist.base + hist.band;
  for (std::uint32_t y = 0; y < m.h; ++y) {
    const std::uint16_t* p = m.px.data() + std::size_t{y} * m.stride;
    const std::uint8_t* k = m.mask.data() + std::size_t{y} * m.stride;
    std::uint16_t* o = keys.data() + std::size_t{y} * m.w;
    for (std::uint32_t x = 0; x < m.w; ++x) o[x] = ((k[x] != 0) & (p[x] >= base) & (p[x] < top)) ? p[x] : no_key;
  }
  std::fill_n(keys.data() + std::size_t{m.w} * m.h, m.w, no_key);
}

// A.8: every sample's c-value (binary32), row-major at the scale's width.
template <class Ops>
void c_values_with(image& m, const cambi_request& q, int window, histograms& hist, std::vector<float>& out) {
  const int pad = window >> 1, diffs = q.num_diffs, vlt = q.vlt_luma;
  const int base = std::max(0, vlt - 3 * diffs + 1);
  hist.prepare(base, q.tvi[static_cast<std::size_t>(diffs - 1)] + 1 - base, diffs, m.w, m.stride);
  if (out.size() < std::size_t{m.w} * m.h) out.resize(std::size_t{m.w} * m.h);  // never shrunk: no refill
  thread_local std::vector<std::uint16_t> keys;
  keys_of(m, hist, keys);
  const int h = static_cast<int>(m.h);
  const auto row = [&](int y) { return keys.data() + std::size_t(y >= 0 && y < h ? y : h) * m.w; };
  for (int y = 0; y < std::min(pad, h); ++y) slide<Ops>(hist, row(y), row(-1), pad);
  c_row_args a{nullptr, hist.counts.data(), static_cast<std::ptrdiff_t>(hist.stride), hist.base, hist.pad_rows,
               diffs, vlt, q.tvi.data(), cambi_model::reciprocals().data(), static_cast<int>(m.w)};
  for (int y = 0; y < h; ++y) {
    slide<Ops>(hist, row(y + pad), row(y - pad - 1), pad);
    a.keys = row(y);
    Ops::c_row(a, out.data() + std::size_t(y) * m.w);
  }
  // Rows still counted after the last one: removed, leaving every count 0 for the next scale.
  for (int y = std::max(h - pad - 1, 0); y < h; ++y) slide<Ops>(hist, row(-1), row(y), pad);
}

// c_values_with on the widest instruction set cpu::active_isa() allows (every path bit-identical).
inline void c_values(image& m, const cambi_request& q, int window, histograms& hist, std::vector<float>& out) {
#if VQM_CPU_X86
  const isa level = active_isa();
  if (level >= isa::avx512) return simd::as_avx512([&] { c_values_with<x86::c_avx512_ops>(m, q, window, hist, out); });
  if (level >= isa::avx2) return simd::as_avx2([&] { c_values_with<x86::c_avx2_ops>(m, q, window, hist, out); });
#endif
  c_values_with<c_scalar_ops>(m, q, window, hist, out);
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
