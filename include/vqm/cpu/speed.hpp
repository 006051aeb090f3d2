// Cpu kernel of SpEED (libvmaf's speed.c scalar path; SPEC-vmaf-v1 §B.4–B.11) on binary32 planes: the
// prescale, the anti-alias filter and decimation by 16 (only the kept rows and columns are filtered; each
// kept value is the full filter's), the local-mean band-pass, then per image the 5×5 block statistics:
// binary32 means, sequential double covariance sums, eigenvalues, the QR solve, the block variances and
// entropies; and the score of a reference/distorted pair. Scratch lives in a per-thread workspace.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/cpu/speed_linalg.hpp"
#include "vqm/cpu/speed_prescale.hpp"
#include "vqm/metrics/float_vif.hpp"
#include "vqm/metrics/speed.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::speed_detail {

[[nodiscard]] inline int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

// The statistics of one band-passed image: per block entropy and variance, and whether it was singular.
struct image_stats {
  std::vector<float> entropy, variance;
  bool err = false;
};

struct workspace {
  float kernelscale = 0.0f;
  std::vector<float> antialias, local;  // taps
  resampler scale;
  std::vector<float> plane, scaled, vtmp, low, band, y, x, qy;
  std::vector<double> centred;  // per window position, the 25 offsets' samples minus their means
  image_stats ref, dis;

  void prepare(const speed_request& q) {
    if (q.kernelscale != kernelscale || antialias.empty()) {
      kernelscale = q.kernelscale;
      const int wa = fvif::filter_width(1, q.kernelscale);
      // speed_get_antialias_filter: the scale-1 width, σ = (f32)(sqrt(4)·width / 5) (double).
      antialias = fvif::gaussian_taps(wa, static_cast<float>(std::sqrt(4.0) * wa / 5.0f));
      local = fvif::filter_taps(4, q.kernelscale);
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

// est_params on ws.band (wo×ho): the 5×5 block statistics of one image.
inline void estimate(workspace& ws, const speed_request& q, image_stats& out) {
  const std::size_t wo = q.scaled_width >> 4, ho = q.scaled_height >> 4;
  const std::size_t tw = wo / 5 * 5, th = ho / 5 * 5, nbh = tw / 5, nb = nbh * (th / 5);
  const std::size_t sw = tw - 4, sh = th - 4, n = sw * sh;
  const float* d = ws.band.data();
  // Means: binary32 sums, row-major, divided by (f32)N; covariances: double sums of the centred samples,
  // each strictly sequential in row-major order (the 325 sums advance together, one position at a time).
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
  matrix k{};
  for (int x = 0; x < E; ++x)
    for (int y = 0; y <= x; ++y)
      k[x * E + y] = k[y * E + x] = static_cast<float>(acc[x * E + y] / static_cast<double>(n));
  float lam[E];
  eigenvalues(k, lam);
  // The independent term: one column per block, its 25 samples.
  ws.y.resize(E * nb);
  for (std::size_t si = 0; si < 5; ++si)
    for (std::size_t sj = 0; sj < 5; ++sj)
      for (std::size_t b = 0; b < nb; ++b)
        ws.y[(si * 5 + sj) * nb + b] = d[((b / nbh) * 5 + si) * wo + (b % nbh) * 5 + sj];
  bool regular = true;
  for (float l : lam) regular = regular && !(static_cast<double>(l) < eps);
  ws.x.resize(E * nb);
  ws.qy.resize(E * nb);
  out.err = !(regular && solve(k, ws.y.data(), ws.x.data(), ws.qy.data(), nb));
  if (out.err) std::fill(ws.x.begin(), ws.x.end(), 0.0f);
  // Block variances S = Σ_e (X·Y)/25 (binary32, e ascending); entropies over the 25 eigenvalues.
  out.variance.assign(nb, 0.0f);
  for (std::size_t e = 0; e < E; ++e)
    for (std::size_t b = 0; b < nb; ++b) {
      const float z = (ws.x[e * nb + b] * ws.y[e * nb + b]) / 25.0f;
      out.variance[b] = e == 0 ? z : out.variance[b] + z;
    }
  const double log2_2pie = std::log2(2 * 3.14159265358979323846 * 2.71828182845904523536);
  out.entropy.assign(nb, 0.0f);
  for (float l : lam) {
    const float lk = l < 0 ? 0.0f : l;
    for (std::size_t b = 0; b < nb; ++b)
      out.entropy[b] = static_cast<float>(
          static_cast<double>(out.entropy[b]) +
          (std::log2(static_cast<double>(lk * out.variance[b] + q.sigma_nn)) + log2_2pie));
  }
}

// get_speed_score: the mean over blocks of |a − c| (binary32), blocks below the base entropy skipped.
[[nodiscard]] inline float pair_score(const image_stats& r, const image_stats& d, const speed_request& q) {
  const double log2_2pie = std::log2(2 * 3.14159265358979323846 * 2.71828182845904523536);
  const std::size_t nb = r.entropy.size();
  const auto base = static_cast<float>(
      static_cast<double>(E) * (std::log2(static_cast<double>((1 + q.nn_floor) * q.sigma_nn)) + log2_2pie));
  float score = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    const float hr = r.entropy[b], hd = d.entropy[b], sr = r.variance[b], sd = d.variance[b];
    if (hr < base && hd < base) continue;
    const double lr = std::log2(static_cast<double>(1 + sr)), ld = std::log2(static_cast<double>(1 + sd));
    double a = 0, c = 0;
    switch (q.weight_var_mode) {
      case 1: a = hr * lr, c = hd * lr; break;
      case 2: a = hr * ld, c = hd * ld; break;
      case 3: {
        const double m = std::log2(1 + static_cast<double>(sr + sd) / 2.0);
        a = hr * m, c = hd * m;
        break;
      }
      case 4: a = hr * lr, c = hd * std::log2(1 + static_cast<double>(sr + sd) / 2.0); break;
      case 5: a = hr * lr, c = hd * std::log2(1 + (0.75 * sr + 0.25 * sd)); break;
      case 6: a = hr * lr, c = hd * std::log2(1 + (0.25 * sr + 0.75 * sd)); break;
      default: a = hr * lr, c = hd * ld; break;
    }
    score += std::fabs(static_cast<float>(a) - static_cast<float>(c));
  }
  return score / static_cast<float>(nb);
}

// speed_extract_score on two working planes (width×height, rows packed); returns err_ref || err_dis.
inline bool extract_score(workspace& ws, const speed_request& q, const float* ref, const float* dis, float& score) {
  ws.prepare(q);
  band_pass(ws, q, prescaled(ws, q, ref));
  estimate(ws, q, ws.ref);
  band_pass(ws, q, prescaled(ws, q, dis));
  estimate(ws, q, ws.dis);
  score = ws.ref.err != ws.dis.err ? 0.0f : pair_score(ws.ref, ws.dis, q);
  return ws.ref.err || ws.dis.err;
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
