// scorer<B>: runs a list of metrics over a stream of frame pairs on one backend, with frames in flight.
//
// All requested metrics of a frame are recorded into one backend frame and submitted together. Up to
// `depth` frames are in flight; results come back in frame order. The views passed to push() must stay
// valid until that frame's result has been returned (a ring of depth + 1 buffers is enough).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vqm/any_metric.hpp"
#include "vqm/compat.hpp"
#include "vqm/score_table.hpp"  // named_state

namespace vqm {

struct frame_result {
  std::size_t index = 0;
  bool measured = true;        // false for frames skipped by subsampling (no values then)
  std::vector<double> values;  // in scorer::names() order
};

template <Backend B>
class scorer {
 public:
  scorer(B& backend, std::vector<any_metric<B>> metrics, compat c = compat::none, std::size_t depth = 1)
      : backend_(backend), metrics_(std::move(metrics)), compat_(c), depth_(depth == 0 ? 1 : depth) {
    for (auto& m : metrics_) {
      m.reserve_slots(depth_ + 1);
      names_.insert(names_.end(), m.names().begin(), m.names().end());
    }
  }

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  [[nodiscard]] std::size_t depth() const noexcept { return depth_; }

  // Records and submits one frame pair; returns the oldest frame's result once more than `depth` are in
  // flight. `measure == false` runs only temporal metrics (libvmaf's --subsample).
  std::optional<frame_result> push(const picture_view& ref, const picture_view& dis, bool measure = true) {
    return push<picture_view, picture_view>(ref, dis, measure);
  }
  // Any pictures the backend's begin_frame takes (e.g. vulkan::gpu_picture: GPU-resident input), with a
  // with_chroma_rounding found for them.
  template <class Ref, class Dis>
    requires requires(B& b, const Ref& r, const Dis& d) { b.begin_frame(r, d); }
  std::optional<frame_result> push(const Ref& ref, const Dis& dis, bool measure = true) {
    const auto r = chroma_rounding_for(compat_);
    const std::size_t slot = next_index_ % (depth_ + 1);
    in_flight_.push_back({next_index_++, slot, measure, backend_.begin_frame(with_chroma_rounding(ref, r),
                                                                           with_chroma_rounding(dis, r))});
    auto& job = in_flight_.back();
    for (auto& m : metrics_)
      if (measure || m.temporal()) m.enqueue(backend_, job.frame, slot);
    backend_.submit(job.frame);
    if (in_flight_.size() > depth_) return pop();
    return std::nullopt;
  }

  // Waits for the oldest frame in flight; nullopt when none is left.
  std::optional<frame_result> pop() {
    if (in_flight_.empty()) return std::nullopt;
    backend_.wait(in_flight_.front().frame);  // in place: a backend may still refer to the frame until then
    auto job = std::move(in_flight_.front());
    in_flight_.pop_front();
    frame_result res{job.index, job.measure, {}};
    if (job.measure) res.values.resize(names_.size());
    double* out = res.values.data();
    if (job.index == clip_begin_ && job.index > 0)
      for (auto& m : metrics_) m.set_clip_state({});  // the context frames before a shard's first are not its
    for (auto& m : metrics_) {
      if (job.measure) {
        m.scores(job.slot, out);
        out += m.names().size();
      }
      if (job.measure || m.temporal()) m.accumulate(job.slot);
    }
    if (job.index + 1 == clip_end_) {
      saved_.clear();
      for (const auto& m : metrics_) saved_.push_back(m.clip_state());
    }
    return res;
  }

  // A shard's frames, as indices of the frames pushed: the clip states (hence aggregate()) count frames
  // [begin, end) only once close_clip_window() has run after the last pop(), however many frames of
  // context were pushed before and after.
  void set_clip_window(std::size_t begin, std::size_t end) noexcept {
    clip_begin_ = begin;
    clip_end_ = end;
  }
  void close_clip_window() {
    if (next_index_ <= clip_begin_) {  // no frame of the window was pushed
      for (auto& m : metrics_) m.set_clip_state({});
    } else if (!saved_.empty()) {
      for (std::size_t k = 0; k < metrics_.size(); ++k) metrics_[k].set_clip_state(saved_[k]);
    }
  }

  // The metrics' clip states, for those that have one (what aggregate() reads).
  [[nodiscard]] std::vector<named_state> clip_states() const {
    std::vector<named_state> out;
    for (const auto& m : metrics_)
      if (auto w = m.clip_state(); !w.empty()) out.emplace_back(m.names().front(), std::move(w));
    return out;
  }
  // Adds the clip states of frames that follow those accumulated (a later shard's), by metric name.
  void merge_clip_states(std::span<const named_state> states) {
    for (const auto& state : states) {  // no structured binding: Clang 14 cannot capture one in a lambda
      const std::string& name = state.first;
      const auto& words = state.second;
      auto m = std::find_if(metrics_.begin(), metrics_.end(), [&](const auto& x) { return x.names().front() == name; });
      if (m == metrics_.end()) throw error(errc::invalid_argument, "a clip state of '" + name + "', which no metric here writes");
      m->merge_clip_state(words);
    }
  }

  // End-of-stream series (integer_motion2/3), one value per frame popped from frame `first` on, in metric
  // order; after draining with pop(), every frame's. Before, frame i's values are final once frame
  // i + context.after has been popped (algorithm::finish).
  [[nodiscard]] std::vector<named_series> finish(std::size_t first = 0) const {
    std::vector<named_series> out;
    for (const auto& m : metrics_) {
      auto s = m.finish(first);
      out.insert(out.end(), std::make_move_iterator(s.begin()), std::make_move_iterator(s.end()));
    }
    return out;
  }

  // Aggregate values (apsnr_*) over every frame pushed so far; call after draining with pop().
  [[nodiscard]] std::vector<std::pair<std::string, double>> aggregate() const {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& m : metrics_) {
      auto a = m.aggregate();
      out.insert(out.end(), a.begin(), a.end());
    }
    return out;
  }

 private:
  struct flight {  // a frame in flight
    std::size_t index;
    std::size_t slot;
    bool measure;
    typename B::frame frame;
  };
  B& backend_;
  std::vector<any_metric<B>> metrics_;
  compat compat_;
  std::size_t depth_;
  std::size_t next_index_ = 0;
  std::deque<flight> in_flight_;
  std::vector<std::string> names_;
  std::size_t clip_begin_ = 0, clip_end_ = 0;  // 0, 0: no window (every frame counts)
  std::vector<std::vector<std::uint64_t>> saved_;  // clip states after frame clip_end_ - 1
};

namespace detail {
// One frame on `backend`, synchronously: record(frame) enqueues the metric, read(out) writes its scores.
template <Backend B, class Record, class Read>
[[nodiscard]] std::vector<double> compute_one(B& backend, const picture_view& ref, const picture_view& dis, compat c,
                                              std::size_t outputs, Record record, Read read) {
  const auto r = chroma_rounding_for(c);
  auto frame = backend.begin_frame(with_chroma_rounding(ref, r), with_chroma_rounding(dis, r));
  record(frame);
  backend.submit(frame);
  backend.wait(frame);
  std::vector<double> out(outputs);
  read(out.data());
  return out;
}
}  // namespace detail

// One frame, one metric, synchronously: the shortest path from two pictures to numbers.
template <class Metric, Backend B>
[[nodiscard]] std::vector<double> compute(B& backend, const Metric& metric, const picture_view& ref,
                                          const picture_view& dis, compat c = compat::none) {
  typename Metric::partials_type part{};
  return detail::compute_one(
      backend, ref, dis, c, metric.names().size(), [&](typename B::frame& f) { metric.enqueue(backend, f, part); },
      [&](double* out) { metric.scores(part, out); });
}

// The same for a metric chosen at run time (make_metric): it runs in slot 0, sized for one frame in flight.
template <Backend B>
[[nodiscard]] std::vector<double> compute(B& backend, any_metric<B>& metric, const picture_view& ref,
                                          const picture_view& dis, compat c = compat::none) {
  metric.reserve_slots(1);
  return detail::compute_one(
      backend, ref, dis, c, metric.names().size(), [&](typename B::frame& f) { metric.enqueue(backend, f, 0); },
      [&](double* out) { metric.scores(0, out); });
}

}  // namespace vqm
