// One pair on several devices (--devices with one -d; docs/multi-gpu.md): the stream cut into blocks of
// `block` frames, block j scored by device j % D in a session of its own on that device's backend, with the
// frames around it that temporal features read pushed as context and not reported (a --frame-range shard's
// session_config: first_index, report_begin, report_end), and the blocks' tables merged in frame order by
// vqm::merge_tables, the code `vqm merge` uses: every value and the output equal one device's run by the
// shards' construction.
//
// One read: read_ahead reads both inputs once, into a ring of `window` frames the blocks share (a frame of a
// block's context goes to two devices); each device has a thread and a queue of the frames its blocks take.
// The reader waits (the ring is the bound on memory) until every device is done with the frame it would
// overwrite: a device holds a frame while it is queued and until its session has pushed depth() more.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "progress.hpp"
#include "read_ahead.hpp"
#include "report.hpp"
#include "run.hpp"
#include "vqm/session.hpp"

namespace vqm::cli {

inline constexpr std::size_t default_device_block = 64;

namespace devices_detail {

inline constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

struct item {
  std::size_t index = 0, block = 0;  // the frame's stream index (after the skips) and the block it goes to
  picture_view ref, dis;
};

// A device's thread: its blocks' sessions one after another, the tables of those that report a frame. A
// block's frames wait in its own queue: with a context longer than the other devices' blocks, a frame
// belongs to two blocks of this device, and the later block starts when the earlier one has ended.
template <Backend B>
struct worker {
  B* backend = nullptr;
  std::map<std::size_t, std::deque<item>> queues;  // by block; the first is the block being scored
  std::deque<std::size_t> held;  // frames its session may still read (the last depth() pushed)
  bool end = false;
  std::map<std::size_t, score_table> tables;  // by block
  std::thread thread;
  // The oldest frame it still needs (called with the scheduler's mutex held).
  [[nodiscard]] std::size_t oldest() const {
    std::size_t o = held.empty() ? none : held.front();
    for (const auto& [j, q] : queues)
      if (!q.empty()) o = std::min(o, q.front().index);
    return o;
  }
};

template <Backend B>
class scheduler {
 public:
  scheduler(std::span<B* const> backends, const picture_format& f, const session_config& base, std::size_t block)
      : f_(f), base_(base), block_(block), ctx_(session<B>::context(base)), workers_(backends.size()) {
    for (std::size_t k = 0; k < workers_.size(); ++k) workers_[k].backend = backends[k];
    try {
      for (auto& w : workers_) w.thread = std::thread([this, &w] { work(w); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~scheduler() { stop(); }
  scheduler(const scheduler&) = delete;
  scheduler& operator=(const scheduler&) = delete;

  // Frames a device may hold besides the blocks queued: its session's depth (a Vulkan device's slots).
  [[nodiscard]] std::size_t window() const noexcept {
    return workers_.size() * block_ + block_ / 2 + ctx_.before + ctx_.after + 8;
  }

  // Frame `i` (views valid until release(i) returns true for a later frame) to every block that reads it.
  void put(std::size_t i, const picture_view& ref, const picture_view& dis) {
    const std::size_t lo = i >= ctx_.after ? (i - ctx_.after) / block_ : 0;  // the first block whose frames reach i
    const std::size_t hi = (i + ctx_.before) / block_;                     // the last
    std::lock_guard lock(mutex_);
    rethrow();
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t begin = j * block_ > ctx_.before ? j * block_ - ctx_.before : 0;
      if (i < begin || i >= (j + 1) * block_ + ctx_.after) continue;
      workers_[j % workers_.size()].queues[j].push_back({i, j, ref, dis});
    }
    work_.notify_all();
  }

  // Waits until no device needs frames below `i` (their ring slots may then be read into again).
  void release_below(std::size_t i) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] {
      if (failure_) return true;
      for (const auto& w : workers_)
        if (w.oldest() < i) return false;
      return true;
    });
    rethrow();
  }

  // Ends the stream: every block's session finishes; the tables of the blocks that report frames, in order.
  [[nodiscard]] std::vector<score_table> finish() {
    {
      std::lock_guard lock(mutex_);
      for (auto& w : workers_) w.end = true;
    }
    work_.notify_all();
    join();
    rethrow();
    std::vector<score_table> out;
    std::map<std::size_t, score_table> all;
    for (auto& w : workers_) all.merge(w.tables);
    for (auto& [j, t] : all) out.push_back(std::move(t));
    return out;
  }

  // After an error of the caller: the devices drain what they hold and stop.
  void stop() noexcept {
    {
      std::lock_guard lock(mutex_);
      aborted_ = true;
      for (auto& w : workers_) w.end = true;
    }
    work_.notify_all();
    join();
  }

 private:
  void join() noexcept {
    for (auto& w : workers_)
      if (w.thread.joinable()) w.thread.join();
  }
  void rethrow() {  // mutex_ held, or the threads joined
    if (failure_) std::rethrow_exception(failure_);
  }

  void work(worker<B>& w) {
    std::optional<session<B>> s;  // the current block's
    std::size_t reported = 0;
    // Ends the first block: its table kept when it reports a frame (and `keep`), its frames released.
    const auto close = [&](bool keep) {
      std::size_t j = none;
      {
        std::lock_guard lock(mutex_);
        if (!w.queues.empty()) j = w.queues.begin()->first;
      }
      std::optional<score_table> t;
      if (s && keep && reported) t = s->finish();
      else if (s) s->drain();
      s.reset();
      std::lock_guard lock(mutex_);
      if (t) w.tables.emplace(j, std::move(*t));
      if (j != none) w.queues.erase(j);
      w.held.clear();
      done_.notify_all();
    };
    try {
      for (;;) {
        item it;
        {
          std::unique_lock lock(mutex_);
          work_.wait(lock, [&] { return aborted_ || w.end || (!w.queues.empty() && !w.queues.begin()->second.empty()); });
          if (aborted_ || (w.queues.empty() && w.end)) break;
          if (w.queues.begin()->second.empty()) {  // the stream ended before the block's last frame
            lock.unlock();
            close(true);
            continue;
          }
          it = w.queues.begin()->second.front();
        }
        const std::size_t begin = it.block * block_, end = begin + block_;
        if (!s) {
          session_config c = base_;
          c.first_index = it.index;
          c.report_begin = begin;
          c.report_end = end;
          s.emplace(*w.backend, f_, c);
          reported = 0;
        }
        s->push(it.ref, it.dis);
        reported += it.index >= begin && it.index < end;
        {
          std::lock_guard lock(mutex_);
          w.queues.begin()->second.pop_front();
          w.held.push_back(it.index);
          while (w.held.size() > s->depth()) w.held.pop_front();
          done_.notify_all();
        }
        if (it.index + 1 == end + ctx_.after) close(true);  // the block's last frame
      }
      if (s) close(false);  // aborted
    } catch (...) {
      try {
        if (s) s->drain();  // frames in flight read the ring: let them finish first
      } catch (...) {
      }
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      aborted_ = true;
      w.queues.clear();
      w.held.clear();
      done_.notify_all();
      work_.notify_all();
    }
  }

  const picture_format f_;
  const session_config base_;
  const std::size_t block_;
  const frame_context ctx_;
  std::vector<worker<B>> workers_;  // sized once (the threads refer to them)
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::exception_ptr failure_;
  bool aborted_ = false;
};

}  // namespace devices_detail

// The report of `vqm -r ref -d dis` on several backends (one per device), frames in blocks of `block`.
// `depth`: the frames in flight of each block's session.
template <Backend B>
[[nodiscard]] report run_on_devices(std::span<B* const> backends, std::size_t depth, std::size_t block,
                                    const run_config& cfg, io::frame_source& ref, io::frame_source& dis) {
  check_same_format(ref, dis);
  const auto& f = ref.format();
  if (cfg.models.empty() && cfg.features.empty())
    throw error(errc::invalid_argument, "nothing to compute: --no_prediction without --feature (add a --feature, or "
                                        "drop --no_prediction to get VMAF)");
  const session_config sc_cfg{cfg.models, cfg.features, cfg.mode, depth, cfg.subsample ? cfg.subsample : 1};
  try {
    session<B> probe(*backends.front(), f, sc_cfg);  // a format or model error before any thread starts
  } catch (const error& e) {
    if (e.code() != errc::unsupported_format) throw;
    throw error(e.code(), ref.path() + " (" + describe(f) + "): " + e.what());
  }
  const std::size_t skip_ref = cfg.frame_skip_ref, skip_dis = cfg.frame_skip_dist;
  std::optional<std::size_t> total;
  for (auto [s, skip] : {std::pair{&ref, skip_ref}, std::pair{&dis, skip_dis}})
    if (auto h = s->frame_count_hint()) {
      const std::size_t left = *h > skip ? *h - skip : 0;
      total = total ? std::min(*total, left) : left;
    }
  if (cfg.frame_cnt && total) total = std::min(*total, cfg.frame_cnt);
  progress prog(cfg.show_progress && !cfg.quiet, total);
  detail::skip_frames(ref, skip_ref, "reference", "--frame_skip_ref");
  detail::skip_frames(dis, skip_dis, "distorted", "--frame_skip_dist");

  devices_detail::scheduler<B> sched(backends, f, sc_cfg, block);
  io::frame_source* const d[] = {&dis};
  const std::span<io::frame_source* const> dspan(d);
  const std::size_t window = sched.window();
  read_ahead input(ref, dspan, window, read_ahead::default_ahead, cfg.frame_cnt);
  std::size_t i = 0;
  std::vector<score_table> parts;
  try {
    picture_view pr, pd;
    while (true) {
      // The next call hands out frame i and frees the slot of frame i - window - 1 for reading.
      if (i > window) sched.release_below(i - window);
      if (!input.next(pr, std::span<picture_view>(&pd, 1))) break;
      sched.put(i, pr, pd);
      prog.update(++i);
    }
    if (input.ended_first() != read_ahead::input::none) detail::throw_count_mismatch(ref, dspan, skip_ref, skip_dis, i);
    parts = sched.finish();
  } catch (...) {
    sched.stop();  // frames in flight read the ring: the devices are done with it before it goes away
    throw;
  }
  prog.finish();
  const std::size_t frames_read = ref.frames_read() - skip_ref;
  if (frames_read == 0 || parts.empty())
    throw error(errc::bad_input, skip_ref || skip_dis
                                     ? fmt::format("{}: no frames to compare after skipping {} (the file has {})",
                                                   ref.path(), skip_ref, ref.frames_read())
                                     : ref.path() + ": no frames to compare (the file has none)");
  score_table whole = merge_tables(parts, sc_cfg, f);
  const double secs = prog.seconds();
  report rep;
  rep.width = f.width;
  rep.height = f.height;
  rep.frames_read = frames_read;
  rep.names = std::move(whole.names);
  for (std::size_t r = 0; r < whole.rows.size(); ++r) rep.frames.push_back({whole.frames[r], true, std::move(whole.rows[r])});
  rep.aggregate = std::move(whole.aggregate);
  rep.fps = secs > 0 ? static_cast<double>(frames_read) / secs : 0.0;
  return rep;
}

}  // namespace vqm::cli
