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
#include "vqm/session.hpp"
#include "vqm/vqm.hpp"

namespace vqm::cli {

struct run_config {
  std::vector<vmaf::model> models;        // predicted after the features (libvmaf's --model)
  std::vector<feature_request> features;  // --feature, after the models' own features
  compat mode = compat::none;
  std::size_t frame_cnt = 0;  // 0: all frames
  std::size_t subsample = 1;
  bool quiet = false;
  bool show_progress = true;
};

// "psnr=enable_mse=true:min_sse=0.5" -> {"psnr", {enable_mse: true, min_sse: 0.5}}
[[nodiscard]] inline feature_request parse_feature(const std::string& text) {
  try {
    return parse_feature_request(text);
  } catch (const error& e) {
    throw error(e.code(), std::string("--feature ") + e.what());
  }
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
  if (cfg.models.empty() && cfg.features.empty())
    throw error(errc::invalid_argument, "nothing to compute: --no_prediction without --feature (add a --feature, or "
                                        "drop --no_prediction to get VMAF)");
  const std::size_t subsample = cfg.subsample ? cfg.subsample : 1;
  std::optional<session<B>> sc;
  try {
    sc.emplace(backend, f, session_config{cfg.models, cfg.features, cfg.mode, depth, subsample});
  } catch (const error& e) {
    if (e.code() != errc::unsupported_format) throw;
    throw error(e.code(), ref.path() + " (" + describe(f) + "): " + e.what());
  }
  depth = sc->depth();

  report rep;
  rep.width = f.width;
  rep.height = f.height;

  std::optional<std::size_t> total;
  for (const auto* s : {&ref, &dis})
    if (auto h = s->frame_count_hint()) total = total ? std::min(*total, *h) : *h;
  if (cfg.frame_cnt && total) total = std::min(*total, cfg.frame_cnt);
  progress prog(cfg.show_progress && !cfg.quiet, total);

  // Frames in flight read from these pictures; depth + 1 lets the next frame be read meanwhile.
  std::vector<picture> ring_ref(depth + 1), ring_dis(depth + 1);
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
        // --frame_cnt 0 means all frames: suggest it only for a count that limits something.
        const auto hint = i > 0 ? fmt::format("; --frame_cnt {} compares the first {}", i, i) : std::string();
        throw error(errc::mismatch, fmt::format("reference {} has {} frames but distorted {} has {} (frame counts must "
                                                "match{})",
                                                ref.path(), ref.frames_read(), dis.path(), dis.frames_read(), hint));
      }
      if (!have_ref) break;
      sc->push(pr, pd);
      prog.update(i + 1);
    }
    sc->drain();
  } catch (...) {
    // Frames still in flight read from the ring: let them finish before the ring goes away.
    try {
      sc->drain();
    } catch (...) {
    }
    throw;
  }
  prog.finish();
  rep.frames_read = ref.frames_read();
  if (rep.frames_read == 0) throw error(errc::bad_input, ref.path() + ": no frames to compare (the file has none)");
  auto table = sc->finish();
  rep.names = std::move(table.names);
  for (std::size_t r = 0; r < table.rows.size(); ++r) rep.frames.push_back({table.frames[r], true, std::move(table.rows[r])});
  rep.aggregate = std::move(table.aggregate);
  const double secs = prog.seconds();
  rep.fps = secs > 0 ? static_cast<double>(rep.frames_read) / secs : 0.0;
  return rep;
}

}  // namespace vqm::cli
