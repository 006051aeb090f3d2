// A small fixed-size thread pool: the Cpu backend runs whole frames on it.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "vqm/error.hpp"

namespace vqm::cpu {

class thread_pool {
 public:
  // Throws vqm::error (not std::terminate) when the system cannot start that many threads; the
  // threads already started are stopped first.
  explicit thread_pool(unsigned threads) {
    try {
      workers_.reserve(threads);
      for (unsigned i = 0; i < threads; ++i) start_worker();
    } catch (const std::exception& e) {
      stop_and_join();
      throw error(errc::invalid_argument, "cannot start " + std::to_string(threads) + " threads (" +
                                              std::to_string(workers_.size()) + " started: " + e.what() +
                                              "); use fewer threads");
    }
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;
  ~thread_pool() { stop_and_join(); }

  void post(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
  }
  [[nodiscard]] unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()); }

 private:
  void stop_and_join() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_)
      if (w.joinable()) w.join();
  }
  void start_worker() {
    workers_.emplace_back([this] {
      for (;;) {
        std::function<void()> task;
        {
          std::unique_lock lock(mutex_);
          cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
          if (stop_ && tasks_.empty()) return;
          task = std::move(tasks_.front());
          tasks_.pop_front();
        }
        task();
      }
    });
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> workers_;
  bool stop_ = false;
};

}  // namespace vqm::cpu
