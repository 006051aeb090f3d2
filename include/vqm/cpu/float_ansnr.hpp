// Cpu kernel of float_ansnr: libvmaf's scalar path (ansnr_tools.c) in its binary32 order. Each luma is copied
// as floats less 128 into a picture with two mirrored samples on every side (libvmaf's edge rule), so the
// filters index without branches; a row's filtered values feed the row's signal and noise sums at once.
#pragma once

#include <cstdint>
#include <vector>

#include "vqm/cpu/normalize.hpp"
#include "vqm/metrics/float_ansnr.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

namespace ansnr_detail {

inline constexpr int pad = ansnr::dis_width / 2;

// The float luma less 128 (exact), bordered by `pad` mirrored samples: row y + pad, column x + pad holds
// sample (mirror(y), mirror(x)).
template <class T>
inline void bordered(const plane_view& p, std::uint32_t bit_depth, std::vector<float>& out) {
  const int w = static_cast<int>(p.width), h = static_cast<int>(p.height), pw = w + 2 * pad;
  out.resize(static_cast<std::size_t>(pw) * static_cast<std::size_t>(h + 2 * pad));
  const float div = normalize_divisor(bit_depth);
  for (int y = -pad; y < h + pad; ++y) {
    const T* row = p.row<T>(static_cast<std::uint32_t>(ansnr::mirror(y, h)));
    float* o = out.data() + static_cast<std::ptrdiff_t>(y + pad) * pw + pad;
    for (int x = -pad; x < w + pad; ++x) o[x] = static_cast<float>(row[ansnr::mirror(x, w)]) / div - 128.0f;
  }
}

// ansnr_filter2d_s at one sample: a float sum per filter row, the row sums added in float.
template <int N>
[[nodiscard]] inline float filter(const float* taps, const float* centre, std::ptrdiff_t stride) noexcept {
  float accum = 0.0f;
  for (int fi = 0; fi < N; ++fi) {
    const float* row = centre + (fi - N / 2) * stride - N / 2;
    float inner = 0.0f;
    for (int fj = 0; fj < N; ++fj) inner += taps[fi * N + fj] * row[fj];
    accum += inner;
  }
  return accum;
}

}  // namespace ansnr_detail

// Σ r² and Σ (r − d)² of the filtered lumas as ansnr_mse_s sums them (a float per row, rows added in float).
inline ansnr_partials float_ansnr(const plane_view& ref, const plane_view& dis, std::uint32_t bit_depth) {
  using namespace ansnr_detail;
  std::vector<float> r, d;
  if (bit_depth > 8) {
    bordered<std::uint16_t>(ref, bit_depth, r);
    bordered<std::uint16_t>(dis, bit_depth, d);
  } else {
    bordered<std::uint8_t>(ref, bit_depth, r);
    bordered<std::uint8_t>(dis, bit_depth, d);
  }
  const int w = static_cast<int>(ref.width), h = static_cast<int>(ref.height);
  const std::ptrdiff_t pw = w + 2 * pad;
  std::vector<float> rf(static_cast<std::size_t>(w)), df(static_cast<std::size_t>(w));
  ansnr_partials out;
  for (int y = 0; y < h; ++y) {
    const std::ptrdiff_t at = (y + pad) * pw + pad;
    for (int x = 0; x < w; ++x) {
      rf[static_cast<std::size_t>(x)] = filter<ansnr::ref_width>(ansnr::ref_taps, r.data() + at + x, pw);
      df[static_cast<std::size_t>(x)] = filter<ansnr::dis_width>(ansnr::dis_taps, d.data() + at + x, pw);
    }
    float sig = 0.0f, noise = 0.0f;
    for (std::size_t x = 0; x < rf.size(); ++x) {
      sig += rf[x] * rf[x];
      noise += (rf[x] - df[x]) * (rf[x] - df[x]);
    }
    out.sig += sig;
    out.noise += noise;
  }
  return out;
}

}  // namespace vqm::cpu
