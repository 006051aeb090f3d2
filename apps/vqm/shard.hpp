// `--frame-range A:B --shard-out FILE`: score frames [A, B) of the stream (after --frame_skip_*), with the
// frames around them that temporal features read, and write what `vqm merge` needs to give the single
// run's output byte for byte (shard_file.hpp; merge.hpp).
#pragma once

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run.hpp"
#include "shard_file.hpp"
#include "validate.hpp"
#include "vqm/session.hpp"
#include "vqm/version.hpp"

namespace vqm::cli {

// "A:B" -> {A, B}: 0-based frames, B exclusive, A < B.
[[nodiscard]] inline std::pair<std::size_t, std::size_t> parse_frame_range(const std::string& s) {
  const auto colon = s.find(':');
  std::size_t a = 0, b = 0;
  const auto num = [&](std::string_view t, std::size_t& v) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    return !t.empty() && r.ec == std::errc{} && r.ptr == t.data() + t.size();
  };
  if (colon == std::string::npos || !num(std::string_view(s).substr(0, colon), a) ||
      !num(std::string_view(s).substr(colon + 1), b))
    throw error(errc::invalid_argument, "--frame-range " + s + ": expected A:B, frames A to B-1 (e.g. 0:1000)");
  if (a >= b) throw error(errc::invalid_argument, "--frame-range " + s + ": B must be greater than A (frames A to B-1)");
  return {a, b};
}

// --frame-range and --shard-out go together, with one -d and no -o (`vqm merge` writes the output).
inline void check_shard_options(const options& o) {
  if (o.frame_range.empty() && o.shard_out.empty()) return;
  if (o.frame_range.empty() || o.shard_out.empty())
    throw error(errc::invalid_argument, "--frame-range and --shard-out go together: --frame-range A:B --shard-out "
                                        "FILE scores frames A to B-1 into FILE (then vqm merge -o OUT FILE...)");
  if (!o.output.empty())
    throw error(errc::invalid_argument, "--shard-out writes a shard, not a report: drop -o and write the report with "
                                        "vqm merge -o OUT SHARD...");
  if (o.distorted.size() != 1)
    throw error(errc::invalid_argument, "--shard-out takes one -d (shard each distorted in a run of its own)");
  std::vector<named_input> inputs{{"reference", o.reference}, {"distorted", o.distorted.front()}};
  check_destinations(inputs, {o.shard_out}, false);
}

[[nodiscard]] inline std::string request_text(const feature_request& r) {
  std::string s = r.name;
  for (std::size_t k = 0; k < r.options.items().size(); ++k)
    s += (k ? ":" : "=") + r.options.items()[k].first + "=" + r.options.items()[k].second;
  return s;
}

// An input as the merge compares it: its content (size and fingerprint) where it is a regular file, so
// that shards run where the file has another path still merge; its path otherwise.
[[nodiscard]] inline std::string input_identity_text(const std::string& path) {
  auto id = file_fingerprint(path);
  return id.empty() ? path + " (not a regular file)" : id;
}

// A model spec with the fingerprint of the file it names (path=FILE, or a bare FILE).
[[nodiscard]] inline std::string model_identity_text(const std::string& spec) {
  std::string out = spec;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const auto colon = std::min(rest.find(':'), rest.size());
    const auto item = rest.substr(0, colon);
    if (item.starts_with("path=")) out += " (" + input_identity_text(std::string(item.substr(5))) + ")";
    rest.remove_prefix(std::min(colon + 1, rest.size()));
  }
  if (spec.find('=') == std::string::npos && !file_fingerprint(spec).empty()) out += " (" + file_fingerprint(spec) + ")";
  return out;
}

// What every shard of one merge must share (compared item by item, in this order, by `vqm merge`).
[[nodiscard]] inline std::vector<std::pair<std::string, std::string>> shard_identity(const options& o,
                                                                                     const picture_format& f,
                                                                                     const std::string& backend,
                                                                                     const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, std::string>> id;
  id.emplace_back("reference", input_identity_text(o.reference));
  id.emplace_back("distorted", input_identity_text(o.distorted.front()));
  id.emplace_back("format", fmt::format("{} ({} {} {} {} {} {})", describe(f), f.width, f.height, static_cast<int>(f.chroma),
                                        f.bit_depth, static_cast<int>(f.layout), f.msb_shift));
  std::string models;
  if (o.no_prediction) models = "none (--no_prediction)";
  else if (o.models.empty()) models = "version=vmaf_v0.6.1";
  for (const auto& m : o.no_prediction ? std::vector<std::string>{} : o.models)
    models += (models.empty() ? "" : ", ") + model_identity_text(m);
  id.emplace_back("models", models);
  std::string features;
  for (const auto& x : o.features) features += (features.empty() ? "" : ", ") + x;
  id.emplace_back("features", features.empty() ? "none" : features);
  id.emplace_back("options", fmt::format("--compat {} --subsample {} --frame_skip_ref {} --frame_skip_dist {} "
                                         "--frame_cnt {} --scale {} --scale-to {}",
                                         o.compat_mode, o.subsample ? o.subsample : 1, o.frame_skip_ref,
                                         o.frame_skip_dist, o.frame_cnt, o.scale.mode.empty() ? "-" : o.scale.mode,
                                         o.scale.to.empty() ? "-" : o.scale.to));
  id.emplace_back("backend", backend);
  std::string series;
  for (const auto& n : names) series += (series.empty() ? "" : ",") + n;
  id.emplace_back("series", series);
  return id;
}

// Writes the shard of a --frame-range run: `rep` and `part` from run(), atomically (output_file).
inline void write_shard_file(const options& o, const run_settings& s, const report& rep, const shard_part& part,
                             const picture_format& f, const std::string& backend, output_file& out) {
  shard sh;
  sh.version = VQM_VERSION_STRING;
  sh.identity = shard_identity(o, f, backend, rep.names);
  for (const auto& r : feature_requests(session_config{s.cfg.models, s.cfg.features})) sh.requests.push_back(request_text(r));
  sh.format = f;
  sh.backend = backend;
  sh.begin = part.begin;
  sh.end = part.end;
  sh.stream_end = part.stream_end;
  sh.seconds = rep.fps > 0 ? static_cast<double>(rep.frames_read) / rep.fps : 0.0;
  sh.names = rep.names;
  sh.frames = rep.frames;
  sh.clip_states = part.clip_states;
  out.commit(write_shard(sh));
}

}  // namespace vqm::cli
