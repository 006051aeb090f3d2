// The measuring loop, generic over the backend: read frame pairs into a ring of depth + 1 pictures,
// keep `depth` frames in flight in a scorer, collect results in frame order.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "progress.hpp"
#include "report.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/vqm.hpp"

namespace vqm::cli {

struct feature_request {
  std::string name;
  option_map options;
};

struct run_config {
  std::vector<feature_request> features;  // empty: every metric that supports the input
  compat mode = compat::none;
  std::size_t frame_cnt = 0;  // 0: all frames
  std::size_t subsample = 1;
  bool quiet = false;
  bool show_progress = true;
};

// "psnr=enable_mse=true:min_sse=0.5" -> {"psnr", {enable_mse: true, min_sse: 0.5}}
[[nodiscard]] inline feature_request parse_feature(const std::string& text) {
  const auto eq = text.find('=');
  feature_request r{text.substr(0, eq), {}};
  if (r.name.empty()) throw error(errc::invalid_argument, "--feature '" + text + "': missing the feature name");
  if (eq != std::string::npos) r.options = option_map::parse(std::string_view(text).substr(eq + 1));
  return r;
}

template <Backend B>
[[nodiscard]] std::vector<any_metric<B>> make_metrics(const run_config& cfg, const picture_format& f,
                                                      const std::string& ref_path) {
  std::vector<any_metric<B>> out;
  std::vector<std::string> names;
  auto add = [&](any_metric<B> m, const std::string& feature) {
    for (const auto& n : m.names())
      for (const auto& have : names)
        if (n == have)
          throw error(errc::invalid_argument, "--feature " + feature + ": output '" + n +
                                                  "' is already produced by another --feature (give each feature once)");
    names.insert(names.end(), m.names().begin(), m.names().end());
    out.push_back(std::move(m));
  };
  if (cfg.features.empty()) {
    // The default set: every metric, skipping those this input cannot have (said on stderr).
    std::string skipped;
    for (auto name : metric_names) {
      try {
        add(make_metric<B>(name, {}, f, cfg.mode), std::string(name));
      } catch (const error& e) {
        if (e.code() != errc::unsupported_format) throw;
        skipped += fmt::format("\nvqm: note: skipping {}: {}", name, e.what());
      }
    }
    if (!cfg.quiet && !skipped.empty()) fmt::print(stderr, "{}\n", skipped.substr(1));
    if (out.empty()) throw error(errc::unsupported_format, ref_path + ": no metric supports " + describe(f));
    return out;
  }
  for (const auto& req : cfg.features) {
    try {
      add(make_metric<B>(req.name, req.options, f, cfg.mode), req.name);
    } catch (const error& e) {
      if (e.code() != errc::unsupported_format) throw;
      throw error(e.code(), ref_path + " (" + describe(f) + "): " + e.what());
    }
  }
  return out;
}

// Throws errc::mismatch unless both inputs have the same geometry.
inline void check_same_format(const io::frame_source& ref, const io::frame_source& dis) {
  if (!(ref.format() == dis.format()))
    throw error(errc::mismatch, "reference " + ref.path() + " is " + describe(ref.format()) + " but distorted " +
                                    dis.path() + " is " + describe(dis.format()) +
                                    " (both must have the same size, chroma format and bit depth)");
}

template <Backend B>
[[nodiscard]] report run(B& backend, std::size_t depth, const run_config& cfg, io::frame_source& ref,
                         io::frame_source& dis) {
  check_same_format(ref, dis);
  const auto& f = ref.format();
  scorer<B> sc(backend, make_metrics<B>(cfg, f, ref.path()), cfg.mode, depth);
  depth = sc.depth();

  report rep;
  rep.names = sc.names();
  rep.width = f.width;
  rep.height = f.height;

  std::optional<std::size_t> total;
  for (const auto* s : {&ref, &dis})
    if (auto h = s->frame_count_hint()) total = total ? std::min(*total, *h) : *h;
  if (cfg.frame_cnt && total) total = std::min(*total, cfg.frame_cnt);
  progress prog(cfg.show_progress && !cfg.quiet, total);

  // Frames in flight read from these pictures; depth + 1 lets the next frame be read meanwhile.
  std::vector<picture> ring_ref(depth + 1), ring_dis(depth + 1);
  const std::size_t subsample = cfg.subsample ? cfg.subsample : 1;
  auto take = [&](const frame_result& r) {
    if (r.measured) rep.frames.push_back(r);
  };
  try {
    for (std::size_t i = 0; cfg.frame_cnt == 0 || i < cfg.frame_cnt; ++i) {
      auto& pr = ring_ref[i % (depth + 1)];
      auto& pd = ring_dis[i % (depth + 1)];
      const bool have_ref = ref.read(pr);
      const bool have_dis = dis.read(pd);
      if (have_ref != have_dis) {
        auto& longer = have_ref ? ref : dis;
        while (longer.skip()) {
        }
        throw error(errc::mismatch, fmt::format("reference {} has {} frames but distorted {} has {} (frame counts must "
                                                "match; --frame_cnt {} compares the first {})",
                                                ref.path(), ref.frames_read(), dis.path(), dis.frames_read(), i, i));
      }
      if (!have_ref) break;
      if (auto r = sc.push(pr, pd, i % subsample == 0)) take(*r);
      prog.update(i + 1);
    }
    while (auto r = sc.pop()) take(*r);
  } catch (...) {
    // Frames still in flight read from the ring: let them finish before the ring goes away.
    try {
      while (sc.pop()) {
      }
    } catch (...) {
    }
    throw;
  }
  prog.finish();
  rep.frames_read = ref.frames_read();
  if (rep.frames_read == 0) throw error(errc::bad_input, ref.path() + ": no frames to compare (the file has none)");
  rep.aggregate = sc.aggregate();
  const double secs = prog.seconds();
  rep.fps = secs > 0 ? static_cast<double>(rep.frames_read) / secs : 0.0;
  return rep;
}

}  // namespace vqm::cli
