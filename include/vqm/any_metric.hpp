// any_metric<B>: a type-erased metric, so front ends can hold a run-time list of features.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/concepts/backend.hpp"
#include "vqm/feature/algorithm.hpp"

namespace vqm {

template <Backend B>
class any_metric {
 public:
  template <class M>
  explicit any_metric(M metric, bool temporal = false)
      : self_(std::make_unique<model<M>>(std::move(metric))), temporal_(temporal) {}

  [[nodiscard]] const std::vector<std::string>& names() const { return self_->names(); }
  // Temporal metrics (psnr with APSNR) run on every frame, even frames --subsample skips.
  [[nodiscard]] bool temporal() const noexcept { return temporal_; }
  // Partials storage for `n` frames in flight; allocated once, reused for every frame.
  void reserve_slots(std::size_t n) { self_->reserve_slots(n); }
  // Series a temporal metric can only write at the end of the stream (motion2/motion3), one value per
  // frame pushed from frame `first` on, in frame order; empty for most metrics (algorithm::finish).
  [[nodiscard]] std::vector<named_series> finish(std::size_t first = 0) const { return self_->finish(first); }
  void enqueue(B& b, typename B::frame& f, std::size_t slot) { self_->enqueue(b, f, slot); }
  void scores(std::size_t slot, double* out) const { self_->scores(slot, out); }
  void accumulate(std::size_t slot) { self_->accumulate(slot); }
  [[nodiscard]] std::vector<named_value> aggregate() const { return self_->aggregate(); }
  // What aggregate() reads (algorithm::clip_state): saved by a shard, merged across shards.
  [[nodiscard]] std::vector<std::uint64_t> clip_state() const { return self_->clip_state(); }
  void set_clip_state(std::span<const std::uint64_t> w) { self_->set_clip_state(w); }
  void merge_clip_state(std::span<const std::uint64_t> w) { self_->merge_clip_state(w); }

 private:
  struct concept_t {
    virtual ~concept_t() = default;
    virtual const std::vector<std::string>& names() const = 0;
    virtual void reserve_slots(std::size_t n) = 0;
    virtual void enqueue(B& b, typename B::frame& f, std::size_t slot) = 0;
    virtual void scores(std::size_t slot, double* out) const = 0;
    virtual void accumulate(std::size_t slot) = 0;
    virtual std::vector<named_value> aggregate() const = 0;
    virtual std::vector<named_series> finish(std::size_t first) const = 0;
    virtual std::vector<std::uint64_t> clip_state() const = 0;
    virtual void set_clip_state(std::span<const std::uint64_t> w) = 0;
    virtual void merge_clip_state(std::span<const std::uint64_t> w) = 0;
  };
  template <class M>
  struct model final : concept_t {
    explicit model(M m) : metric(std::move(m)) {}
    const std::vector<std::string>& names() const override { return metric.names(); }
    void reserve_slots(std::size_t n) override {
      partials.resize(n);
      if constexpr (requires { metric.reserve_slots(n); }) metric.reserve_slots(n);
    }
    void enqueue(B& b, typename B::frame& f, std::size_t slot) override {
      partials[slot] = {};
      metric.enqueue(b, f, partials[slot]);
    }
    void scores(std::size_t slot, double* out) const override { metric.scores(partials[slot], out); }
    void accumulate(std::size_t slot) override { algorithm::accumulate(metric, partials[slot]); }
    std::vector<named_value> aggregate() const override { return algorithm::aggregate(metric); }
    std::vector<named_series> finish(std::size_t first) const override { return algorithm::finish(metric, first); }
    std::vector<std::uint64_t> clip_state() const override { return algorithm::clip_state(metric); }
    void set_clip_state(std::span<const std::uint64_t> w) override { algorithm::set_clip_state(metric, w); }
    void merge_clip_state(std::span<const std::uint64_t> w) override { algorithm::merge_clip_state(metric, w); }
    M metric;
    std::vector<typename M::partials_type> partials;
  };
  std::unique_ptr<concept_t> self_;
  bool temporal_ = false;
};

}  // namespace vqm
