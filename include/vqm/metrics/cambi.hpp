// cambi (libvmaf's cambi.c): banding visibility of the distorted luma (and, with full_ref, of the
// reference), SPEC-vmaf-v1 Part A. The host settles the stream's constants once (TVI table, visibility
// threshold, windows, A.2–A.4) into the request; the kernel scores a luma (10-bit conversion, mask, five
// scales of mode filter, c-values and top-k pooling, A.5–A.10); the clipping and the difference run here.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The stream's constants the kernel needs (A.2–A.4), settled by the host.
struct cambi_request {
  std::array<std::uint16_t, 32> tvi{};  // T[d] = tvi_for_diff(d + 1) + num_diffs (the "adjusted" domain)
  std::uint16_t vlt_luma = 0;            // the first visible 10-bit code (0: every code)
  std::uint16_t num_diffs = 4;
  std::uint16_t window = 0, src_window = 0;  // odd window side for the distorted, the reference
  std::uint32_t enc_width = 0, enc_height = 0, src_width = 0, src_height = 0;
  std::uint32_t enc_bit_depth = 0;  // below 10: the anti-dithering filter runs (A.5)
  double topk = 0.6;
  bool high_res = false;  // hrs in effect: decimate once before scale 0
  bool full_ref = false;
};

// The unclipped scores of a frame: distorted and (with full_ref) reference.
struct cambi_partials {
  double dis = 0.0;
  double src = 0.0;
};

template <class B>
concept CambiKernel = Backend<B> && requires(B& b, typename B::frame& f, const cambi_request& q,
                                             cambi_partials& out) { b.cambi(f, q, out); };

namespace cambi_model {

inline constexpr int foot = 64, head = 940;  // 10-bit limited range, the model's domain
inline constexpr int min_side = 216;         // libvmaf refuses an encode (or source) below it in both sides
inline constexpr int lut_size = 4226;        // libvmaf's reciprocal table: window² must stay below it

// Luminance (cd/m²) of a 10-bit code under BT.1886 (300 cd/m², black 0.01, γ 2.4) or PQ, in double (A.3).
[[nodiscard]] inline double luminance(int sample, bool pq) {
  const double v = static_cast<double>(std::clamp(sample, foot, head) - foot) / (head - foot);
  if (pq) {
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = std::max(std::pow(v, 1.0 / m2) - c1, 0.0);
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000 * std::pow(num / den, 1.0 / m1);
  }
  const double g = 1.0 / 2.4;
  const double a = std::pow(std::pow(300.0, g) - std::pow(0.01, g), 2.4);
  const double b = std::pow(0.01, g) / (std::pow(300.0, g) - std::pow(0.01, g));
  const double x = v + b;
  return a * std::pow(x > 0 ? x : 0.0, 2.4);
}

// Whether contrast `diff` at `sample` is visible (strict, in double).
[[nodiscard]] inline bool tvi_condition(int sample, int diff, double threshold, bool pq) {
  const double mean = luminance(sample, pq);
  return luminance(sample + diff, pq) - mean > threshold * mean;
}

// The largest code at which contrast `diff` is still invisible, by libvmaf's bisection taken literally (it
// does not need the condition to be monotone).
[[nodiscard]] inline int tvi_for_diff(int diff, double threshold, bool pq) {
  enum class bisect { too_small, correct, too_big };
  const auto classify = [&](int s) {
    if (!tvi_condition(s, diff, threshold, pq)) return bisect::too_big;
    if (tvi_condition(s + 1, diff, threshold, pq)) return bisect::too_small;
    return bisect::correct;
  };
  int lo = foot, hi = head - diff - 1;
  auto r = classify(lo);
  if (r == bisect::too_big) return 0;
  if (r == bisect::correct) return lo;
  r = classify(hi);
  if (r == bisect::too_small) return 1023;
  if (r == bisect::correct) return hi;
  for (;;) {
    const int mid = lo + (hi - lo) / 2;
    r = classify(mid);
    if (r == bisect::correct) return mid;
    (r == bisect::too_big ? hi : lo) = mid;
  }
}

// The first code from `foot` up whose luminance reaches `threshold`; 0 when that is `foot` itself.
[[nodiscard]] inline int visible_luma(double threshold, bool pq) {
  int s = foot;
  while (luminance(s, pq) < threshold) ++s;
  return s == foot ? 0 : s;
}

// The window side at an encode of w × h (A.4): scaled from 4K's, halved with hrs, odd.
[[nodiscard]] inline int window(int size, std::uint32_t w, std::uint32_t h, bool high_res) {
  int ws = static_cast<int>((static_cast<std::uint32_t>(size) * (w + h)) / 375) >> 4;
  if (high_res) ws = (ws + 1) >> 1;
  return ws | 1;
}

// The smallest side over the five scales (the last one's), with hrs's extra decimation.
[[nodiscard]] inline std::uint32_t last_scale_side(std::uint32_t side, bool high_res) {
  for (int s = high_res ? 0 : 1; s < 5; ++s) side = (side + 1) >> 1;
  return side;
}


// libvmaf's reciprocal table: 1/i written with 9 significant digits, read back as binary32 (42 entries are
// not 1.0f/i: A.8). Every kernel's c-values read it.
[[nodiscard]] inline const std::array<float, lut_size>& reciprocals() {
  static const auto lut = [] {
    std::array<float, lut_size> t{};
    char buf[32];
    for (int i = 1; i < lut_size; ++i) {
      std::snprintf(buf, sizeof buf, "%.9g", 1.0 / i);
      t[static_cast<std::size_t>(i)] = static_cast<float>(std::strtod(buf, nullptr));
    }
    return t;
  }();
  return lut;
}

inline constexpr int contrast_weights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                             8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
inline constexpr int scale_weights[5] = {16, 8, 4, 2, 1};

// A.5 step 2, libvmaf's nearest-sample resize: binary32 ratio and positions (accumulated), the index
// rounded in double; out[i] is the input index of output position i.
inline void nearest_indices(std::uint32_t in, std::uint32_t n, std::vector<std::uint32_t>& out) {
  out.resize(n);
  const float r = static_cast<float>(in) / static_cast<float>(n);
  float f = static_cast<float>(static_cast<double>(r / 2) - 0.5);
  for (std::uint32_t i = 0; i < n; ++i, f += r) out[i] = static_cast<std::uint32_t>(static_cast<int>(static_cast<double>(f) + 0.5));
}

// A.9: the mean of the k largest c-values, summed in double in the order libvmaf's quickselect (Wirth's,
// descending, in place) leaves them. Order-sensitive, so every backend pools its c-values here.
[[nodiscard]] inline double top_k_mean(float* a, int n, double topk) {
  const int k = std::clamp(static_cast<int>(topk * n), 1, n);
  if (k != n) {
    int left = 0, right = n - 1;
    while (left < right) {
      const float pivot = a[k];
      int i = left, j = right;
      do {
        while (a[i] > pivot) ++i;
        while (a[j] < pivot) --j;
        if (i <= j) {
          std::swap(a[i], a[j]);
          ++i;
          --j;
        }
      } while (i <= j);
      if (j < k) left = i;
      if (k < i) right = j;
    }
  }
  double sum = 0.0;
  for (int i = 0; i < k; ++i) sum += static_cast<double>(a[i]);
  return sum / k;
}

// A.10: the running sum of the scales' weighted means, then its division by the window's area (uint16).
[[nodiscard]] inline double add_scale(double sum, int scale, double mean) {
  return sum + mean * scale_weights[scale];
}
[[nodiscard]] inline double pooled(double sum, int window) {
  return sum / static_cast<double>(static_cast<std::uint16_t>(window * window));
}

}  // namespace cambi_model

// libvmaf 3.2's options (A.1), named, bounded and defaulted as there. topk and eotf are feature parameters
// without an alias: they name themselves in the suffix (cambi_eotf_pq).
struct cambi_options {
  static constexpr const char* feature = "cambi";
  static constexpr std::string_view eotfs[] = {"bt1886", "pq"};
  double cambi_max_val = 1000.0;
  int enc_width = 0, enc_height = 0, enc_bitdepth = 0;
  int src_width = 0, src_height = 0;
  int window_size = 65;
  double topk = 0.6, cambi_topk = 0.6;
  double tvi_threshold = 0.019;
  double cambi_vis_lum_threshold = 0.0;
  int max_log_contrast = 2;
  std::string heatmaps_path;
  bool full_ref = false;
  std::string eotf = "bt1886", cambi_eotf = "bt1886";
  int cambi_high_res_speedup = 0;

  static constexpr auto table() {
    using o = cambi_options;
    return std::tuple{
        number("cambi_max_val", &o::cambi_max_val, 0.0, 1000.0, "upper clip of the scores", "cmxv"),
        number("enc_width", &o::enc_width, 180, 7680, "encoding width (0: the input's)", "encw"),
        number("enc_height", &o::enc_height, 150, 7680, "encoding height (0: the input's)", "ench"),
        number("enc_bitdepth", &o::enc_bitdepth, 6, 16, "encoding bit depth; below 10 anti-dithers", "encbd"),
        number("src_width", &o::src_width, 320, 7680, "source width (full_ref; 0: the input's)", "srcw"),
        number("src_height", &o::src_height, 200, 4320, "source height (full_ref; 0: the input's)", "srch"),
        number("window_size", &o::window_size, 15, 127, "window side at 4K (scaled to the encode)", "ws"),
        number("topk", &o::topk, 0.0001, 1.0, "pooled fraction (legacy; wins when not 0.6)", "topk"),
        number("cambi_topk", &o::cambi_topk, 0.0001, 1.0, "pooled fraction of the largest c-values", "ctpk"),
        number("tvi_threshold", &o::tvi_threshold, 0.0001, 1.0, "visibility threshold dL/L", "tvit"),
        number("cambi_vis_lum_threshold", &o::cambi_vis_lum_threshold, 0.0, 300.0,
               "luminance (cd/m2) below which banding is invisible", "vlt"),
        number("max_log_contrast", &o::max_log_contrast, 0, 5, "contrasts up to 2^this 10-bit codes", "mlc"),
        text("heatmaps_path", &o::heatmaps_path, {}, "libvmaf's heat-map dump (not implemented: refused)"),
        flag("full_ref", &o::full_ref, "also cambi_source and cambi_full_reference"),
        text("eotf", &o::eotf, eotfs, "transfer function of the luminance model", "eotf"),
        text("cambi_eotf", &o::cambi_eotf, eotfs, "transfer function (wins when not bt1886)", "ceot"),
        number("cambi_high_res_speedup", &o::cambi_high_res_speedup, 0, 2160,
               "1080/1440/2160: halve an encode at least that large first", "hrs"),
    };
  }
};

class cambi_algorithm {
 public:
  using partials_type = cambi_partials;
  using options = cambi_options;
  static constexpr const char* feature_name = options::feature;
  // cambi_source and cambi_full_reference are not libvmaf "provided features": no suffix.
  static constexpr feature_output provided[] = {
      {"Cambi_feature_cambi_score", "cambi"}, "cambi_source", "cambi_full_reference"};

  // The encode and source sizes libvmaf settles from the options (A.2 step 1).
  struct geometry {
    std::uint32_t enc_w, enc_h, src_w, src_h;
    bool high_res;
    int window, src_window;
  };
  [[nodiscard]] static geometry settle(const picture_format& f, const options& o) {
    geometry g{f.width, f.height, f.width, f.height, false, 0, 0};
    if (o.enc_width != 0 && o.enc_height != 0) {
      g.enc_w = static_cast<std::uint32_t>(o.enc_width);
      g.enc_h = static_cast<std::uint32_t>(o.enc_height);
    }
    if (o.src_width != 0 && o.src_height != 0) {
      g.src_w = static_cast<std::uint32_t>(o.src_width);
      g.src_h = static_cast<std::uint32_t>(o.src_height);
    }
    if (g.enc_w > f.width || g.enc_h > f.height) g.enc_w = f.width, g.enc_h = f.height;  // never upscale
    const std::uint64_t area = std::uint64_t{g.enc_w} * g.enc_h;
    const int hrs = o.cambi_high_res_speedup;
    g.high_res = (hrs == 1080 && area >= 1920u * 1080u) || (hrs == 1440 && area >= 2560u * 1440u) ||
                 (hrs == 2160 && area >= 3840u * 2160u);
    g.window = cambi_model::window(o.window_size, g.enc_w, g.enc_h, g.high_res);
    g.src_window = cambi_model::window(o.window_size, g.src_w, g.src_h, g.high_res);
    return g;
  }

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (f.bit_depth < 8 || f.bit_depth > 16)
      return "cambi supports 8 to 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (!o.heatmaps_path.empty())
      return "cambi: heatmaps_path (libvmaf's debug heat-map dump) is not implemented in vqm; leave it out";
    const auto g = settle(f, o);
    const auto size = [](std::uint32_t w, std::uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); };
    const auto min = static_cast<std::uint32_t>(cambi_model::min_side);
    if (g.enc_w < min && g.enc_h < min)
      return "cambi needs at least 216 luma samples in width or height (libvmaf refuses smaller encodes); the "
             "encode is " + size(g.enc_w, g.enc_h) + " (use a larger input)";
    if (g.src_w < min && g.src_h < min)
      return "cambi needs src_width or src_height of at least 216 (libvmaf refuses smaller sources); the source is " +
             size(g.src_w, g.src_h);
    if ((g.src_w > g.enc_w && g.src_h < g.enc_h) || (g.src_w < g.enc_w && g.src_h > g.enc_h))
      return "cambi: the source (" + size(g.src_w, g.src_h) + ") must not be wider and shorter, or narrower and "
             "taller, than the encode (" + size(g.enc_w, g.enc_h) + "), as in libvmaf";
    if (const int w = std::max(g.window, g.src_window); w * w >= cambi_model::lut_size)
      return "cambi: window_size " + std::to_string(o.window_size) + " gives a " + std::to_string(w) +
             "-sample window at this size, above libvmaf's limit of 65 (use a smaller window_size)";
    // libvmaf's sliding histograms assume every scale is at least half a window in both sides; below that it
    // reads memory outside the picture and its values are undefined.
    const auto check = [&](std::uint32_t w, std::uint32_t h, int window, const char* what) -> std::string {
      const auto pad = static_cast<std::uint32_t>(window >> 1);
      const auto sw = cambi_model::last_scale_side(w, g.high_res), sh = cambi_model::last_scale_side(h, g.high_res);
      if (sw >= pad && sh >= pad) return {};
      return std::string("cambi: the ") + what + " " + size(w, h) + " is too elongated: its smallest scale (" +
             size(sw, sh) + ") is below half the " + std::to_string(window) +
             "-sample window, where libvmaf reads outside the picture (its values are undefined there)";
    };
    if (auto why = check(g.enc_w, g.enc_h, g.window, "encode"); !why.empty()) return why;
    if (o.full_ref) return check(g.src_w, g.src_h, g.src_window, "source");
    return {};
  }

  explicit cambi_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none) : opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    const auto g = settle(f, o);
    const bool pq = (o.cambi_eotf != "bt1886" ? o.cambi_eotf : o.eotf) == "pq";
    const int diffs = 1 << o.max_log_contrast;
    request_.num_diffs = static_cast<std::uint16_t>(diffs);
    for (int d = 0; d < diffs; ++d)
      request_.tvi[static_cast<std::size_t>(d)] =
          static_cast<std::uint16_t>(cambi_model::tvi_for_diff(d + 1, o.tvi_threshold, pq) + diffs);
    request_.vlt_luma = static_cast<std::uint16_t>(cambi_model::visible_luma(o.cambi_vis_lum_threshold, pq));
    request_.window = static_cast<std::uint16_t>(g.window);
    request_.src_window = static_cast<std::uint16_t>(g.src_window);
    request_.enc_width = g.enc_w;
    request_.enc_height = g.enc_h;
    request_.src_width = g.src_w;
    request_.src_height = g.src_h;
    request_.enc_bit_depth = o.enc_bitdepth != 0 ? static_cast<std::uint32_t>(o.enc_bitdepth) : f.bit_depth;
    request_.topk = o.topk != 0.6 ? o.topk : o.cambi_topk;
    request_.high_res = g.high_res;
    request_.full_ref = o.full_ref;
    // The suffix comes from the options as given: an hrs reset for a small input keeps its name (§1.1).
    names_.push_back(printed_name(provided[0], options_suffix(o)));
    if (o.full_ref) names_.insert(names_.end(), {"cambi_source", "cambi_full_reference"});
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const cambi_request& request() const noexcept { return request_; }

  // A.11: each score clipped to cambi_max_val; the difference from the unclipped scores.
  void scores(const partials_type& p, double* out) const noexcept {
    const double mx = opt_.cambi_max_val;
    out[0] = std::min(p.dis, mx);
    if (!opt_.full_ref) return;
    out[1] = std::min(p.src, mx);
    out[2] = std::min(std::max(0.0, p.dis - p.src), mx);
  }

 private:
  options opt_;
  cambi_request request_;
  std::vector<std::string> names_;
};

template <class B>
  requires CambiKernel<B>
class Cambi : public cambi_algorithm {
 public:
  using cambi_algorithm::cambi_algorithm;
  void enqueue(B& b, typename B::frame& f, partials_type& out) const { b.cambi(f, request(), out); }
};

}  // namespace vqm
