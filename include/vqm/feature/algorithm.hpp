// What a metric's host algorithm provides, in one place (libvmaf's VmafFeatureExtractor without the pixel
// work): its feature name, the outputs it can write, its option table, whether an input can be measured,
// its output names for given options, and the scores of a frame from the partials its kernel computed.
// Optional members have defaults here: accumulate/aggregate (clip-level values), finish (end-of-stream
// series), temporal (needs every frame), reference_only (one computation serves every distorted).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/feature/options.hpp"
#include "vqm/picture.hpp"

namespace vqm {

// An output a feature can write (libvmaf's provided_features): the name models and the collector use, and
// the name libvmaf prints, to which the options' suffix is appended (SPEC-vmaf A.6). The same for
// features libvmaf has no alias for.
struct feature_output {
  constexpr feature_output(const char* name) noexcept : internal(name), printed(name) {}  // NOLINT: implicit
  constexpr feature_output(std::string_view internal_name, std::string_view printed_name) noexcept
      : internal(internal_name), printed(printed_name) {}
  std::string_view internal;
  std::string_view printed;
};

// The printed collector name of an output under options whose suffix is `suffix`.
[[nodiscard]] inline std::string printed_name(const feature_output& o, std::string_view suffix) {
  std::string s(o.printed);
  s += suffix;
  return s;
}

// The printed names of outputs, in order.
template <std::size_t N>
[[nodiscard]] std::vector<std::string> printed_names(const feature_output (&o)[N], std::string_view suffix = {}) {
  std::vector<std::string> out;
  for (const auto& e : o) out.push_back(printed_name(e, suffix));
  return out;
}

// A named series of per-frame values.
using named_series = std::pair<std::string, std::vector<double>>;
// A clip-level value (libvmaf's aggregate metrics, e.g. apsnr_y).
using named_value = std::pair<std::string, double>;

// The neighbouring frames a temporal feature reads to give frame i the value it has in the whole stream:
// frames i-before .. i+after (fewer at the stream's ends). A shard of frames [a, b) pushes a-before ..
// b+after-1 to a session and reports [a, b) (session_config::first_index, report_begin/end).
struct frame_context {
  std::size_t before = 0, after = 0;
  [[nodiscard]] friend frame_context max(frame_context x, frame_context y) noexcept {
    return {x.before > y.before ? x.before : y.before, x.after > y.after ? x.after : y.after};
  }
};

template <class A>
concept Algorithm = OptionTable<typename A::options> &&
                    std::constructible_from<A, const picture_format&, const typename A::options&, compat> &&
                    requires(const A& a, const typename A::partials_type& p, double* out, const picture_format& f,
                             const typename A::options& o, compat c) {
                      { A::feature_name } -> std::convertible_to<std::string_view>;
                      { A::provided[0] } -> std::convertible_to<const feature_output&>;
                      { A::unsupported(f, o, c) } -> std::same_as<std::string>;
                      { a.names() } -> std::same_as<const std::vector<std::string>&>;
                      a.scores(p, out);
                    };

namespace algorithm {

// Clip-level state: every frame's partials in presentation order, also frames that are not reported when
// the feature is temporal.
template <Algorithm A>
void accumulate(A& a, const typename A::partials_type& p) {
  if constexpr (requires { a.accumulate(p); }) a.accumulate(p);
}
template <Algorithm A>
[[nodiscard]] std::vector<named_value> aggregate(const A& a) {
  if constexpr (requires { a.aggregate(); }) {
    // Shards of a stream merge into the whole's aggregates only through this state.
    static_assert(requires(A& m, std::span<const std::uint64_t> w) {
      { a.clip_state() } -> std::same_as<std::vector<std::uint64_t>>;
      m.set_clip_state(w);
      m.merge_clip_state(w);
    }, "a metric with aggregate() also has clip_state(), set_clip_state() and merge_clip_state()");
    return a.aggregate();
  } else {
    return {};
  }
}
// What aggregate() reads, as 64-bit words (bit patterns of doubles, integer sums): empty for metrics
// without aggregates. set_clip_state(a, {}) is the state before any frame; merge_clip_state adds the
// state of frames that follow those already accumulated (a later shard's).
template <Algorithm A>
[[nodiscard]] std::vector<std::uint64_t> clip_state(const A& a) {
  if constexpr (requires { a.clip_state(); }) return a.clip_state();
  else return {};
}
template <Algorithm A>
void set_clip_state(A& a, std::span<const std::uint64_t> w) {
  if constexpr (requires { a.set_clip_state(w); }) a.set_clip_state(w);
}
template <Algorithm A>
void merge_clip_state(A& a, std::span<const std::uint64_t> w) {
  if constexpr (requires { a.merge_clip_state(w); }) a.merge_clip_state(w);
}
// The frames around each frame that the feature reads (frame_context); none for most.
template <Algorithm A>
[[nodiscard]] frame_context context(const typename A::options& o) {
  if constexpr (requires { A::context(o); }) return A::context(o);
  else return {};
}
// Series written only at the end of the stream (motion2/motion3), one value per accumulated frame from
// frame `first` on. Before the end of the stream, frame i's values are final once frames up to
// i + context().after are accumulated (session's streamed rows); a metric's finish(first) computes the
// tail alone, a finish() without it is cut.
template <Algorithm A>
[[nodiscard]] std::vector<named_series> finish(const A& a, std::size_t first = 0) {
  if constexpr (requires { a.finish(); }) {
    static_assert(requires(const typename A::options& o) { A::context(o); },
                  "a metric with end-of-stream series declares the frames around each frame it reads (context)");
    if constexpr (requires { a.finish(first); }) {
      return a.finish(first);
    } else {
      auto out = a.finish();
      for (auto& s : out) s.second.erase(s.second.begin(), s.second.begin() + static_cast<std::ptrdiff_t>(std::min(first, s.second.size())));
      return out;
    }
  } else {
    return {};
  }
}
// Whether the feature must see every frame, also those --subsample does not report: with options that
// aggregate (psnr's APSNR) or when it writes end-of-stream series.
template <Algorithm A>
[[nodiscard]] bool temporal(const typename A::options& o) {
  if constexpr (requires(const A& a) { a.finish(); }) return true;
  else if constexpr (requires { A::temporal(o); }) return A::temporal(o);
  else return false;
}
// Whether its values depend on the reference alone (multi_session computes it once for every distorted).
template <Algorithm A>
inline constexpr bool reference_only = [] {
  if constexpr (requires { A::reference_only; }) return A::reference_only;
  else return false;
}();

}  // namespace algorithm
}  // namespace vqm
