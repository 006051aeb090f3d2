// What every float_adm kernel shares with the host: libvmaf's db2 taps and masking constants, the regions
// of a subband (adm_tools.c's borders), the p-norm and the end of a scale's sum (the root of each band's
// binary32 cube sum plus the noise floor, added h + v + d). The Cpu kernel runs it per scale; the Vulkan
// engine runs it on the band sums the GPU returns (docs/spec-float-features.md, "float_adm").
#pragma once

#include "vqm/metrics/adm.hpp"

namespace vqm::fadm {

// libvmaf's db2 filters: double literals stored as float.
inline constexpr float lo[4] = {static_cast<float>(0.482962913144690), static_cast<float>(0.836516303737469),
                                static_cast<float>(0.224143868041857), static_cast<float>(-0.129409522550921)};
inline constexpr float hi[4] = {static_cast<float>(-0.129409522550921), static_cast<float>(-0.224143868041857),
                                static_cast<float>(0.836516303737469), static_cast<float>(-0.482962913144690)};
inline constexpr double one_by_30 = 0.0333333351;  // FLOAT_ONE_BY_30, a double literal
inline constexpr double one_by_15 = 0.0666666701;  // FLOAT_ONE_BY_15

// Mirror of dwt2_src_indices_filt_s and the masking macros: −t before 0, 2n − 1 − t from n on (the
// start does not repeat the edge sample, the end does).
[[nodiscard]] constexpr int mirror(int t, int n) noexcept { return t < 0 ? -t : (t >= n ? 2 * n - t - 1 : t); }

// The part of a subband the sums cover (border) and the part decoupling and CSF compute (one filter tap
// wider, clamped): adm_tools.c's left/top/right/bottom with border factor 0.1.
struct region {
  int left, top, right, bottom;
};
[[nodiscard]] inline region border(int w, int h) noexcept {
  const int l = static_cast<int>(w * 0.1 - 0.5), t = static_cast<int>(h * 0.1 - 0.5);
  return {l, t, w - l, h - t};
}
[[nodiscard]] inline region border_filt(int w, int h) noexcept {
  int l = static_cast<int>(w * 0.1 - 0.5 - 1), t = static_cast<int>(h * 0.1 - 0.5 - 1);
  int r = w - l + 2, b = h - t + 2;
  if (l < 0) l = 0;
  if (r > w) r = w;
  if (t < 0) t = 0;
  if (b > h) b = h;
  return {l, t, r, b};
}

// The p-norm's power and root: x·x·x and f32(1/3) at p = 3 (libvmaf's fast path), else powf(x, f32(p)) and
// f32(1/p) (libvmaf passes the double p and 1.0f/p, a double, to powf).
struct pnorm {
  double p = 3.0;
  [[nodiscard]] float power(float x) const noexcept {
    return p == 3.0 ? x * x * x : adm_csf::powf(x, static_cast<float>(p));
  }
  [[nodiscard]] float root(float x) const noexcept { return adm_csf::powf(x, static_cast<float>(1.0 / p)); }
};

// noise floor of adm_tools.c's get_noise_constant: powf(f32(w·h·weight), f32(1/p)).
[[nodiscard]] inline float noise(int w, int h, double weight, const pnorm& pn) noexcept {
  return pn.root(static_cast<float>(static_cast<double>(w * h) * weight));
}

// The end of adm_cm_s / adm_csf_den_scale_s: each band's cube sum over region g (rows added top to
// bottom, each row left to right) to its root plus the noise floor, then h + v + d.
[[nodiscard]] inline float scale_total(const float (&acc)[3], const region& g, double nw, const pnorm& pn) noexcept {
  const float n = noise(g.right - g.left, g.bottom - g.top, nw, pn);
  float s[3];
  for (int k = 0; k < 3; ++k) s[k] = pn.root(acc[k]) + n;
  return s[0] + s[1] + s[2];
}

}  // namespace vqm::fadm
