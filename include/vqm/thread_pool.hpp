// vqm::thread_pool: vqm's one thread pool, an executor (executor.hpp) with a fixed set of persistent
// workers, so a batch of work costs a wake-up, not thread creation. The Cpu backend posts whole frames to
// it; the loop filter and the Vulkan plane copies run parallel_for() on it. A caller may share one pool
// between several backends, or pass its own executor instead.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/executor.hpp"

namespace vqm {

// What a pool does when the system cannot start every thread asked for.
enum class thread_start {
  all,                  // throw vqm::error (the threads already started are stopped first)
  as_many_as_possible,  // run with those it got (results never depend on the thread count)
};

class thread_pool final : public executor {
 public:
  explicit thread_pool(unsigned threads, thread_start policy = thread_start::all) {
    try {
      workers_.reserve(threads);
      for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { loop(); });
    } catch (const std::exception& e) {
      if (policy == thread_start::as_many_as_possible) return;
      const auto started = workers_.size();
      stop_and_join();
      std::string m = "cannot start ";
      m += std::to_string(threads);
      m += " threads (";
      m += std::to_string(started);
      m += " started: ";
      m += e.what();
      m += "); ask for fewer threads, or raise the limit that stopped them (ulimit -u, ulimit -v)";
      throw error(errc::invalid_argument, m);
    }
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;
  // Runs every task already posted, then stops the workers.
  ~thread_pool() override { stop_and_join(); }

  // A task must not throw (as with std::thread, one that does ends the program). With no worker (none
  // could be started), the task runs inline.
  void post(std::function<void()> task) override {
    if (workers_.empty()) return task();
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
  }
  // One lock and one wake-up call for all copies.
  void post_copies(const std::function<void()>& task, unsigned copies) override {
    if (workers_.empty() || copies == 0) return executor::post_copies(task, copies);
    {
      std::lock_guard lock(mutex_);
      for (unsigned i = 0; i < copies; ++i) tasks_.push_back(task);
    }
    if (copies == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
  }
  // The worker threads (0 when none could be started).
  [[nodiscard]] unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()); }
  [[nodiscard]] unsigned concurrency() const noexcept override { return size() ? size() : 1; }

 private:
  void stop_and_join() noexcept {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_)
      if (w.joinable()) w.join();
  }
  void loop() noexcept {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping, and nothing left to run
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> workers_;
  bool stop_ = false;
};

}  // namespace vqm
