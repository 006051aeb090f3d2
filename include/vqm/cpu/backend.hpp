// vqm::Cpu — the CPU backend. Frames run on the calling thread, or whole frames in parallel on a pool
// (results do not depend on the thread count: every frame is computed the same way).
//
// The backend only orchestrates: a frame records kernel calls (cpu::frame), submit() runs them inline or
// on the pool, wait() joins. Every metric's kernel entry points come from its engine (cpu/engines/).
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "vqm/cpu/engines.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/error.hpp"
#include "vqm/executor.hpp"
#include "vqm/thread_pool.hpp"

namespace vqm {

class Cpu : public cpu::engines {
 public:
  static constexpr std::string_view name = "cpu";
  using frame = cpu::frame;

  // threads <= 1: run on the caller's thread. Otherwise frames run in parallel on `threads` workers
  // (use a scorer depth of `threads` to keep them busy).
  // Throws vqm::error when the system cannot start that many threads.
  explicit Cpu(unsigned threads = 1) {
    if (threads > 1) {
      own_ = std::make_unique<thread_pool>(threads);
      pool_ = own_.get();
    }
  }
  // Frames run in parallel on the caller's executor (a shared vqm::thread_pool, or any other), which
  // must outlive the backend and its frames.
  explicit Cpu(executor& e) : pool_(&e) {}

  [[nodiscard]] unsigned threads() const noexcept { return pool_ ? pool_->concurrency() : 1; }

  [[nodiscard]] frame begin_frame(const picture_view& ref, const picture_view& dis) const {
    check_pair(ref, dis);
    if (ref.format.is_planar() && dis.format.is_planar()) return frame(ref, dis);
    // Semi-planar or MSB-aligned input: planar copies in scratch the frame holds (cpu/semi_planar.hpp).
    auto p = to_planar_pair(ref, dis);
    return frame(p.ref, p.dis, std::move(p.hold));
  }

  void submit(frame& f) {
    if (!pool_) return f.run();  // inline: the work is done by wait() time
    auto c = std::make_shared<frame::completion>();
    f.pending = c;
    // The task works on its own copy of the recorded calls: the caller may move the frame while it runs.
    frame work = f;
    work.pending.reset();
    pool_->post([work = std::move(work), c] {
      std::exception_ptr e;
      try {
        work.run();
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard lock(c->m);
      c->error = e;
      c->done = true;
      c->cv.notify_all();
    });
  }

  void wait(frame& f) {
    if (!f.pending) return;
    std::unique_lock lock(f.pending->m);
    f.pending->cv.wait(lock, [&] { return f.pending->done; });
    auto e = f.pending->error;
    lock.unlock();
    f.pending.reset();
    if (e) std::rethrow_exception(e);
  }

 private:
  std::unique_ptr<thread_pool> own_;  // when the backend made its pool
  executor* pool_ = nullptr;          // null: frames run inline
};

}  // namespace vqm
