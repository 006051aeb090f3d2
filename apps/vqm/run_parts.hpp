// One pair on several devices in contiguous parts (--devices with one -d, inputs that seek: regular Y4M and
// raw files; docs/multi-gpu.md). The frames are counted (each file's frame headers, seeking past the
// samples), cut into one part per device, and each device scores its part as a --frame-range shard would:
// inputs of its own opened again and started at the part's context by seeking, its frames read in place
// into that device's host pictures, its own reading threads. The parts' tables are joined by
// vqm::merge_tables, the code of `vqm merge`: the output equals one device's run by the shards' construction.
//
// Several distorted (run_in_groups): the distorted in contiguous groups, one per device, each group a run
// of its own on its device's thread (the reference read once per device), so every device reads in place
// into its own host pictures instead of one thread uploading every group's frames device after device.
//
// Why not blocks from one read (run_devices.hpp, the way for pipes and containers, or --device-block):
// a frame read once into host memory must then be copied into each device's staging memory, and the ring
// that keeps every device fed holds devices x block frames; on 2160p that read and copy cost more than the
// devices gain (docs/multi-gpu.md, measurements).
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "count_frames.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run.hpp"
#include "std_streams.hpp"
#include "vqm/session.hpp"

namespace vqm::cli {

// Runs fn(0) .. fn(n - 1) on a thread each and waits for them all; then rethrows the lowest k's exception
// (a single device's run would have met the first part's, the first group's error first).
template <class F>
void on_threads(std::size_t n, F&& fn) {
  std::vector<std::exception_ptr> failures(n);
  {
    std::vector<std::jthread> threads;
    threads.reserve(n);
    for (std::size_t k = 0; k < n; ++k)
      threads.emplace_back([&, k] {
        try {
          fn(k);
        } catch (...) {
          failures[k] = std::current_exception();
        }
      });
  }  // joined
  for (auto& f : failures)
    if (f) std::rethrow_exception(f);
}

// The report of `vqm -r ref -d dis` over `backends` in contiguous parts, or nothing where parts do not
// apply (an input that cannot seek, counts that differ, no frames): the caller then reads once, in blocks,
// which also gives the one-device run's errors. `in`: the inputs as opened, used by the first part.
template <Backend B>
[[nodiscard]] std::optional<report> run_in_parts(std::span<B* const> backends, std::size_t depth, const options& o,
                                                 const run_config& cfg, opened_inputs& in) {
  if (in.dis.size() != 1 || !in.ref->skips_by_seeking() || !in.dis.front()->skips_by_seeking()) return std::nullopt;
  const note_printer silent{true};  // the first opening said what there was to say
  std::size_t total = 0;
  try {
    auto counted = open_inputs(o, in.raw, silent);
    total = count_frames(o, counted);
  } catch (const error&) {
    return std::nullopt;
  }
  if (total == 0) return std::nullopt;
  const std::size_t parts = std::min(backends.size(), total);

  std::vector<opened_inputs> more;  // parts 1.. read inputs of their own
  for (std::size_t k = 1; k < parts; ++k) more.push_back(open_inputs(o, in.raw, silent));
  std::vector<std::vector<report>> reports(parts);
  std::vector<shard_part> shards(parts);
  const auto start = std::chrono::steady_clock::now();
  on_threads(parts, [&](std::size_t k) {
    opened_inputs& mine = k ? more[k - 1] : in;
    run_config c = cfg;
    c.range = std::pair{total * k / parts, total * (k + 1) / parts};
    c.show_progress = false;  // D progress lines would interleave
    const auto dis = mine.distorted();
    reports[k] = run(*backends[k], depth, c, *mine.ref, std::span<io::frame_source* const>(dis), &shards[k]);
  });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const session_config sc_cfg{cfg.models, cfg.features, cfg.mode, depth, cfg.subsample ? cfg.subsample : 1};
  std::vector<score_table> tables;
  for (std::size_t k = 0; k < parts; ++k) {
    report& r = reports[k].front();
    score_table& t = tables.emplace_back();
    t.names = std::move(r.names);
    for (auto& row : r.frames) {
      t.frames.push_back(row.index);
      t.rows.push_back(std::move(row.values));
    }
    t.first_frame = shards[k].begin;
    t.frames_pushed = shards[k].end - shards[k].begin;
    t.clip_states = std::move(shards[k].clip_states);
  }
  return joined_report(merge_tables(tables, sc_cfg, in.ref->format()), in.ref->format(), secs);
}

// The reports of `vqm -r ref -d a -d b ...` over `backends`, the distorted in contiguous groups (distorted
// k on device k * D / N), or nothing where an input is not a regular file to open again (the caller then
// spreads one multi_session). Each report equals the one-device run's; fps: the whole pass, in each.
template <Backend B>
[[nodiscard]] std::optional<std::vector<report>> run_in_groups(std::span<B* const> backends, std::size_t depth,
                                                               const options& o, const run_config& cfg,
                                                               opened_inputs& in) {
  const std::size_t n = in.dis.size(), groups = std::min(backends.size(), n);
  if (n < 2 || groups < 2 || !in.ref->skips_by_seeking()) return std::nullopt;
  for (const auto& d : in.dis)
    if (!d->skips_by_seeking()) return std::nullopt;
  const note_printer silent{true};
  std::vector<opened_inputs> more;  // groups 1.. read inputs of their own (each its own distorted only)
  for (std::size_t g = 1; g < groups; ++g) more.push_back(open_inputs(o, in.raw, silent));
  const auto first_of = [&](std::size_t g) { return (g * n + groups - 1) / groups; };  // k * groups / n == g
  std::vector<std::vector<report>> reports(groups);
  const auto start = std::chrono::steady_clock::now();
  on_threads(groups, [&](std::size_t g) {
    opened_inputs& mine = g ? more[g - 1] : in;
    std::vector<io::frame_source*> dis;
    for (std::size_t k = first_of(g); k < first_of(g + 1); ++k) dis.push_back(mine.dis[k].get());
    run_config c = cfg;
    c.show_progress = false;
    reports[g] = run(*backends[g], depth, c, *mine.ref, std::span<io::frame_source* const>(dis));
  });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<report> out;
  for (auto& g : reports)
    for (auto& r : g) {
      r.fps = secs > 0 ? static_cast<double>(r.frames_read) / secs : 0.0;
      out.push_back(std::move(r));
    }
  return out;
}

}  // namespace vqm::cli
