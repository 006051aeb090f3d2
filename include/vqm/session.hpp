// session<B>: one run as libvmaf's `vmaf` tool does it — the features the models need (in libvmaf's
// registration order, shared where identical) and the extra features, frames in flight on a backend,
// end-of-stream series (integer_motion2/3), then every model's predictions — collected into a table.
//
//   vqm::session<vqm::Cpu> s(cpu, ref.format(), {.models = {vqm::vmaf::builtin_model("vmaf_v0.6.1")}});
//   for (...) s.push(ref_picture, dis_picture);     // views valid until depth() later frames are pushed
//   const vqm::score_table t = s.finish();          // t.column("vmaf"), t.pooled("vmaf").mean, t.rows ...
//
// Rows while streaming: s.on_frame([](const vqm::frame_scores& f) { ... f.at("vmaf") ... }) before the first
// push gives every reported frame's row as soon as its values are final (see on_frame), the same values
// finish()'s table holds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vqm/metric_set.hpp"
#include "vqm/registry.hpp"
#include "vqm/score_table.hpp"
#include "vqm/scorer.hpp"
#include "vqm/vmaf/model.hpp"

namespace vqm {

struct session_config {
  std::vector<vmaf::model> models{};        // each writes its name() series (and a collection's extras)
  std::vector<feature_request> features{};  // extra features (--feature), after the models' own
  compat mode = compat::none;
  std::size_t depth = 1;      // frames in flight
  std::size_t subsample = 1;  // report frames with index % subsample == 0 (temporal metrics see all)
  // A shard of a longer stream: the stream index of the first frame pushed, and the frames reported,
  // [report_begin, report_end). Frames pushed outside it are context (session::context): only temporal
  // features run on them, and they count in no row and no aggregate. The defaults: the whole stream.
  std::size_t first_index = 0;
  std::size_t report_begin = 0;
  std::size_t report_end = std::numeric_limits<std::size_t>::max();
};

// The feature requests of `models` then `features`, in libvmaf's registration order.
[[nodiscard]] inline std::vector<feature_request> feature_requests(const session_config& c) {
  std::vector<feature_request> out;
  for (const auto& m : c.models) {
    for (const auto& f : m.features()) out.push_back({f.extractor, f.options});
    for (const auto& member : m.members())
      for (const auto& f : member.features()) out.push_back({f.extractor, f.options});
  }
  out.insert(out.end(), c.features.begin(), c.features.end());
  return out;
}

// The requests without the reference-only features (motion): what a session sharing a reference computes.
[[nodiscard]] inline std::vector<feature_request> without_reference_only(std::vector<feature_request> r) {
  std::erase_if(r, [](const feature_request& q) { return reference_only_feature(q.name); });
  return r;
}

// The table of a whole stream from its parts' tables, in frame order: each from a session of config `c`
// and format `f` with report ranges that follow one another from frame 0 (a part's first_frame is the
// previous parts' frames_pushed). Rows are concatenated; the aggregates come from the parts' clip states
// added up (merged_aggregates), so every value equals one session's over the whole stream. No backend.
[[nodiscard]] inline score_table merge_tables(std::span<const score_table> parts, const session_config& c,
                                              const picture_format& f) {
  score_table t;
  std::vector<std::vector<named_state>> states;
  for (const auto& p : parts) {
    if (p.first_frame != t.frames_pushed)
      throw error(errc::invalid_argument, "merge_tables: a part starts at frame " + std::to_string(p.first_frame) +
                                              ", not " + std::to_string(t.frames_pushed) + " (parts in frame order, no gap or overlap)");
    if (t.names.empty()) t.names = p.names;
    if (p.names != t.names) throw error(errc::invalid_argument, "merge_tables: parts with other series");
    t.frames.insert(t.frames.end(), p.frames.begin(), p.frames.end());
    t.rows.insert(t.rows.end(), p.rows.begin(), p.rows.end());
    t.frames_pushed += p.frames_pushed;
    states.push_back(p.clip_states);
  }
  t.aggregate = merged_aggregates(feature_requests(c), f, c.mode, states);
  for (auto& st : states)
    for (auto& x : st) t.clip_states.push_back(std::move(x));  // every part's, in order (merge_clip_state adds them)
  return t;
}

template <Backend B>
class session {
 public:
  // `reference_only`: false leaves the reference-only features to another session of the same reference
  // (multi_session): features() then lacks their columns, which that session's table supplies.
  session(B& backend, const picture_format& f, session_config c, bool reference_only = true)
      : cfg_(std::move(c)),
        scorer_(backend,
                make_metrics<B>(reference_only ? feature_requests(cfg_) : without_reference_only(feature_requests(cfg_)), f,
                                cfg_.mode),
                cfg_.mode, cfg_.depth),
        after_(feature_context(reference_only ? feature_requests(cfg_) : without_reference_only(feature_requests(cfg_))).after) {
    if (cfg_.subsample == 0) cfg_.subsample = 1;
    const auto local = [&](std::size_t i) { return i > cfg_.first_index ? i - cfg_.first_index : 0; };
    if (cfg_.report_begin > cfg_.first_index || cfg_.report_end != std::numeric_limits<std::size_t>::max())
      scorer_.set_clip_window(local(cfg_.report_begin),
                              cfg_.report_end == std::numeric_limits<std::size_t>::max() ? 0 : local(cfg_.report_end));
    // Every output name once: a model's series must not repeat another model's or a feature's (the
    // output would hold two keys of one name).
    std::vector<std::string> seen = scorer_.names();
    for (const auto& m : cfg_.models)
      for (const auto& n : m.output_names()) {
        if (std::find(seen.begin(), seen.end(), n) != seen.end())
          throw error(errc::invalid_argument, "VMAF model " + m.source() + " writes a series named '" + n +
                                                  "', which another model or a feature also writes (give the "
                                                  "model its own name=)");
        seen.push_back(n);
      }
  }

  [[nodiscard]] std::size_t depth() const noexcept { return scorer_.depth(); }
  // The per-frame outputs of the features (before end-of-stream series and predictions).
  [[nodiscard]] const std::vector<std::string>& feature_names() const noexcept { return scorer_.names(); }
  [[nodiscard]] std::size_t frames_pushed() const noexcept { return pushed_; }

  // Per-frame results while streaming: `f` is called once for every reported frame, in frame order, with
  // the row finish()'s table holds for it, as soon as its values are final: its features are back from
  // the backend (the push depth() frames later) and so are the frames after it that its temporal features
  // read (context().after: integer_motion2 the next frame, its five-frame window two); the last frames'
  // rows come from finish(). Called on the caller's thread, from push(), drain() and finish(); the spans
  // are valid during the call only (copy what you keep), and `f` must not call this session. An
  // exception from `f` leaves that push()/drain()/finish() (its frame counts as delivered). Set it before
  // the first push.
  void on_frame(std::function<void(const frame_scores&)> f) {
    if (pushed_ > 0) throw error(errc::invalid_argument, "session::on_frame: set it before the first push");
    on_frame_ = std::move(f);
  }

  // Records one frame pair. The views must stay valid until depth() more frames have been pushed or
  // finish() has returned.
  void push(const picture_view& ref, const picture_view& dis) {
    if (auto r = scorer_.push(ref, dis, next_measured())) take(std::move(*r));
  }
  // GPU-resident pictures (vulkan::gpu_picture on vqm::Vulkan), or a host/GPU mix.
  template <class Ref, class Dis>
    requires requires(B& b, const Ref& r, const Dis& d) { b.begin_frame(r, d); }
  void push(const Ref& ref, const Dis& dis) {
    if (auto r = scorer_.push(ref, dis, next_measured())) take(std::move(*r));
  }

  // The frames around each frame that the features of `c` read: a shard of frames [a, b) pushes frames
  // max(a - before, 0) .. b + after - 1 (those the stream has) with first_index and report_begin/end set.
  [[nodiscard]] static frame_context context(const session_config& c) { return feature_context(feature_requests(c)); }

  // Waits for every frame in flight (also after an error, so the caller's pictures may go away).
  void drain() {
    while (auto r = scorer_.pop()) take(std::move(*r));
  }

  // Drains, then appends end-of-stream series and predictions. Call once.
  [[nodiscard]] score_table finish() {
    score_table t = features();
    complete(t);
    return t;
  }

  // finish() in two steps: the features' table (per-frame series, end-of-stream series, aggregates), then
  // complete() appends the models' predictions (multi_session adds shared columns in between).
  [[nodiscard]] score_table features() {
    drain();
    score_table t;
    t.names = scorer_.names();
    t.frames_pushed = in_range_;
    t.first_frame = cfg_.report_begin;
    std::vector<std::size_t> local;  // the rows' indices among the frames pushed (the series' indices)
    for (auto& r : done_) {
      local.push_back(r.index);
      t.frames.push_back(cfg_.first_index + r.index);
      t.rows.push_back(std::move(r.values));
    }
    for (auto& [name, series] : scorer_.finish()) {
      // A feature may list an end-of-stream series among its per-frame outputs to have it in libvmaf's
      // column order (float_motion's motion2 before motion): the series fills that column.
      if (const auto k = t.find(name)) {
        for (std::size_t r = 0; r < t.rows.size(); ++r) t.rows[r][*k] = series.at(local[r]);
        continue;
      }
      t.names.push_back(name);
      for (std::size_t r = 0; r < t.rows.size(); ++r) t.rows[r].push_back(series.at(local[r]));
    }
    scorer_.close_clip_window();
    t.aggregate = scorer_.aggregate();
    t.clip_states = scorer_.clip_states();
    return t;
  }

  // Appends the predictions, then gives on_frame the rows it has not had.
  void complete(score_table& t) {
    predict(t);
    for (; on_frame_ && delivered_ < t.rows.size(); ++delivered_) on_frame_({t.frames[delivered_], t.names, t.rows[delivered_]});
  }

 private:
  template <Backend>
  friend class multi_session;

  // The rows streamed before finish(): those of frames at least after_ frames before the last popped, with
  // the end-of-stream series' values so far (final for them, algorithm::finish) and, unless a
  // multi_session takes the feature rows (feature_rows_), the predictions.
  void stream() {
    std::size_t end = delivered_;
    while (end < done_.size() && done_[end].index + after_ < popped_) ++end;
    if (end == delivered_) return;
    const std::size_t first = done_[delivered_].index;
    const auto series = scorer_.finish(first);
    if (stream_names_.empty()) {
      stream_names_ = scorer_.names();
      for (const auto& [name, values] : series)
        if (std::find(stream_names_.begin(), stream_names_.end(), name) == stream_names_.end()) stream_names_.push_back(name);
      if (!feature_rows_) {
        inputs_ = model_inputs(stream_names_);
        const auto p = prediction_names();
        stream_names_.insert(stream_names_.end(), p.begin(), p.end());
      }
    }
    std::vector<double> row, x;
    for (; delivered_ < end; ++delivered_) {
      const frame_result& r = done_[delivered_];
      row = r.values;
      for (const auto& [name, values] : series) {
        const double v = values.at(r.index - first);
        const auto k = static_cast<std::size_t>(std::find(stream_names_.begin(), stream_names_.end(), name) - stream_names_.begin());
        if (k < row.size()) row[k] = v;
        else row.push_back(v);
      }
      if (feature_rows_) {
        feature_rows_(cfg_.first_index + r.index, stream_names_, row);
      } else {
        predict_row(inputs_, row, x);
        on_frame_({cfg_.first_index + r.index, stream_names_, row});
      }
    }
  }
  // Whether the next frame pushed is reported, counting it: a frame of the report range whose stream index
  // --subsample keeps.
  [[nodiscard]] bool next_measured() noexcept {
    const std::size_t i = cfg_.first_index + pushed_++;
    const bool in_range = i >= cfg_.report_begin && i < cfg_.report_end;
    in_range_ += in_range;
    return in_range && i % cfg_.subsample == 0;
  }

  void take(frame_result&& r) {
    popped_ = r.index + 1;
    if (r.measured) done_.push_back(std::move(r));
    if (on_frame_ || feature_rows_) stream();
  }

  // Each model's input columns among `names` (a features() table's), after checking that no model's
  // series repeats a feature's (end-of-stream series are named only now).
  [[nodiscard]] std::vector<std::vector<std::size_t>> model_inputs(const std::vector<std::string>& names) const {
    const auto find = [&](const std::string& n) { return std::find(names.begin(), names.end(), n); };
    std::vector<std::vector<std::size_t>> inputs;
    for (const auto& m : cfg_.models) {
      std::vector<std::size_t> cols;
      for (const auto& f : m.features()) {
        const auto name = vmaf::printed_name(f.name, feature_suffix(f.extractor, f.options));
        const auto k = find(name);
        if (k == names.end()) throw error(errc::invalid_argument, "VMAF model " + m.source() + ": feature " + name + " was not computed");
        cols.push_back(static_cast<std::size_t>(k - names.begin()));
      }
      inputs.push_back(std::move(cols));
    }
    for (const auto& m : cfg_.models)
      for (const auto& n : m.output_names())
        if (find(n) != names.end())
          throw error(errc::invalid_argument, "VMAF model " + m.source() + " writes a series named '" + n +
                                                  "', which a feature also writes (give the model its own name=)");
    return inputs;
  }
  // libvmaf's order (SPEC-vmaf B.7): every model's main series, then each collection's extras.
  [[nodiscard]] std::vector<std::string> prediction_names() const {
    std::vector<std::string> out;
    for (const auto& m : cfg_.models) out.push_back(m.name());
    for (const auto& m : cfg_.models)
      if (m.is_collection()) {
        const auto names = m.output_names();
        out.insert(out.end(), names.begin() + 1, names.end());
      }
    return out;
  }
  // Appends the predictions (prediction_names' order) to one row of features; `x` is scratch.
  void predict_row(const std::vector<std::vector<std::size_t>>& inputs, std::vector<double>& row, std::vector<double>& x) const {
    const auto gather = [&](std::size_t i) {  // feature columns: before every prediction appended
      x.clear();
      for (auto k : inputs[i]) x.push_back(row[k]);
    };
    for (std::size_t i = 0; i < cfg_.models.size(); ++i) {
      gather(i);
      row.push_back(cfg_.models[i].predict(x));
    }
    for (std::size_t i = 0; i < cfg_.models.size(); ++i) {
      if (!cfg_.models[i].is_collection()) continue;
      gather(i);
      const auto b = cfg_.models[i].predict_bootstrap(x);
      row.insert(row.end(), b.members.begin(), b.members.end());
      row.insert(row.end(), {b.bagging, b.stddev, b.ci_p95_lo, b.ci_p95_hi});
    }
  }
  void predict(score_table& t) const {
    const auto inputs = model_inputs(t.names);
    const auto p = prediction_names();
    t.names.insert(t.names.end(), p.begin(), p.end());
    std::vector<double> x;
    for (auto& row : t.rows) predict_row(inputs, row, x);
  }

  session_config cfg_;
  scorer<B> scorer_;
  std::size_t after_ = 0;  // frames after a frame that its temporal features read (frame_context::after)
  std::size_t pushed_ = 0, in_range_ = 0, popped_ = 0;
  std::vector<frame_result> done_;
  // Streaming: the rows of done_ delivered, and the names they have.
  std::function<void(const frame_scores&)> on_frame_;
  std::function<void(std::size_t, const std::vector<std::string>&, const std::vector<double>&)> feature_rows_;
  std::size_t delivered_ = 0;
  std::vector<std::string> stream_names_;
  std::vector<std::vector<std::size_t>> inputs_;
};

}  // namespace vqm
