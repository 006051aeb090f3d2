// copy_pool: the host-side plane copies of a frame (6.2 MB at 1080p 4:2:0 8-bit) split over a few threads.
// One thread's memcpy into write-combined upload memory tops out near 15 GB/s, below the ~2,000 fps a
// GPU sustains; a handful of threads reach the memory bandwidth. run() blocks until every piece is
// copied; the calling thread copies too. With 1 thread (one core, or VQM_VULKAN_COPY_THREADS=1) it is a
// plain loop of memcpy.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace vqm::vulkan::detail {

class copy_pool {
 public:
  struct piece {
    std::byte* dst;
    const std::byte* src;
    std::size_t bytes;
  };

  // Threads that copy (including the caller's): VQM_VULKAN_COPY_THREADS, else min(4, cores).
  [[nodiscard]] static unsigned default_threads() noexcept {
    if (const char* v = std::getenv("VQM_VULKAN_COPY_THREADS"); v && *v) return std::clamp(std::atoi(v), 1, 64);
    return std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  }

  explicit copy_pool(unsigned threads = default_threads()) : threads_(std::max(threads, 1u)) {}
  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;
  ~copy_pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  [[nodiscard]] unsigned threads() const noexcept { return threads_; }

  // Copies every piece; large pieces are cut so that each thread gets a share.
  void run(const std::vector<piece>& pieces) {
    std::size_t total = 0;
    for (const auto& p : pieces) total += p.bytes;
    if (threads_ == 1 || total < (std::size_t{1} << 20)) {
      for (const auto& p : pieces) std::memcpy(p.dst, p.src, p.bytes);
      return;
    }
    if (workers_.empty()) {
      // Threads the system cannot start are done without: the caller copies what they would have.
      try {
        for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this] { work(); });
      } catch (const std::exception&) {
        threads_ = static_cast<unsigned>(workers_.size()) + 1;
      }
    }
    // ~4 chunks per thread, multiples of 4 KiB, so that uneven threads still finish together.
    const std::size_t chunk = std::max<std::size_t>(64 << 10, (total / (4 * threads_) + 4095) & ~std::size_t{4095});
    {
      // Under the lock, with no worker inside copy_chunks(): a worker woken late joins this run.
      std::lock_guard lock(mutex_);
      while (busy_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
      chunks_.clear();
      for (const auto& p : pieces)
        for (std::size_t off = 0; off < p.bytes; off += chunk)
          chunks_.push_back({p.dst + off, p.src + off, std::min(chunk, p.bytes - off)});
      next_.store(0, std::memory_order_relaxed);
      left_.store(chunks_.size(), std::memory_order_relaxed);
      ++generation_;
    }
    wake_.notify_all();
    copy_chunks();
    while (left_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
  }

 private:
  void copy_chunks() {
    for (;;) {
      const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= chunks_.size()) return;
      std::memcpy(chunks_[i].dst, chunks_[i].src, chunks_[i].bytes);
      left_.fetch_sub(1, std::memory_order_release);
    }
  }
  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        busy_.fetch_add(1, std::memory_order_acq_rel);
      }
      copy_chunks();
      busy_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  unsigned threads_;
  std::vector<std::thread> workers_;
  std::vector<piece> chunks_;
  std::atomic<std::size_t> next_{0}, left_{0};
  std::atomic<unsigned> busy_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

}  // namespace vqm::vulkan::detail
