// copy_pool: the host-side plane copies of a frame split over a few threads. One thread's memcpy into
// write-combined upload memory is slower than a GPU scores the cheap metrics; a handful of threads reach
// the memory bandwidth (docs/performance.md). run() blocks until every piece is copied; the calling
// thread copies too. With 1 thread (one core, or VQM_VULKAN_COPY_THREADS=1) it is a plain loop of
// memcpy. The other threads are vqm's thread_pool (started on the first large copy) or the caller's
// executor (vulkan::context_options::pool).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "vqm/executor.hpp"
#include "vqm/thread_pool.hpp"

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
  // Copies on the caller's executor (null: vqm's own pool), with at most default_threads() threads
  // counting the caller's.
  explicit copy_pool(executor* ex, unsigned threads = default_threads()) : copy_pool(threads) {
    if (ex) {
      ex_ = ex;
      threads_ = std::min(threads_, ex->concurrency() + 1);
    }
  }
  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;

  [[nodiscard]] unsigned threads() const noexcept { return threads_; }

  // `height` rows of `row` bytes from src (rows `src_stride` apart) to dst (rows `dst_stride` apart):
  // one piece when both are packed.
  static void add_rows(std::vector<piece>& out, std::byte* dst, std::size_t dst_stride, const std::byte* src,
                       std::ptrdiff_t src_stride, std::size_t row, std::uint32_t height) {
    if (src_stride == static_cast<std::ptrdiff_t>(row) && row == dst_stride) {
      out.push_back({dst, src, row * height});
      return;
    }
    for (std::uint32_t y = 0; y < height; ++y)
      out.push_back({dst + std::size_t{y} * dst_stride, src + static_cast<std::ptrdiff_t>(y) * src_stride, row});
  }

  // Copies every piece (returns their bytes); large pieces are cut so that each thread gets a share.
  std::size_t run(const std::vector<piece>& pieces) {
    std::size_t total = 0;
    for (const auto& p : pieces) total += p.bytes;
    if (threads_ == 1 || total < (std::size_t{1} << 20)) {
      for (const auto& p : pieces)
        if (p.bytes) std::memcpy(p.dst, p.src, p.bytes);  // an empty piece may have null pointers
      return total;
    }
    if (!ex_) {
      // Threads the system cannot start are done without: the caller copies what they would have.
      own_ = std::make_unique<thread_pool>(threads_ - 1, thread_start::as_many_as_possible);
      threads_ = own_->size() + 1;
      ex_ = own_.get();
    }
    // ~4 chunks per thread, multiples of 4 KiB, so that uneven threads still finish together.
    const std::size_t chunk = std::max<std::size_t>(64 << 10, (total / (4 * threads_) + 4095) & ~std::size_t{4095});
    chunks_.clear();
    for (const auto& p : pieces)
      for (std::size_t off = 0; off < p.bytes; off += chunk)
        chunks_.push_back({p.dst + off, p.src + off, std::min(chunk, p.bytes - off)});
    parallel_for(ex_, chunks_.size(), threads_,
                 [this](std::size_t i) { std::memcpy(chunks_[i].dst, chunks_[i].src, chunks_[i].bytes); });
    return total;
  }

 private:
  unsigned threads_;
  executor* ex_ = nullptr;
  std::unique_ptr<thread_pool> own_;  // vqm's pool when the caller gave none
  std::vector<piece> chunks_;
};

}  // namespace vqm::vulkan::detail
