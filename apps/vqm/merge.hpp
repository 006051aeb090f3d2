// `vqm merge [--xml|--json|--csv] [--pool ...] [--precision ...] [-o OUT] SHARD...`: the report of the
// single run `vqm -r R -d D [options] -o OUT` from the shards of its frames (shard.hpp), byte for byte but
// the fps. Shards come in any order; a gap, an overlap, a shard of another run (inputs, options, models,
// vqm version) or a damaged file is refused with one line naming the file, and nothing is written.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "destinations.hpp"
#include "number_format.hpp"
#include "report.hpp"
#include "shard_file.hpp"
#include "std_streams.hpp"
#include "summary.hpp"
#include "vqm/session.hpp"
#include "vqm/version.hpp"
#include "writers.hpp"

namespace vqm::cli {

struct merge_options {
  std::vector<std::string> shards;
  std::string output, pool, precision = "legacy";
  bool json = false, csv = false, xml = false, sub = false, quiet = false;
};

namespace merge_detail {

// Every shard of `all` is of the run of all.front(): the same vqm, inputs, options, models and series.
inline void check_same_run(const std::vector<shard>& all) {
  const shard& first = all.front();
  for (const auto& s : all) {
    if (s.version != VQM_VERSION_STRING)
      throw error(errc::mismatch, fmt::format("{}: written by vqm {}, this is vqm {} (merge with the vqm that wrote "
                                              "the shards)", s.file, s.version, VQM_VERSION_STRING));
    if (&s == &first) continue;
    for (std::size_t k = 0; k < std::max(s.identity.size(), first.identity.size()); ++k) {
      const auto& a = k < first.identity.size() ? first.identity[k] : s.identity[k];
      const auto it = std::find_if(s.identity.begin(), s.identity.end(), [&](const auto& x) { return x.first == a.first; });
      const auto jt = std::find_if(first.identity.begin(), first.identity.end(), [&](const auto& x) { return x.first == a.first; });
      const std::string mine = it == s.identity.end() ? "none" : it->second;
      const std::string theirs = jt == first.identity.end() ? "none" : jt->second;
      if (mine != theirs)
        throw error(errc::mismatch, fmt::format("{}: another {} than {} ({} vs {}): merge the shards of one run", s.file,
                                                a.first, first.file, mine, theirs));
    }
    if (s.requests != first.requests || !(s.format == first.format) || s.names != first.names)
      throw error(errc::mismatch, fmt::format("{}: other features or format than {}: merge the shards of one run", s.file,
                                              first.file));
  }
}

// The shards sorted by their first frame, covering frames 0 .. the end of the stream once.
inline void check_coverage(std::vector<shard>& all) {
  std::sort(all.begin(), all.end(), [](const shard& a, const shard& b) { return a.begin < b.begin; });
  std::size_t next = 0;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto& s = all[k];
    if (k > 0 && all[k - 1].stream_end)
      throw error(errc::mismatch, fmt::format("{}: frames {}..{} are past the end of the stream ({} ends it at frame {})",
                                              s.file, s.begin, s.end - 1, all[k - 1].file, all[k - 1].end));
    if (s.begin > next)
      throw error(errc::mismatch, fmt::format("{}: no shard has frames {}..{} (a gap before this shard's frame {}): "
                                              "score them with --frame-range {}:{}", s.file, next, s.begin - 1, s.begin,
                                              next, s.begin));
    if (s.begin < next)
      throw error(errc::mismatch, fmt::format("{}: frames {}..{} are also in {} (overlapping shards: give each frame once)",
                                              s.file, s.begin, std::min(next, s.end) - 1, all[k - 1].file));
    next = s.end;
  }
  if (!all.back().stream_end)
    throw error(errc::mismatch, fmt::format("{}: the stream goes on after its frame {} but no shard has the frames "
                                            "from {} (score them with --frame-range {}:N)",
                                            all.back().file, all.back().end - 1, all.back().end, all.back().end));
}

// The single run's report from the sorted shards of one run: rows in frame order, the aggregates from
// their clip states added up (vqm::merge_tables: the metrics' host algorithms, no backend).
[[nodiscard]] inline report merged_report(const std::vector<shard>& all) {
  const shard& first = all.front();
  session_config c;
  for (const auto& r : first.requests) c.features.push_back(parse_feature_request(r));
  const auto opts = std::find_if(first.identity.begin(), first.identity.end(), [](const auto& x) { return x.first == "options"; });
  if (opts != first.identity.end() && opts->second.starts_with("--compat libvmaf")) c.mode = compat::libvmaf;
  std::vector<score_table> parts;
  double seconds = 0.0;
  for (const auto& s : all) {
    score_table& t = parts.emplace_back();
    t.names = s.names;
    for (const auto& f : s.frames) {
      t.frames.push_back(f.index);
      t.rows.push_back(f.values);
    }
    t.first_frame = s.begin;
    t.frames_pushed = s.end - s.begin;
    t.clip_states = s.clip_states;
    seconds += s.seconds;
  }
  return joined_report(merge_tables(parts, c, first.format), first.format, seconds);
}

// The single run's report from shards already read (in any order): checked to be of one run and to hold
// frames 0 .. the stream's end once.
[[nodiscard]] inline report merge_shards(std::vector<shard> all) {
  check_same_run(all);
  check_coverage(all);
  return merged_report(all);
}

// Merges o.shards into o.output (or a summary on stdout); throws on any problem, having written nothing.
inline void run_merge(const merge_options& o) {
  std::vector<named_input> inputs;
  for (const auto& s : o.shards) inputs.push_back({"shard", s});
  const std::vector<std::string> outputs = o.output.empty() ? std::vector<std::string>{} : std::vector{o.output};
  check_destinations(inputs, outputs, outputs.empty());
  std::vector<io::pool_statistic> statistics;
  try {
    if (!o.pool.empty()) statistics = io::parse_pool_statistics(o.pool);
  } catch (const error& e) {
    throw error(e.code(), "--pool " + o.pool + ": " + e.what());
  }
  const auto numbers = number_format::parse(o.precision);
  std::optional<output_file> out;
  if (!o.output.empty()) out.emplace(o.output);  // before the shards are read: an unwritable -o fails at once
  std::vector<shard> all;
  for (const auto& path : o.shards) all.push_back(read_shard(path));
  const std::string backend = all.front().backend;
  report rep = merge_shards(std::move(all));
  rep.statistics = std::move(statistics);
  if (!out) {
    print_summary(rep, numbers, backend);
    return;
  }
  out->commit(write_report(chosen_format(o.json, o.csv, o.sub), rep, numbers));
}

}  // namespace merge_detail

}  // namespace vqm::cli
