// make_metrics<B>(requests, format): a run-time list of features as libvmaf's CLI builds it. Requests
// whose outputs are the same as an earlier one's share that instance (libvmaf runs one extractor per
// distinct name set); a request whose outputs only partly overlap another's is an error.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "vqm/metric_factory.hpp"
#include "vqm/scorer.hpp"

namespace vqm {

struct feature_request {
  std::string name;  // libvmaf feature name: psnr, float_ssim, adm, vif, motion, ...
  option_map options;
};

// "psnr=enable_mse=true:min_sse=0.5" -> {"psnr", {enable_mse: true, min_sse: 0.5}}
[[nodiscard]] inline feature_request parse_feature_request(std::string_view text) {
  const auto eq = text.find('=');
  feature_request r{std::string(text.substr(0, eq)), {}};
  if (r.name.empty()) throw error(errc::invalid_argument, "feature '" + std::string(text) + "': missing the feature name");
  if (eq != std::string_view::npos) r.options = option_map::parse(text.substr(eq + 1));
  return r;
}

// The output-name suffix a feature's options give (libvmaf's FEATURE_PARAM rule); "" for features whose
// options never rename outputs.
[[nodiscard]] inline std::string feature_suffix(std::string_view name, const option_map& options) {
  std::string out;
  bool found = false;
  registry::all::for_each([&]<class E>() {
    using A = typename E::algorithm;
    if (found || name != A::feature_name) return;
    found = true;
    out = options_suffix(parse_options<typename A::options>(options));
  });
  if (!found) throw error(errc::invalid_argument, "unknown feature '" + std::string(name) + "' (known: " + metric_name_list() + ")");
  return out;
}

// The neighbouring frames the requested features read around each frame (frame_context; none for most).
[[nodiscard]] inline frame_context feature_context(const std::vector<feature_request>& requests) {
  frame_context out;
  for (const auto& req : requests)
    registry::all::for_each([&]<class E>() {
      using A = typename E::algorithm;
      if (req.name == A::feature_name) out = max(out, algorithm::context<A>(parse_options<typename A::options>(req.options)));
    });
  return out;
}

// The aggregates (apsnr_*) of a stream from the clip states of its parts (score_table::clip_states, in
// frame order): what a session of `requests` over the whole stream gives, from the metrics' host
// algorithms alone (no backend: `vqm merge`). Requests share an instance as in make_metrics.
[[nodiscard]] inline std::vector<named_value> merged_aggregates(const std::vector<feature_request>& requests,
                                                                const picture_format& f, compat c,
                                                                std::span<const std::vector<named_state>> parts) {
  std::vector<named_value> out;
  std::vector<std::vector<std::string>> seen;
  for (const auto& req : requests)
    registry::all::for_each([&]<class E>() {
      using A = typename E::algorithm;
      if constexpr (requires(const A& a) { a.aggregate(); }) {
        if (req.name != A::feature_name) return;
        A a(f, parse_options<typename A::options>(req.options), c);
        if (std::find(seen.begin(), seen.end(), a.names()) != seen.end()) return;
        seen.push_back(a.names());
        for (const auto& states : parts)
          for (const auto& [name, words] : states)
            if (name == a.names().front()) a.merge_clip_state(words);
        const auto v = a.aggregate();
        out.insert(out.end(), v.begin(), v.end());
      }
    });
  return out;
}

template <Backend B>
[[nodiscard]] std::vector<any_metric<B>> make_metrics(const std::vector<feature_request>& requests,
                                                      const picture_format& f, compat c = compat::none) {
  std::vector<any_metric<B>> out;
  for (const auto& req : requests) {
    auto m = make_metric<B>(req.name, req.options, f, c);
    bool shared = false;
    for (const auto& have : out) {
      if (have.names() == m.names()) {
        shared = true;
        break;
      }
      for (const auto& n : m.names())
        for (const auto& h : have.names())
          if (n == h)
            throw error(errc::invalid_argument, "feature " + req.name + ": output '" + n +
                                                    "' is also produced by another feature request with other options");
    }
    if (!shared) out.push_back(std::move(m));
  }
  return out;
}

}  // namespace vqm
