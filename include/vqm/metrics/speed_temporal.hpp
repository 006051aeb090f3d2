// speed_temporal (libvmaf's speed.c, vmaf_fex_speed_temporal; SPEC-vmaf-v1 §B.13): SpEED of the frame
// differences of the luma, previous minus current, reference against distorted (or against the
// reference's with speed_use_ref_diff); 0 for the first frame; weight mode 0 and no cap (libvmaf takes
// speed_max_val but never applies it).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/concepts/backend.hpp"
#include "vqm/error.hpp"
#include "vqm/feature/algorithm.hpp"
#include "vqm/metrics/speed.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// The binary32 score of frame i >= 1 (computed == false for frame 0).
struct speed_temporal_partials {
  float score = 0.0f;
  bool computed = false;
};

// The backend keeps both lumas' history in its speed_temporal_state.
template <class B>
concept SpeedTemporalKernel =
    Backend<B> && requires(B& b, typename B::frame& f, typename B::speed_temporal_state& s, const speed_request& q,
                           speed_temporal_partials& out, const picture_format& fmt, std::size_t ring) {
      { b.make_speed_temporal_state(fmt, ring) } -> std::same_as<typename B::speed_temporal_state>;
      b.speed_temporal(f, s, q, out);
    };

// libvmaf 3.2's options of speed_temporal, named, typed, bounded and defaulted as its table.
struct speed_temporal_options {
  static constexpr const char* feature = "speed_temporal";
  double speed_kernelscale = 1.0;
  double speed_prescale = 1.0;
  std::string speed_prescale_method = "nearest";
  double speed_sigma_nn = 0.29;
  double speed_nn_floor = 0.0;
  double speed_max_val = 1000.0;
  bool speed_use_ref_diff = false;

  static constexpr auto table() {
    using o = speed_temporal_options;
    return std::tuple_cat(
        speed::common_table<o>(),
        std::tuple{number("speed_max_val", &o::speed_max_val, 0.0, 1000.0, "taken but not applied (as libvmaf)", "mxv"),
                   flag("speed_use_ref_diff", &o::speed_use_ref_diff,
                        "the distorted difference is previous distorted minus current reference", "urd")});
  }
};

class speed_temporal_algorithm {
 public:
  using partials_type = speed_temporal_partials;
  using options = speed_temporal_options;
  static constexpr const char* feature_name = options::feature;
  static constexpr feature_output provided[] = {{"Speed_temporal_feature_speed_temporal_score", "speed_temporal"}};

  // libvmaf flags the extractor temporal: every frame feeds the next one's difference.
  [[nodiscard]] static bool temporal(const options&) noexcept { return true; }
  // Frame i's difference is frame i-1 minus frame i.
  [[nodiscard]] static frame_context context(const options&) noexcept { return {1, 0}; }

  [[nodiscard]] static std::string unsupported(const picture_format& f, const options& o, compat = compat::none) {
    if (auto why = speed::unsupported(feature_name, f, f.width, f.height, "luma", o); !why.empty()) return why;
    // libvmaf holds the frames in buffers of the original height; a larger prescaled plane overflows them.
    if (speed::scaled(f.width, o.speed_prescale) > f.width || speed::scaled(f.height, o.speed_prescale) > f.height)
      return "speed_temporal supports a speed_prescale that does not enlarge the frame (libvmaf writes the larger "
             "plane past its frame buffers), not " + detail::format_g(o.speed_prescale) + " (use at most 1)";
    return {};
  }

  explicit speed_temporal_algorithm(const picture_format& f, const options& o = {}, compat c = compat::none)
      : format_(f) {
    if (auto why = unsupported(f, o, c); !why.empty()) throw error(errc::unsupported_format, why);
    request_ = speed::request(f.width, f.height, o);
    request_.use_ref_diff = o.speed_use_ref_diff;
    names_ = printed_names(provided, options_suffix(o));
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] const speed_request& request() const noexcept { return request_; }
  [[nodiscard]] const picture_format& format() const noexcept { return format_; }

  void scores(const partials_type& p, double* out) const noexcept {
    out[0] = p.computed ? static_cast<double>(p.score) : 0.0;
  }

 private:
  picture_format format_;
  speed_request request_;
  std::vector<std::string> names_;
};

template <class B>
  requires SpeedTemporalKernel<B>
class SpeedTemporal : public speed_temporal_algorithm {
 public:
  using speed_temporal_algorithm::speed_temporal_algorithm;

  // The number of frames the backend may run at once; the history ring holds slots + 2 frames.
  void reserve_slots(std::size_t slots) { ring_ = slots + 2; }

  void enqueue(B& b, typename B::frame& f, partials_type& out) {
    if (!state_) state_.emplace(b.make_speed_temporal_state(format(), ring_));
    b.speed_temporal(f, *state_, request(), out);
  }

 private:
  std::size_t ring_ = 4;
  std::optional<typename B::speed_temporal_state> state_;
};

}  // namespace vqm
