// float_motion (libvmaf's float_motion.c): the reference luma as floats (float_psnr's picture less 128),
// blurred with libvmaf's 5-tap float filter (y then x, mirrored edges), and the mean absolute difference
// of consecutive blurred frames, summed in float row by row as libvmaf does. Per frame "motion" (debug,
// on by default); at the end of the stream motion2 (the smaller of a frame's and the next frame's value)
// and motion3 (motion2 blended and capped). docs/spec-float-features.md, "## float_motion".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The kernel's result for frame i >= 1: libvmaf's float SAD sum of the blurred lumas of frames i-1 and i
// (rows summed in float, each row's sum added in float). computed == false for frame 0.
struct float_motion_partials {
  float sad = 0.0f;
  bool computed = false;
};

// The backend keeps the reference history in its float_motion_state (the same temporal ring as motion's).
template <class B>
concept FloatMotionKernel =
    Backend<B> && requires(B& b, typename B::frame& f, typename B::float_motion_state& s, float_motion_partials& out,
                           const picture_format& fmt, std::size_t ring) {
      { b.make_float_motion_state(fmt, ring) } -> std::same_as<typename B::float_motion_state>;
      b.float_motion(f, s, out);
    };

// libvmaf 3.2's options of float_motion, named, typed, bounded and defaulted as its table.
struct float_motion_options {
  static constexpr const char* feature = "float_motion";
  bool debug = true;
  bool motion_force_zero = false;
  double motion_fps_weight = 1.0;
  double motion_blend_factor = 1.0;
  double motion_blend_offset = 40.0;
  bool motion_add_scale1 = false;
  int motion_filter_size = 5;
  bool motion_add_uv = false;
  double motion_max_val = 10000.0;

  static constexpr auto table() {
    using o = float_motion_options;
    return std::tuple{
        flag("debug", &o::debug, "also motion (the per-frame score)"),
        flag("motion_force_zero", &o::motion_force_zero, "every score 0 (nothing computed)", "force_0"),
        number("motion_fps_weight", &o::motion_fps_weight, 0.0, 5.0, "factor on every score", "mfw"),
        number("motion_blend_factor", &o::motion_blend_factor, 0.0, 1.0, "motion3: weight of motion2", "mbf"),
        number("motion_blend_offset", &o::motion_blend_offset, 0.0, 1000.0, "motion3: cap of the blended part", "mbo"),
        flag("motion_add_scale1", &o::motion_add_scale1, "add a half-resolution term (not implemented)", "mdc"),
        number("motion_filter_size", &o::motion_filter_size, 0, 9, "blur taps: 1 and 3 are not implemented", "mfs"),
        flag("motion_add_uv", &o::motion_add_uv, "add the chroma terms (not implemented)", "mau"),
        number("motion_max_val", &o::motion_max_val, 0.0, 10000.0, "cap of every score", "mmxv"),
    };
  }
};

class float_motion_algorithm {
 public:
  using partials_type = float_motion_partials;
  using options = float_motion_options;
  static constexpr const char* feature_name = options::feature;
  // In libvmaf's column order. Per frame: motion (with debug); at the end of the stream: motion2, motion3.
  static constexpr feature_output provided[] = {{"VMAF_feature_motion2_score", "motion2"},
                                                {"VMAF_feature_motion_score", "motion"},
                                                {"VMAF_feature_motion3_score", "motion3"}};
  static constexpr bool reference_only = true;

  // Empty when libvmaf's float_motion is defined for this input and vqm implements the options.
  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    const auto b = f.bit_depth;
    // libvmaf's picture_copy converts 10, 12 and 16 bits; other depths above 8 read the samples as bytes.
    if (b != 8 && b != 10 && b != 12 && b != 16)
      return "float_motion supports 8, 10, 12 and 16-bit input, not " + std::to_string(b) + "-bit";
    if (f.width < 3 || f.height < 3)
      return "float_motion needs at least 3x3 luma samples (libvmaf's blur reads outside the picture below "
             "that), the input is " + std::to_string(f.width) + "x" + std::to_string(f.height) +
             " (use a larger input)";
    if (o.motion_add_scale1 || o.motion_add_uv || o.motion_filter_size == 1 || o.motion_filter_size == 3)
      return "float_motion: vqm does not implement motion_add_scale1, motion_add_uv or motion_filter_size 1 "
             "and 3 (use the defaults)";
    return {};
  }

  explicit float_motion_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    samples_ = static_cast<float>(static_cast<int>(f.width * f.height));  // libvmaf: accum / (w * h), in float
    suffix_ = options_suffix(o);
    // motion2 is an end-of-stream series; listed here (0 until finish() fills it) for libvmaf's order:
    // motion2, motion, motion3.
    names_.push_back(printed_name(provided[0], suffix_));
    if (o.debug) names_.push_back(printed_name(provided[1], suffix_));
  }

  // Frame i's motion compares frames i-1 and i; motion2 and motion3 take the min with frame i+1's (frame
  // 0's motion3 is frame 1's).
  [[nodiscard]] static frame_context context(const options&) noexcept { return {1, 1}; }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const options& opts() const noexcept { return opt_; }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

  // libvmaf's score of frame i: f32(sad / f32(w·h)) as a double (0 for frame 0 and with motion_force_zero).
  [[nodiscard]] double mean(const partials_type& p) const noexcept {
    if (!p.computed || opt_.motion_force_zero) return 0.0;
    return static_cast<double>(p.sad / samples_);
  }
  // MIN(score * motion_fps_weight, motion_max_val).
  [[nodiscard]] double weighted(double s) const noexcept {
    const double v = s * opt_.motion_fps_weight;
    return v < opt_.motion_max_val ? v : opt_.motion_max_val;
  }
  // MIN(motion_blend(score * motion_fps_weight, factor, offset), motion_max_val).
  [[nodiscard]] double blended(double s) const noexcept {
    const double x = s * opt_.motion_fps_weight, f = opt_.motion_blend_factor, off = opt_.motion_blend_offset;
    const double v = x * f + (1 - f) * (off < x ? off : x);
    return v < opt_.motion_max_val ? v : opt_.motion_max_val;
  }

  void scores(const partials_type& p, double* out) const noexcept {
    out[0] = 0.0;  // motion2: finish() fills it
    if (opt_.debug) out[1] = p.computed ? weighted(mean(p)) : 0.0;
  }

  // Every frame, in presentation order.
  void accumulate(const partials_type& p) { means_.push_back(mean(p)); }

  // motion2 and motion3 (with the suffix) for the accumulated frames first..n-1, as libvmaf writes them from
  // extract (frame i-1 when frame i arrives) and flush (the last frame).
  [[nodiscard]] std::vector<named_series> finish(std::size_t first = 0) const {
    const std::size_t n = means_.size();
    first = first < n ? first : n;
    std::vector<double> m2(n - first, 0.0), m3(n - first, 0.0);
    if (!opt_.motion_force_zero && n > 1) {
      if (first == 0) m3[0] = blended(means_[1]);
      for (std::size_t i = first > 1 ? first : 1; i + 1 < n; ++i) {
        const double s = means_[i] < means_[i + 1] ? means_[i] : means_[i + 1];
        m2[i - first] = weighted(s);
        m3[i - first] = blended(s);
      }
      if (n - 1 >= first) {
        m2[n - 1 - first] = weighted(means_[n - 1]);
        m3[n - 1 - first] = blended(means_[n - 1]);
      }
    }
    std::vector<named_series> out;
    out.emplace_back(printed_name(provided[0], suffix_), std::move(m2));
    out.emplace_back(printed_name(provided[2], suffix_), std::move(m3));
    return out;
  }

 private:
  picture_format format_;
  options opt_;
  float samples_ = 1.0f;
  std::string suffix_;
  std::vector<std::string> names_;
  std::vector<double> means_;
};

template <class B>
  requires FloatMotionKernel<B>
class FloatMotion : public float_motion_algorithm {
 public:
  using float_motion_algorithm::float_motion_algorithm;

  // The number of frames the backend may run at once; the history ring holds slots + 2 frames.
  void reserve_slots(std::size_t slots) { ring_ = slots + 2; }

  void enqueue(B& b, typename B::frame& f, partials_type& out) {
    if (opts().motion_force_zero) return;  // libvmaf computes nothing; every score is 0
    if (!state_) state_.emplace(b.make_float_motion_state(format(), ring_));
    b.float_motion(f, *state_, out);
  }

 private:
  std::size_t ring_ = 4;
  std::optional<typename B::float_motion_state> state_;
};

}  // namespace vqm
