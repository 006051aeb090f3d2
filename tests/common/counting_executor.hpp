// A caller-provided executor for the tests: runs tasks on its own vqm::thread_pool and counts them, so a
// test can tell that a backend used it (and not a pool of its own).
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "vqm/thread_pool.hpp"

namespace vqm::test {

class counting_executor final : public executor {
 public:
  explicit counting_executor(unsigned threads) : pool_(std::make_unique<thread_pool>(threads)) {}
  ~counting_executor() override { drain(); }
  void post(std::function<void()> task) override {
    ++posted_;
    pool_->post([this, task = std::move(task)] {
      ++ran_;  // before the task: a waiter it releases sees it counted
      task();
    });
  }
  [[nodiscard]] unsigned concurrency() const noexcept override { return pool_->concurrency(); }
  [[nodiscard]] int posted() const noexcept { return posted_; }
  [[nodiscard]] int ran() const noexcept { return ran_; }
  // Runs what is still queued and stops the threads (ran() == posted() afterwards).
  void drain() { pool_.reset(); }

 private:
  std::atomic<int> posted_{0}, ran_{0};  // before pool_: its destructor's tasks still count
  std::unique_ptr<thread_pool> pool_;
};

}  // namespace vqm::test
