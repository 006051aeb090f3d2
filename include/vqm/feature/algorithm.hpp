// What a metric's host algorithm provides, in one place (libvmaf's VmafFeatureExtractor without the pixel
// work): its feature name, the outputs it can write, its option table, whether an input can be measured,
// its output names for given options, and the scores of a frame from the partials its kernel computed.
// Optional members have defaults here: accumulate/aggregate (clip-level values), finish (end-of-stream
// series), temporal (needs every frame), reference_only (one computation serves every distorted).
#pragma once

#include <concepts>
#include <cstddef>
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
  if constexpr (requires { a.aggregate(); }) return a.aggregate();
  else return {};
}
// Series written only at the end of the stream (motion2/motion3), one value per accumulated frame.
template <Algorithm A>
[[nodiscard]] std::vector<named_series> finish(const A& a) {
  if constexpr (requires { a.finish(); }) return a.finish();
  else return {};
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
