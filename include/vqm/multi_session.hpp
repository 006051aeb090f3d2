// multi_session<B>: one reference, many distorted — N distorted streams scored against one reference in
// one pass, each with the same session_config, each table equal (every value) to what a session<B> of its
// own gives for that pair.
//
//   vqm::multi_session<vqm::Cpu> m(cpu, ref.format(), {.models = {...}}, 3);  // 3 distorted streams
//   for (...) m.push(ref_picture, std::array{a, b, c});  // views valid until depth() later pushes
//   const std::vector<vqm::score_table> t = m.finish();  // t[i]: distorted i
//
// What is shared: the caller reads (and decodes) the reference once per frame and passes the same
// picture to every distorted; the backend is one (one Vulkan device, queue, frame slots and pipelines;
// one Cpu thread pool); the session_config (models parsed once). What is not: each distorted has its
// own session (metrics, partials, temporal state), so per-frame work that depends on the reference
// alone — the reference's copy into the frame's input (a host → device upload on Vulkan, once per
// distorted), a semi-planar reference's unpack, the reference-only parts of the kernels (VIF's and
// SSIM's reference statistics, ADM's reference decomposition, motion's blurred reference history) — is
// done once per distorted. Those parts run inside kernels that read both pictures together; sharing
// them would split every kernel and its partials, and the values must stay those of separate runs.
// On Vulkan a frame's input slot holds the pair side by side, so sharing the reference's upload would
// need a device-resident copy of the reference read by each distorted's frame (the gpu_picture path);
// that is not done here.
//
// Frames in flight: each distorted's session keeps up to depth() frames in flight, all on the one
// backend (on Vulkan its slots bound the GPU work, whatever N). Views passed to push() must stay valid
// until depth() more pushes or finish() has returned, as with session.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vqm/session.hpp"

namespace vqm {

template <Backend B>
class multi_session {
 public:
  multi_session(B& backend, const picture_format& f, const session_config& c, std::size_t distorted) {
    if (distorted == 0) throw error(errc::invalid_argument, "multi_session: no distorted stream");
    sessions_.reserve(distorted);
    for (std::size_t i = 0; i < distorted; ++i) sessions_.push_back(std::make_unique<session<B>>(backend, f, c));
  }

  [[nodiscard]] std::size_t size() const noexcept { return sessions_.size(); }
  [[nodiscard]] std::size_t depth() const noexcept { return sessions_.front()->depth(); }
  [[nodiscard]] const std::vector<std::string>& feature_names() const noexcept { return sessions_.front()->feature_names(); }
  [[nodiscard]] std::size_t frames_pushed() const noexcept { return sessions_.front()->frames_pushed(); }

  // Records frame i of the reference against frame i of every distorted (dis[k]: distorted k).
  void push(const picture_view& ref, std::span<const picture_view> dis) {
    if (dis.size() != sessions_.size())
      throw error(errc::invalid_argument, "multi_session::push: " + std::to_string(dis.size()) + " distorted pictures for " +
                                              std::to_string(sessions_.size()) + " streams");
    for (std::size_t k = 0; k < dis.size(); ++k) sessions_[k]->push(ref, dis[k]);
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
  }

  // Drains, then each distorted's table (end-of-stream series, predictions), in push order. Call once.
  [[nodiscard]] std::vector<score_table> finish() {
    drain();
    std::vector<score_table> out;
    out.reserve(sessions_.size());
    for (auto& s : sessions_) out.push_back(s->finish());
    return out;
  }

 private:
  std::vector<std::unique_ptr<session<B>>> sessions_;  // not movable once frames refer to their metrics
};

}  // namespace vqm
