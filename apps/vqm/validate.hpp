// The options checked before anything is opened or measured, in the order of their messages: the inputs
// and outputs named, then the settings of the measurement (features, models, pooling, precision, threads).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checks.hpp"
#include "destinations.hpp"
#include "number_format.hpp"
#include "options.hpp"
#include "run.hpp"
#include "std_streams.hpp"
#include "vqm/io/pooling.hpp"
#include "vqm/output/series_order.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "writers.hpp"

namespace vqm::cli {

// The inputs are given, each -d has its -o (or none has), and no output is an input or another output.
inline void check_arguments(const options& o) {
  if (o.reference.empty() || o.distorted.empty() ||
      std::any_of(o.distorted.begin(), o.distorted.end(), [](const std::string& d) { return d.empty(); }))
    throw error(errc::invalid_argument, "give the inputs with -r/--reference and -d/--distorted (see --help)");
  const std::size_t n = o.distorted.size();
  // One reference, many distorted: one -o per -d, in order, or none (a summary of each on stdout).
  if (!o.output.empty() && o.output.size() != n)
    throw error(errc::invalid_argument,
                fmt::format("{} -d/--distorted but {} -o/--output: give one -o per -d, paired in order (-d a.y4m -o "
                            "a.xml -d b.y4m -o b.xml), or no -o for a summary of each distorted on stdout",
                            n, o.output.size()));
  // By identity, not spelling: no output is an input, no two outputs are one file.
  std::vector<named_input> inputs{{"reference", o.reference}};
  for (const auto& d : o.distorted) inputs.push_back({"distorted", d});
  check_destinations(inputs, o.output, o.output.empty());
}

// What the run measures and how its reports are written.
struct run_settings {
  run_config cfg;
  std::vector<io::pool_statistic> statistics;  // --pool; empty for libvmaf's four
  number_format numbers;
  output_format format = output_format::xml;
  std::vector<std::string> series_first;  // the series libvmaf's outputs list first (output/series_order.hpp)
};

// The settings from the options; throws naming the flag whose value is refused.
[[nodiscard]] inline run_settings make_settings(const options& o, const note_printer& note) {
  run_settings s;
  run_config& cfg = s.cfg;
  for (std::size_t k = 0; k < o.features.size(); ++k) {
    // libvmaf computes a feature given twice once; vqm does too, and says so.
    if (std::find(o.features.begin(), o.features.begin() + static_cast<std::ptrdiff_t>(k), o.features[k]) !=
        o.features.begin() + static_cast<std::ptrdiff_t>(k)) {
      note("--feature " + o.features[k] + " is given twice; it is computed once (as libvmaf does)");
      continue;
    }
    cfg.features.push_back(parse_feature(o.features[k]));
  }
  // libvmaf's default: vmaf_v0.6.1 unless --no_prediction or a --model is given.
  if (o.models.empty() && !o.no_prediction) cfg.models.push_back(vmaf::builtin_model("vmaf_v0.6.1"));
  if (!o.no_prediction)
    for (const auto& m : o.models) cfg.models.push_back(vmaf::load_model(m));
  cfg.mode = o.compat_mode == "libvmaf" ? compat::libvmaf : compat::none;
  cfg.frame_cnt = o.frame_cnt;
  cfg.frame_skip_ref = o.frame_skip_ref;
  cfg.frame_skip_dist = o.frame_skip_dist;
  if (!o.pool.empty()) {
    try {
      s.statistics = io::parse_pool_statistics(o.pool);
    } catch (const error& e) {
      throw error(e.code(), "--pool " + o.pool + ": " + e.what());
    }
  }
  cfg.subsample = o.subsample ? o.subsample : 1;
  cfg.quiet = o.quiet;
  s.numbers = number_format::parse(o.precision);
  s.format = chosen_format(o.json, o.csv, o.sub);
  // libvmaf's order follows its own --threads, 0 unless given (vqm's default of 1 is not libvmaf's).
  s.series_first = output::threaded_first_series(cfg.features, o.threads_given ? o.threads : 0);
  check_threads(o.threads);
  return s;
}

// Standard input is one stream: at most one input may read it.
inline void check_stdin_uses(const options& o) {
  const auto stdin_uses = std::count(o.distorted.begin(), o.distorted.end(), std::string("-"));
  if (o.reference == "-" && stdin_uses > 0)
    throw error(errc::invalid_argument, "-r - and -d - both name standard input; give one of them as a file, a "
                                        "named pipe or a process substitution such as <(ffmpeg ... -f yuv4mpegpipe -)");
  if (stdin_uses > 1)
    throw error(errc::invalid_argument, "-d - names standard input more than once; give the others as files, named "
                                        "pipes or process substitutions such as <(ffmpeg ... -f yuv4mpegpipe -)");
}

}  // namespace vqm::cli
