// Integer motion, feature "motion" (SPEC-vmaf Part A): libvmaf's VMAF_integer_feature_motion_sad_score
// per frame, and integer_motion2 / integer_motion3 for every frame at the end of the stream. The backend
// computes the integer SAD between reference lumas; the score and the flush run here, in double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/motion_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// Options of A.2, named, typed, bounded and defaulted as libvmaf's.
struct motion_options {
  static constexpr const char* feature = "motion";
  bool motion_force_zero = false;
  double motion_blend_factor = 1.0;
  double motion_blend_offset = 40.0;
  double motion_fps_weight = 1.0;
  double motion_max_val = 10000.0;
  bool motion_five_frame_window = false;
  bool motion_moving_average = false;
  bool debug = false;

  static constexpr auto table() {
    using o = motion_options;
    return std::tuple{
        flag("motion_force_zero", &o::motion_force_zero, "every score 0 (nothing computed)", "force_0"),
        number("motion_blend_factor", &o::motion_blend_factor, 0.0, 1.0, "motion3: weight of motion2", "mbf"),
        number("motion_blend_offset", &o::motion_blend_offset, 0.0, 1000.0, "motion3: cap of the blended part", "mbo"),
        number("motion_fps_weight", &o::motion_fps_weight, 0.0, 5.0, "factor on every sad score", "mfw"),
        number("motion_max_val", &o::motion_max_val, 0.0, 10000.0, "cap of every score", "mmxv"),
        flag("motion_five_frame_window", &o::motion_five_frame_window, "compare frames i-2 and i", "mffw"),
        flag("motion_moving_average", &o::motion_moving_average, "motion3: mean with the previous frame's", "mma"),
        flag("debug", &o::debug, "also integer_motion"),
    };
  }
};

class motion_algorithm {
 public:
  using partials_type = motion_partials;
  using options = motion_options;
  static constexpr const char* feature_name = options::feature;
  // Per frame: the sad score (and integer_motion with debug); at the end of the stream: motion2, motion3.
  static constexpr feature_output provided[] = {"VMAF_integer_feature_motion_sad_score",
                                                {"VMAF_integer_feature_motion_score", "integer_motion"},
                                                {"VMAF_integer_feature_motion2_score", "integer_motion2"},
                                                {"VMAF_integer_feature_motion3_score", "integer_motion3"}};
  // Its values depend on the reference frames alone: multi_session computes it once for every distorted.
  static constexpr bool reference_only = true;

  // Empty when libvmaf's integer motion is defined for this input (A.3), else why not and what to do.
  [[nodiscard]] static std::string unsupported(const picture_format& f, const options&, compat = compat::none) {
    if (f.bit_depth < 8 || f.bit_depth > 16)
      return "motion supports 8 to 16-bit input, not " + std::to_string(f.bit_depth) + "-bit";
    if (f.width < 3 || f.height < 3)
      return "motion needs at least 3x3 luma samples (libvmaf reads outside the picture below that), the input is " +
             std::to_string(f.width) + "x" + std::to_string(f.height) + " (use a larger input)";
    return {};
  }

  explicit motion_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f), opt_(o) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_.five_frame_window = o.motion_five_frame_window;
    suffix_ = options_suffix(o);
    names_.push_back(printed_name(provided[0], suffix_));
    if (o.debug) names_.push_back(printed_name(provided[1], suffix_));
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const motion_request& request() const noexcept { return request_; }
  [[nodiscard]] const options& opts() const noexcept { return opt_; }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }
  // Frame i's values read the sad scores of i-2w .. i+1 (w = 1, or 2 with the five-frame window): the
  // sad of j compares frames j-w and j, motion2 takes the next frame's sad (and frame i-1's with the
  // window), motion3's moving average the previous frame's motion2; the first frames' motion3 is the sad
  // of frame w.
  [[nodiscard]] static frame_context context(const options& o) noexcept {
    const std::size_t w = o.motion_five_frame_window ? 2 : 1;
    return {2 * w, w};
  }
  // The first frame with a score: 1, or 2 with the five-frame window.
  [[nodiscard]] std::size_t min_index() const noexcept { return opt_.motion_five_frame_window ? 2 : 1; }

  // A.3 step 5: the sad score of one frame (0 before the window and with motion_force_zero).
  [[nodiscard]] double score(const partials_type& p) const noexcept {
    if (!p.computed || opt_.motion_force_zero) return 0.0;
    double s = static_cast<double>(p.sad) / 256.0;
    s = s / static_cast<double>(static_cast<std::uint32_t>(format_.width * format_.height));
    s = s * opt_.motion_fps_weight;
    return s < opt_.motion_max_val ? s : opt_.motion_max_val;
  }

  void scores(const partials_type& p, double* out) const noexcept {
    const double s = score(p);
    out[0] = s;
    if (opt_.debug) out[1] = s;
  }

  // Every frame, in presentation order (also frames that are not reported).
  void accumulate(const partials_type& p) { sad_.push_back(score(p)); }
  [[nodiscard]] const std::vector<double>& sad_scores() const noexcept { return sad_; }

  // A.4: integer_motion2 and integer_motion3 (with the suffix) for the accumulated frames first..n-1
  // (a session streaming its rows asks for the last few; see context()).
  [[nodiscard]] std::vector<named_series> finish(std::size_t first = 0) const {
    auto [m2, m3] = flush(sad_, opt_, first);
    std::vector<named_series> out;
    out.emplace_back(printed_name(provided[2], suffix_), std::move(m2));
    out.emplace_back(printed_name(provided[3], suffix_), std::move(m3));
    return out;
  }

  // A.4 on a list of sad scores: {motion2, motion3} of frames first..n-1. Frame i reads sad i-1 .. i+1, the
  // stamp sad[min_idx] and motion3's previous p (frame i-1's, recomputed here), so a tail equals the same
  // frames of the whole list.
  [[nodiscard]] static std::pair<std::vector<double>, std::vector<double>> flush(const std::vector<double>& sad,
                                                                                  const options& o, std::size_t first = 0) {
    const std::size_t min_idx = o.motion_five_frame_window ? 2 : 1;
    const std::size_t stride = o.motion_five_frame_window ? 2 : 1;
    const double f = o.motion_blend_factor, off = o.motion_blend_offset, mx = o.motion_max_val;
    const auto mn = [](double a, double b) { return a < b ? a : b; };
    const auto blend = [&](double x) {
      const double t1 = x * f;
      const double t2 = 1 - f;
      const double t3 = mn(off, x);
      return t1 + t2 * t3;
    };
    const std::size_t n = sad.size();
    const double stamp = n > min_idx ? mn(blend(sad[min_idx]), mx) : 0.0;
    first = first < n ? first : n;
    std::vector<double> m2(n - first), m3(n - first);
    double prev = 0.0;
    for (std::size_t i = first > 0 ? first - 1 : 0; i < n; ++i) {
      double a = 0.0;
      if (i < min_idx) {
        a = 0.0;
      } else if (i + 1 >= n) {
        a = sad[i];
      } else {
        const std::size_t lo = i - (stride - 1);
        a = lo >= min_idx ? (sad[lo] < sad[i + 1] ? sad[lo] : sad[i + 1]) : sad[i + 1];
      }
      const bool out = i >= first;  // frame first-1 only gives prev
      if (out) m2[i - first] = a;
      if (i < min_idx) {
        if (out) m3[i - first] = stamp;
        prev = stamp;
      } else {
        const double p = mn(blend(a), mx);
        if (out) m3[i - first] = o.motion_moving_average ? (p + prev) / 2.0 : p;
        prev = p;
      }
    }
    return {std::move(m2), std::move(m3)};
  }

 private:
  picture_format format_;
  options opt_;
  motion_request request_;
  std::string suffix_;
  std::vector<std::string> names_;
  std::vector<double> sad_;
};

template <class B>
  requires MotionKernel<B>
class Motion : public motion_algorithm {
 public:
  using motion_algorithm::motion_algorithm;

  // The number of frames the backend may run at once; the history ring holds slots + 2 frames.
  void reserve_slots(std::size_t slots) { ring_ = slots + 2; }

  void enqueue(B& b, typename B::frame& f, partials_type& out) {
    if (opts().motion_force_zero) return;  // libvmaf computes nothing; every score is 0
    if (!state_) state_.emplace(b.make_motion_state(format(), ring_));
    b.motion(f, *state_, request(), out);
  }

 private:
  std::size_t ring_ = 4;
  std::optional<typename B::motion_state> state_;
};

}  // namespace vqm
