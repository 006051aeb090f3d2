// A small persistent pool: run(n, fn) calls fn(0..n-1) on the pool and the calling thread, then returns.
// Persistent so a batch costs a wake-up, not thread creation.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace vqm::lpf::detail {

class thread_pool {
 public:
  // When the system cannot start every worker, the pool runs with those it got (results do not depend
  // on the number of threads; at worst the calling thread does all the work) instead of terminating.
  explicit thread_pool(unsigned workers) {
    try {
      threads_.reserve(workers);
      for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { loop(); });
    } catch (const std::exception&) {
    }
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;
  ~thread_pool() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  [[nodiscard]] unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }

  void run(std::size_t n, const std::function<void(std::size_t)>& fn) {
    if (threads_.empty() || n <= 1) {
      for (std::size_t i = 0; i < n; ++i) fn(i);
      return;
    }
    {
      std::lock_guard lock(m_);
      job_ = &fn;
      n_ = n;
      next_.store(0);
      pending_ = threads_.size();
      ++generation_;
    }
    cv_.notify_all();
    work();
    std::unique_lock lock(m_);
    done_cv_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void work() {
    for (std::size_t i; (i = next_.fetch_add(1)) < n_;) {
      try {
        (*job_)(i);
      } catch (...) {
        std::lock_guard lock(m_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
  void loop() {
    std::size_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      work();
      std::lock_guard lock(m_);
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::size_t n_ = 0, pending_ = 0, generation_ = 0;
  std::atomic<std::size_t> next_{0};
  std::exception_ptr error_;
  bool stop_ = false;
};

}  // namespace vqm::lpf::detail
