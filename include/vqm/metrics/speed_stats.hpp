// SpEED's per-image host math (libvmaf's speed.c; SPEC-vmaf-v1 §B.8–B.12), shared by every backend: from
// one band-passed image (1/16 size) and its 25×25 covariance sums, the block statistics — K, its
// eigenvalues, the QR solve, the block variances and entropies (double log2) — and the score of a
// reference/distorted pair. The kernels (Cpu: cpu/speed.hpp; Vulkan: shaders/speed.comp) produce the band
// and the sums; this runs on the host for both.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/metrics/float_vif.hpp"
#include "vqm/metrics/speed.hpp"
#include "vqm/metrics/speed_linalg.hpp"

namespace vqm::speed {

// The block geometry of a request: the band plane (wo×ho), its 5×5-block region (tw×th, nb blocks, nbh a
// row) and the window positions of the covariance (sw×sh = n).
struct geometry {
  std::size_t wo = 0, ho = 0, tw = 0, th = 0, nbh = 0, nb = 0, sw = 0, sh = 0, n = 0;
  explicit geometry(const speed_request& q) noexcept
      : wo(q.scaled_width >> 4), ho(q.scaled_height >> 4), tw(wo / 5 * 5), th(ho / 5 * 5), nbh(tw / 5),
        nb(nbh * (th / 5)), sw(tw - 4), sh(th - 4), n(sw * sh) {}
};

// speed_get_antialias_filter: the scale-1 width, σ = (f32)(sqrt(4)·width / 5) (double).
[[nodiscard]] inline std::vector<float> antialias_taps(float kernelscale) {
  const int wa = fvif::filter_width(1, kernelscale);
  return fvif::gaussian_taps(wa, static_cast<float>(std::sqrt(4.0) * wa / 5.0f));
}
// The local-mean filter: libvmaf's scale-4 taps.
[[nodiscard]] inline std::vector<float> local_taps(float kernelscale) { return fvif::filter_taps(4, kernelscale); }

// The statistics of one band-passed image: per block entropy and variance, and whether it was singular.
struct image_stats {
  std::vector<float> entropy, variance;
  bool err = false;
};

struct stats_scratch {
  std::vector<float> y, x, qy;
};

// est_params after the covariance sums: `acc` holds the double sums Σ c_x·c_y of the centred window samples
// at acc[x·25 + y], y <= x; `band` the wo×ho band plane (rows packed).
inline void block_stats(const double* acc, const float* band, const speed_request& q, stats_scratch& ws,
                        image_stats& out) {
  const geometry g(q);
  matrix k{};
  for (int x = 0; x < E; ++x)
    for (int y = 0; y <= x; ++y)
      k[x * E + y] = k[y * E + x] = static_cast<float>(acc[x * E + y] / static_cast<double>(g.n));
  float lam[E];
  eigenvalues(k, lam);
  // The independent term: one column per block, its 25 samples.
  const std::size_t nb = g.nb;
  ws.y.resize(E * nb);
  for (std::size_t si = 0; si < 5; ++si)
    for (std::size_t sj = 0; sj < 5; ++sj)
      for (std::size_t b = 0; b < nb; ++b)
        ws.y[(si * 5 + sj) * nb + b] = band[((b / g.nbh) * 5 + si) * g.wo + (b % g.nbh) * 5 + sj];
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

// The end of speed_extract_score: 0 where only one image was singular; returns err_ref || err_dis.
[[nodiscard]] inline bool pair_result(const image_stats& r, const image_stats& d, const speed_request& q,
                                      float& score) {
  score = r.err != d.err ? 0.0f : pair_score(r, d, q);
  return r.err || d.err;
}

}  // namespace vqm::speed
