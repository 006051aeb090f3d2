// vqm::executor: where vqm runs work on other threads — the Cpu backend's frames, the loop filter's edge
// batches, the Vulkan backend's plane copies. vqm::thread_pool (thread_pool.hpp) is vqm's own; a caller
// who already has threads passes its executor instead (Cpu(executor&), lpf::cpu_options::pool,
// vulkan::context_options::pool), wrapping any type with a post(callable) in executor_ref.
//
// parallel_for(): the one parallel loop vqm uses on any executor.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace vqm {

class executor {
 public:
  virtual ~executor() = default;
  // Runs `task` once, on some thread, some time (inline is allowed). vqm's tasks never throw and never
  // wait for other tasks of the same executor.
  virtual void post(std::function<void()> task) = 0;
  // Runs `task` `copies` times (parallel_for's helpers): a pool may wake its threads at once.
  virtual void post_copies(const std::function<void()>& task, unsigned copies) {
    for (unsigned i = 0; i < copies; ++i) post(task);
  }
  // How many posted tasks may run at once: vqm splits its work into about this many pieces.
  [[nodiscard]] virtual unsigned concurrency() const noexcept = 0;
};

// Anything that runs a posted callable: a thread pool, an asio-style executor's adapter, a test double.
template <class E>
concept Executor = requires(E& e, std::function<void()> f) { e.post(std::move(f)); };

// An executor view of the caller's E (which must outlive it), declaring its concurrency.
template <Executor E>
class executor_ref final : public executor {
 public:
  executor_ref(E& e, unsigned concurrency) noexcept : e_(&e), n_(concurrency < 1 ? 1 : concurrency) {}
  void post(std::function<void()> task) override { e_->post(std::move(task)); }
  [[nodiscard]] unsigned concurrency() const noexcept override { return n_; }

 private:
  E* e_;
  unsigned n_;
};

namespace detail {

// One parallel_for call's state, shared with its helper tasks: a helper the executor starts after the
// loop has finished finds no index left and touches nothing else.
struct parallel_loop {
  std::size_t n = 0;
  void (*call)(void*, std::size_t) = nullptr;
  void* fn = nullptr;
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<int> finished{0};  // 0 → 1 when the last index is done (an int: futex-backed wait)
  std::mutex error_mutex;
  std::exception_ptr error;

  // Takes indices until none is left. fn is only called for an index below n, and the caller waits for
  // all n, so fn outlives every call.
  void work() noexcept {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      try {
        call(fn, i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
      if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
        finished.store(1, std::memory_order_release);
        finished.notify_all();
      }
    }
  }
  void wait() const noexcept {
    // Short pieces (plane copies) end within microseconds of each other: spin briefly, then sleep.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    while (finished.load(std::memory_order_acquire) == 0) {
      if (std::chrono::steady_clock::now() > until) {
        finished.wait(0, std::memory_order_acquire);
      } else {
        std::this_thread::yield();
      }
    }
  }
};

}  // namespace detail

// Calls fn(0) … fn(n − 1) on the calling thread and on up to width − 1 tasks posted to `ex` (none when
// ex is null or width <= 1), returns when every call has returned and rethrows the first exception.
// The caller takes indices too, so the loop completes even when the executor is busy or is running the
// caller itself: nothing waits for a helper that has not started.
template <class F>
void parallel_for(executor* ex, std::size_t n, unsigned width, F&& fn) {
  if (n == 0) return;
  if (!ex || width <= 1 || n == 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  using fn_t = std::remove_reference_t<F>;
  auto loop = std::make_shared<detail::parallel_loop>();
  loop->n = n;
  loop->fn = const_cast<void*>(static_cast<const void*>(std::addressof(fn)));
  loop->call = [](void* f, std::size_t i) { (*static_cast<fn_t*>(f))(i); };
  const auto helpers = static_cast<unsigned>(std::min<std::size_t>(width, n) - 1);
  try {
    ex->post_copies([loop] { loop->work(); }, helpers);
  } catch (...) {
    // An executor that cannot take more: the caller does the rest.
  }
  loop->work();
  loop->wait();
  if (loop->error) std::rethrow_exception(loop->error);
}

}  // namespace vqm
