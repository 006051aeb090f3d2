// Cpu kernel of SpEED (libvmaf's speed.c scalar path; SPEC-vmaf-v1 §B.4–B.11) on binary32 planes: the
// prescale, the anti-alias filter and decimation by 16 (only the kept rows and columns are filtered; each
// kept value is the full filter's), the local-mean band-pass, then per image the binary32 means and the
// sequential double covariance sums; the block statistics and the score are the shared host math
// (metrics/speed_stats.hpp). Scratch lives in a per-thread workspace.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/cpu/speed_prescale.hpp"
#include "vqm/metrics/speed.hpp"
#include "vqm/metrics/speed_stats.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::speed_detail {

using speed::E;

[[nodiscard]] inline int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

struct workspace {
  float kernelscale = 0.0f;
  std::vector<float> antialias, local;  // taps
  resampler scale;
  std::vector<float> scaled, vtmp, low, band;
  std::vector<double> centred;  // per window position, the 25 offsets' samples minus their means
  speed::stats_scratch stats;
  speed::image_stats ref, dis;

  void prepare(const speed_request& q) {
    if (q.kernelscale != kernelscale || antialias.empty()) {
      kernelscale = q.kernelscale;
      antialias = speed::antialias_taps(q.kernelscale);
      local = speed::local_taps(q.kernelscale);
    }
    if (q.resample && (q.scaled_width != q.width || q.scaled_height != q.height))
      scale.prepare(static_cast<int>(q.width), static_cast<int>(q.height), static_cast<int>(q.scaled_width),
                    static_cast<int>(q.scaled_height), q.method);
  }
};

// The sw×sh plane the band-pass filters: the working plane resampled, as it is, or (the |ps − 1| < 1e-3
// trap) its top-left crop, padded with 0 where the size grew.
inline const float* prescaled(workspace& ws, const speed_request& q, const float* img) {
  const std::size_t sw = q.scaled_width, sh = q.scaled_height;
  if (sw == q.width && sh == q.height) return img;
  ws.scaled.resize(sw * sh);
  if (q.resample) {
    ws.scale.run(img, ws.scaled.data());
  } else {
    for (std::size_t r = 0; r < sh; ++r)
      for (std::size_t c = 0; c < sw; ++c)
        ws.scaled[r * sw + c] = r < q.height && c < q.width ? img[r * q.width + c] : 0.0f;
  }
  return ws.scaled.data();
}

// filter_and_downscale: the anti-alias filter at the rows and columns 16·i, then band = D − local mean.
inline void band_pass(workspace& ws, const speed_request& q, const float* img) {
  const int w = static_cast<int>(q.scaled_width), h = static_cast<int>(q.scaled_height);
  const int wo = w >> 4, ho = h >> 4;
  const int fa = static_cast<int>(ws.antialias.size()), ra = fa / 2;
  const float* f = ws.antialias.data();
  ws.vtmp.resize(static_cast<std::size_t>(w));
  ws.low.resize(static_cast<std::size_t>(wo) * ho);
  for (int i = 0; i < ho; ++i) {
    const int row = 16 * i;
    for (int j = 0; j < w; ++j) ws.vtmp[static_cast<std::size_t>(j)] = 0.0f;
    for (int t = 0; t < fa; ++t) {
      const float* src = img + static_cast<std::size_t>(mirror(row - ra + t, h)) * static_cast<std::size_t>(w);
      const float ft = f[t];
      for (int j = 0; j < w; ++j) ws.vtmp[static_cast<std::size_t>(j)] += ft * src[j];
    }
    for (int j = 0; j < wo; ++j) {
      float acc = 0.0f;
      for (int t = 0; t < fa; ++t) acc += f[t] * ws.vtmp[static_cast<std::size_t>(mirror(16 * j - ra + t, w))];
      ws.low[static_cast<std::size_t>(i) * wo + j] = acc;
    }
  }
  const int fl = static_cast<int>(ws.local.size()), rl = fl / 2;
  const float* g = ws.local.data();
  ws.band.resize(ws.low.size());
  std::vector<float>& tmp = ws.vtmp;
  for (int i = 0; i < ho; ++i) {
    for (int j = 0; j < wo; ++j) {
      float acc = 0.0f;
      for (int t = 0; t < fl; ++t) acc += g[t] * ws.low[static_cast<std::size_t>(mirror(i - rl + t, ho)) * wo + j];
      tmp[static_cast<std::size_t>(j)] = acc;
    }
    for (int j = 0; j < wo; ++j) {
      float acc = 0.0f;
      for (int t = 0; t < fl; ++t) acc += g[t] * tmp[static_cast<std::size_t>(mirror(j - rl + t, wo))];
      ws.band[static_cast<std::size_t>(i) * wo + j] = ws.low[static_cast<std::size_t>(i) * wo + j] - acc;
    }
  }
}

// est_params up to K: binary32 means (sums row-major, divided by (f32)N) and the double sums of the centred
// samples, each strictly sequential in row-major order (the 325 sums advance together, one position at a
// time); the rest is the shared host math (metrics/speed_stats.hpp).
inline void estimate(workspace& ws, const speed_request& q, speed::image_stats& out) {
  const speed::geometry g(q);
  const std::size_t wo = g.wo, sw = g.sw, sh = g.sh, n = g.n;
  const float* d = ws.band.data();
  float mean[E];
  for (int k = 0; k < E; ++k) {
    const std::size_t r0 = static_cast<std::size_t>(k / 5), c0 = static_cast<std::size_t>(k % 5);
    float s = 0;
    for (std::size_t i = 0; i < sh; ++i)
      for (std::size_t j = 0; j < sw; ++j) s += d[(r0 + i) * wo + c0 + j];
    mean[k] = s / static_cast<float>(n);
  }
  ws.centred.resize(n * E);
  for (std::size_t i = 0, p = 0; i < sh; ++i)
    for (std::size_t j = 0; j < sw; ++j, ++p)
      for (int k = 0; k < E; ++k)
        ws.centred[p * E + static_cast<std::size_t>(k)] =
            static_cast<double>(d[(i + static_cast<std::size_t>(k / 5)) * wo + j + static_cast<std::size_t>(k % 5)]) -
            static_cast<double>(mean[k]);
  double acc[E * E] = {};
  for (std::size_t p = 0; p < n; ++p) {
    const double* c = ws.centred.data() + p * E;
    for (int x = 0; x < E; ++x) {
      const double cx = c[x];
      double* a = acc + x * E;
      for (int y = 0; y <= x; ++y) a[y] += cx * c[y];
    }
  }
  speed::block_stats(acc, d, q, ws.stats, out);
}

// speed_extract_score on two working planes (width×height, rows packed); returns err_ref || err_dis.
inline bool extract_score(workspace& ws, const speed_request& q, const float* ref, const float* dis, float& score) {
  ws.prepare(q);
  band_pass(ws, q, prescaled(ws, q, ref));
  estimate(ws, q, ws.ref);
  band_pass(ws, q, prescaled(ws, q, dis));
  estimate(ws, q, ws.dis);
  return speed::pair_result(ws.ref, ws.dis, q, score);
}

// picture_copy: the top-left w×h samples of p as (f32)sample / 2^(bpc−8) − 128; no plane: mid-grey (0).
inline void load(const plane_view* p, unsigned bpc, std::uint32_t w, std::uint32_t h, float* dst) noexcept {
  if (!p) {
    std::fill(dst, dst + std::size_t{w} * h, 0.0f);
    return;
  }
  const float scaler = static_cast<float>(1u << (bpc - 8));
  for (std::uint32_t y = 0; y < h; ++y) {
    float* d = dst + std::size_t{y} * w;
    if (bpc > 8) {
      const auto* row = p->row<std::uint16_t>(y);
      for (std::uint32_t x = 0; x < w; ++x) d[x] = static_cast<float>(row[x]) / scaler + -128.0f;
    } else {
      const auto* row = p->row<std::uint8_t>(y);
      for (std::uint32_t x = 0; x < w; ++x) d[x] = static_cast<float>(row[x]) + -128.0f;
    }
  }
}

}  // namespace vqm::cpu::speed_detail
