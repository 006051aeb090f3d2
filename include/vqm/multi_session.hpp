// multi_session<B>: one reference, many distorted — N distorted streams scored against one reference in
// one pass, each with the same session_config, each table equal (every value) to what a session<B> of its
// own gives for that pair.
//
//   vqm::multi_session<vqm::Cpu> m(cpu, ref.format(), {.models = {...}}, 3);  // 3 distorted streams
//   for (...) m.push(ref_picture, std::array{a, b, c});  // views valid until depth() later pushes
//   const std::vector<vqm::score_table> t = m.finish();  // t[i]: distorted i
//
// What is shared: the caller reads (and decodes) the reference once per frame and passes the same picture
// to every distorted; the backend is one (one Vulkan device, queue, frame slots and pipelines; one Cpu
// thread pool); the session_config (models parsed once). On a backend that shares_reference (vqm::Vulkan)
// with two or more distorted, the reference also goes host → device once per frame: into an entry of a
// ring of depth() + 1 device-resident copies (vulkan/reference_ring.hpp: every plane, one small
// submission), which each distorted's frame then copies on the device into its own input like any
// GPU-resident picture; its upload is ordered before those frames by a timeline semaphore (submission
// order on a device without). A reference already in device-readable memory (a vulkan::host_picture in
// VRAM, any gpu_picture) is pushed as it is to every distorted's frame instead (push's template).
// Features whose values depend on the reference alone (reference_only_feature: motion, VMAF's temporal
// feature, with its blurred reference history) run in the first distorted's session only, and finish()
// copies their columns into the other tables, when the other sessions keep a feature of their own.
// What is not shared: the reference-only parts of the kernels that read both pictures (VIF's and SSIM's
// reference statistics, ADM's reference decomposition, psnr_hvs's reference DCTs), a semi-planar
// reference's unpack and each frame's device copy of the reference run once per distorted: those kernels
// compute both pictures' terms in one pass, and splitting them would cost every separate run a second
// pass and its partials a second layout.
//
// Several devices: given a span of backends (one vqm::Vulkan per device), the distorted are spread over
// them in contiguous groups, each group sharing its backend as above (docs/multi-gpu.md).
//
// Frames in flight: each distorted's session keeps up to depth() frames in flight, all on the one
// backend (on Vulkan its slots bound the GPU work, whatever N). Views passed to push() must stay valid
// until depth() more pushes or finish() has returned, as with session.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vqm/session.hpp"

namespace vqm {

// A backend that uploads one reference once for several frames: reference_ring(format, entries) gives a
// ring whose put(ref) returns a picture its begin_frame takes (vqm::Vulkan; vulkan/reference_ring.hpp).
template <class B>
concept shares_reference = requires(B& b, const picture_format& f, std::size_t n, const picture_view& v) {
  { b.reference_ring(f, n)->fits(v) } -> std::same_as<bool>;
  b.begin_frame(b.reference_ring(f, n)->put(v), v);
};

namespace detail {
template <class B>
struct reference_ring_of {
  using type = std::nullptr_t;  // none: each session takes the host reference
};
template <shares_reference B>
struct reference_ring_of<B> {
  using type = decltype(std::declval<B&>().reference_ring(std::declval<const picture_format&>(), std::size_t{}));
};
}  // namespace detail

template <Backend B>
class multi_session {
 public:
  multi_session(B& backend, const picture_format& f, const session_config& c, std::size_t distorted)
      : multi_session(std::span<B* const>(std::array{&backend}), f, c, distorted) {}

  // Several backends (vqm::Vulkan on several devices): the distorted are spread over them in contiguous
  // groups (distorted k on backends[k * backends.size() / distorted]; with fewer distorted than backends
  // some stay idle), each backend with its own reference ring; the tables are those of one backend. The
  // host work of a push (each group's uploads) runs on the caller's thread, device by device; the devices
  // compute at once. The reference must then be a host view (a device's picture is of one device).
  multi_session(std::span<B* const> backends, const picture_format& f, const session_config& c, std::size_t distorted) {
    if (distorted == 0) throw error(errc::invalid_argument, "multi_session: no distorted stream");
    if (backends.empty()) throw error(errc::invalid_argument, "multi_session: no backend");
    for (auto* b : backends)
      if (!b) throw error(errc::invalid_argument, "multi_session: a null backend");
    // The reference-only features (motion) run in the first session only, when the others keep a feature.
    const auto requests = feature_requests(c);
    share_ = distorted > 1 && without_reference_only(requests).size() < requests.size() &&
             !without_reference_only(requests).empty();
    sessions_.reserve(distorted);
    owner_.reserve(distorted);
    for (std::size_t i = 0; i < distorted; ++i) {
      owner_.push_back(i * backends.size() / distorted);
      sessions_.push_back(std::make_unique<session<B>>(*backends[owner_.back()], f, c, i == 0 || !share_));
    }
    // An entry is rewritten depth() + 1 puts later: each session has waited for that frame by then. A
    // backend with one distorted takes the host reference itself (no ring, as with one backend).
    groups_ = owner_.back() + 1;
    if constexpr (shares_reference<B>) {
      rings_.resize(groups_);
      for (std::size_t g = 0; g < groups_; ++g)
        if (std::count(owner_.begin(), owner_.end(), g) > 1) rings_[g] = backends[g]->reference_ring(f, depth() + 1);
    }
  }

  [[nodiscard]] std::size_t size() const noexcept { return sessions_.size(); }
  [[nodiscard]] std::size_t depth() const noexcept { return sessions_.front()->depth(); }
  [[nodiscard]] const std::vector<std::string>& feature_names() const noexcept { return sessions_.front()->feature_names(); }
  [[nodiscard]] std::size_t frames_pushed() const noexcept { return sessions_.front()->frames_pushed(); }

  // Per-frame rows while streaming, as session::on_frame: f(k, row) for every reported frame of distorted
  // k, each distorted's in frame order, with the values finish()'s table k holds. When the
  // reference-only features are shared, distorted k's row waits for the first distorted's (its motion
  // columns and hence its predictions). The same rules: spans valid during the call, set before the
  // first push, `f` must not call this multi_session.
  void on_frame(std::function<void(std::size_t, const frame_scores&)> f) {
    if (frames_pushed() > 0) throw error(errc::invalid_argument, "multi_session::on_frame: set it before the first push");
    on_frame_ = std::move(f);
    if (!share_) {
      for (std::size_t k = 0; k < sessions_.size(); ++k)
        sessions_[k]->on_frame([this, k](const frame_scores& r) { on_frame_(k, r); });
      return;
    }
    pending_.assign(sessions_.size(), {});
    sent_.assign(sessions_.size(), 0);
    for (std::size_t k = 0; k < sessions_.size(); ++k)
      sessions_[k]->feature_rows_ = [this, k](std::size_t frame, const std::vector<std::string>& names, const std::vector<double>& row) {
        if (k == 0 && full_names_.empty()) full_names_ = names;
        if (k > 0 && own_names_.empty()) own_names_ = names;
        pending_[k].push_back({frame, row});
      };
  }

  // Records frame i of the reference against frame i of every distorted (dis[k]: distorted k).
  void push(const picture_view& ref, std::span<const picture_view> dis) { push_pictures(ref, dis); }
  // Pictures of the backend's own kind (vulkan::gpu_picture: GPU-resident or host_picture input) for the
  // distorted, and for the reference when it is not a host view (a host view is still uploaded once).
  template <class R, class D>
  void push(const R& ref, std::span<const D> dis) {
    push_pictures(ref, dis);
  }

  // Waits for every frame in flight of every distorted, also when one fails (then rethrows the first
  // error once all are drained, so the caller's pictures may go away).
  void drain() {
    std::exception_ptr first;
    for (auto& s : sessions_) {
      try {
        s->drain();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
    if (!sent_.empty()) stream();
  }

  // Drains, then each distorted's table (end-of-stream series, predictions), in push order. Call once.
  [[nodiscard]] std::vector<score_table> finish() {
    drain();
    std::vector<score_table> out;
    out.reserve(sessions_.size());
    for (auto& s : sessions_) out.push_back(s->features());
    for (std::size_t k = 1; k < out.size() && share_; ++k) out[k] = with_columns_of(out.front(), std::move(out[k]));
    for (std::size_t k = 0; k < out.size(); ++k) sessions_[k]->complete(out[k]);
    for (std::size_t k = 0; k < sent_.size(); ++k)  // shared: the rows not streamed yet
      for (; sent_[k] < out[k].rows.size(); ++sent_[k]) on_frame_(k, {out[k].frames[sent_[k]], out[k].names, out[k].rows[sent_[k]]});
    return out;
  }

  // Whether the reference-only features (motion) are computed once, in the first distorted's session, and
  // their columns copied into the others' tables (values equal: they read the reference alone).
  [[nodiscard]] bool shares_reference_only_features() const noexcept { return share_; }
  // The per-frame outputs distorted k's session computes itself.
  [[nodiscard]] const std::vector<std::string>& computed_names(std::size_t k) const { return sessions_.at(k)->feature_names(); }

 private:
  template <class R, class D>
  void push_pictures(const R& ref, std::span<const D> dis) {
    if (dis.size() != sessions_.size())
      throw error(errc::invalid_argument, "multi_session::push: " + std::to_string(dis.size()) + " distorted pictures for " +
                                              std::to_string(sessions_.size()) + " streams");
    if constexpr (!std::convertible_to<const R&, picture_view>)
      if (groups_ > 1)
        throw error(errc::invalid_argument, "multi_session::push: a device's reference picture with several backends "
                                            "(push a host view: each device uploads it)");
    if constexpr (shares_reference<B> && std::convertible_to<const R&, picture_view>) {
      for (std::size_t g = 0; g < groups_; ++g) {
        auto& ring = rings_[g];
        if (ring && ring->fits(picture_view(ref))) {
          const auto shared = ring->put(picture_view(ref));
          for (std::size_t k = 0; k < dis.size(); ++k)
            if (owner_[k] == g) sessions_[k]->push(shared, dis[k]);
        } else {
          for (std::size_t k = 0; k < dis.size(); ++k)
            if (owner_[k] == g) sessions_[k]->push(ref, dis[k]);
        }
      }
      if (!sent_.empty()) stream();
      return;
    }
    for (std::size_t k = 0; k < dis.size(); ++k) sessions_[k]->push(ref, dis[k]);
    if (!sent_.empty()) stream();
  }

  // Shared reference-only features: distorted k's streamed feature row with the first distorted's columns
  // it lacks (as with_columns_of), then its predictions. pending_[0] keeps a row of the first distorted
  // until every distorted has had it (dropped_: those before its front).
  void stream() {
    if (full_names_.empty()) return;  // the first distorted has streamed no row yet
    if (names_.empty()) {
      inputs_ = sessions_.front()->model_inputs(full_names_);
      names_ = full_names_;
      const auto p = sessions_.front()->prediction_names();
      names_.insert(names_.end(), p.begin(), p.end());
    }
    std::vector<double> row, x;
    for (std::size_t k = 0; k < sessions_.size(); ++k) {
      while (sent_[k] - dropped_ < pending_[0].size() && (k == 0 || !pending_[k].empty())) {
        const auto& [frame, full] = pending_[0][sent_[k] - dropped_];
        row = full;
        if (k > 0) {
          const auto& own = pending_[k].front().second;
          for (std::size_t c = 0; c < full_names_.size(); ++c) {
            const auto it = std::find(own_names_.begin(), own_names_.end(), full_names_[c]);
            if (it != own_names_.end()) row[c] = own[static_cast<std::size_t>(it - own_names_.begin())];
          }
          pending_[k].pop_front();
        }
        sessions_[k]->predict_row(inputs_, row, x);
        ++sent_[k];  // before the call: a row whose callback throws counts as delivered
        on_frame_(k, {frame, names_, row});
      }
    }
    for (const std::size_t all = *std::min_element(sent_.begin(), sent_.end()); dropped_ < all; ++dropped_) pending_[0].pop_front();
  }

  // `own` in `full`'s column order, the columns it lacks (the reference-only features') taken from `full`:
  // the table a session computing every feature would have given (same frames, same names).
  [[nodiscard]] static score_table with_columns_of(const score_table& full, score_table own) {
    if (own.frames != full.frames) throw error(errc::invalid_argument, "multi_session: distorted tables of other frames");
    score_table t;
    t.names = full.names;
    t.frames = std::move(own.frames);
    t.frames_pushed = own.frames_pushed;
    t.first_frame = own.first_frame;
    t.clip_states = own.clip_states;
    for (const auto& c : full.clip_states)
      if (std::none_of(own.clip_states.begin(), own.clip_states.end(), [&](const auto& o) { return o.first == c.first; }))
        t.clip_states.push_back(c);
    std::vector<std::optional<std::size_t>> from(full.names.size());
    for (std::size_t k = 0; k < full.names.size(); ++k) from[k] = own.find(full.names[k]);
    t.rows.resize(full.rows.size());
    for (std::size_t r = 0; r < full.rows.size(); ++r)
      for (std::size_t k = 0; k < full.names.size(); ++k) t.rows[r].push_back(from[k] ? own.rows[r][*from[k]] : full.rows[r][k]);
    for (const auto& a : full.aggregate) {
      const auto mine = std::find_if(own.aggregate.begin(), own.aggregate.end(), [&](const auto& o) { return o.first == a.first; });
      t.aggregate.emplace_back(a.first, mine != own.aggregate.end() ? mine->second : a.second);
    }
    return t;
  }

  // Streaming (on_frame); with share_, the rows of the sessions' feature_rows_ (stream()).
  std::function<void(std::size_t, const frame_scores&)> on_frame_;
  std::vector<std::deque<std::pair<std::size_t, std::vector<double>>>> pending_;  // (frame, feature row)
  std::vector<std::size_t> sent_;  // rows delivered, per distorted
  std::size_t dropped_ = 0;
  std::vector<std::string> full_names_, own_names_, names_;  // the first's and the others' features; a row's
  std::vector<std::vector<std::size_t>> inputs_;
  bool share_ = false;  // the reference-only features run in sessions_[0] only
  std::size_t groups_ = 1;          // the backends in use
  std::vector<std::size_t> owner_;  // owner_[k]: distorted k's backend
  std::vector<typename detail::reference_ring_of<B>::type> rings_;  // a backend's; before sessions_: outlive their frames
  std::vector<std::unique_ptr<session<B>>> sessions_;  // not movable once frames refer to their metrics
};

}  // namespace vqm
