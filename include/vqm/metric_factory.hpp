// make_metric<B>(name, options, format): libvmaf feature names to metric objects at run time, from the
// registry (vqm/registry.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "vqm/any_metric.hpp"
#include "vqm/registry.hpp"

namespace vqm {

namespace detail {
template <class B>
[[nodiscard]] std::string backend_name() {
  if constexpr (requires { B::name; }) return "the " + std::string(B::name) + " backend";
  else return "this backend";
}}  // namespace detail

// Whether feature `name` can run on backend B at all (its kernel concept is modelled).
template <class B>
[[nodiscard]] bool runs_on(std::string_view name) {
  bool yes = false;
  registry::all::for_each([&]<class E>() {
    if (name == E::algorithm::feature_name) yes = E::template runs_on<B>;
  });
  return yes;
}

template <Backend B>
[[nodiscard]] any_metric<B> make_metric(std::string_view name, const option_map& opt, const picture_format& f,
                                        compat c = compat::none) {
  std::optional<any_metric<B>> out;
  registry::all::for_each([&]<class E>() {
    using A = typename E::algorithm;
    if (out || name != A::feature_name) return;
    const auto o = parse_options<typename A::options>(opt);
    if constexpr (E::template runs_on<B>) {
      out.emplace(typename E::template metric<B>(f, o, c), algorithm::temporal<A>(o));
    } else {
      throw error(errc::unsupported_format,
                  detail::backend_name<B>() + " does not implement " + A::feature_name);
    }
  });
  if (!out)
    throw error(errc::invalid_argument, "unknown feature '" + std::string(name) + "' (known: " + metric_name_list() + ")");
  return std::move(*out);
}

}  // namespace vqm
