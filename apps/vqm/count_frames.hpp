// `vqm --count-frames -r R -d D [the run's other flags]`: prints the number of frames the run scores (after
// --frame_skip_*, at most --frame_cnt), the count a scheduler cuts into --frame-range shards (docs/scale.md).
// Inputs are passed over as a run passes over skipped frames: a regular Y4M or raw file by seeking (a Y4M
// frame header read a frame), an FFmpeg input by decoding it whole. Counts that differ are the run's error.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "inputs.hpp"
#include "options.hpp"
#include "run.hpp"
#include "std_streams.hpp"

namespace vqm::cli {

// --count-frames prints a number: no report, shard or range goes with it.
inline void check_count_options(const options& o) {
  if (!o.count_frames) return;
  if (!o.output.empty() || !o.shard_out.empty() || !o.frame_range.empty())
    throw error(errc::invalid_argument, "--count-frames prints the number of frames a run scores: drop -o, "
                                        "--frame-range and --shard-out (then run the shards with them)");
}

// The frames a run of `in` scores: each input's frames after its skip, equal for all, capped by --frame_cnt.
[[nodiscard]] inline std::size_t count_frames(const options& o, opened_inputs& in) {
  detail::skip_frames(*in.ref, o.frame_skip_ref, "reference", "--frame_skip_ref");
  for (auto& d : in.dis) detail::skip_frames(*d, o.frame_skip_dist, "distorted", "--frame_skip_dist");
  std::size_t n = 0;
  while (in.ref->skip()) ++n;
  for (auto& d : in.dis) {
    std::size_t m = 0;
    while (d->skip()) ++m;
    if (o.frame_cnt ? std::min(m, o.frame_cnt) != std::min(n, o.frame_cnt) : m != n)  // the run reads no further
      throw error(errc::mismatch, fmt::format("reference {} has {} but distorted {} has {} (frame counts must match)",
                                              in.ref->path(), detail::frames_left(n, o.frame_skip_ref, "--frame_skip_ref"),
                                              d->path(), detail::frames_left(m, o.frame_skip_dist, "--frame_skip_dist")));
  }
  return o.frame_cnt ? std::min(n, o.frame_cnt) : n;
}

}  // namespace vqm::cli
