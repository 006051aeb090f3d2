// cpu::frame — what the Cpu backend records for one frame pair: the pictures and a short list of kernel
// calls, run at submit time on the caller's thread or on the pool.
#pragma once

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

class frame {
 public:
  frame() = default;
  frame(const picture_view& ref, const picture_view& dis) : ref_(ref), dis_(dis) {}
  // Views into scratch (planar copies of semi-planar input, cpu/semi_planar.hpp) that `scratch` keeps
  // alive as long as the frame or a copy of it (its pool task) exists.
  frame(const picture_view& ref, const picture_view& dis, std::shared_ptr<const void> scratch)
      : ref_(ref), dis_(dis), scratch_(std::move(scratch)) {}

  [[nodiscard]] const picture_view& ref() const noexcept { return ref_; }
  [[nodiscard]] const picture_view& dis() const noexcept { return dis_; }

  // Records Fn(ref, dis, request, out) to run at submit time. The request is copied into the frame (it
  // must be trivially copyable and small), so a frame can be copied into a pool task without allocating.
  template <auto Fn, class Req, class Out>
  void record(const Req& q, Out& out) {
    static_assert(std::is_trivially_copyable_v<Req> && sizeof(Req) <= request_bytes &&
                  alignof(Req) <= alignof(std::max_align_t));
    job& j = next();
    j.out = &out;
    std::memcpy(j.request.data(), &q, sizeof q);
    j.run = &invoke<Fn, Req, Out>;
  }

  // Lets a call recorded earlier share its pass with a new one (VMAF and NEG: two requests that differ
  // only in a gain limit): for the calls to Fn recorded with request type Req, take(req) may amend the
  // request in place and returns whether it took the new call over. False when there is none or none took
  // it; the caller then records its own.
  template <auto Fn, class Req, class Out, class Join>
  bool join(Join&& take) {
    for (std::size_t i = 0; i < count_; ++i) {
      job& j = i < jobs_.size() ? jobs_[i] : more_[i - jobs_.size()];
      if (j.run != &invoke<Fn, Req, Out>) continue;
      Req req;
      std::memcpy(&req, j.request.data(), sizeof req);
      if (!take(req)) continue;
      std::memcpy(j.request.data(), &req, sizeof req);
      return true;
    }
    return false;
  }

  // Runs the recorded calls in order.
  void run() const {
    for (std::size_t i = 0; i < count_; ++i) {
      const job& j = i < jobs_.size() ? jobs_[i] : more_[i - jobs_.size()];
      j.run(j, ref_, dis_);
    }
  }

  // Completion of a frame handed to a pool (shared between the frame and its task).
  struct completion {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr error;
  };
  std::shared_ptr<completion> pending;

 private:
  static constexpr std::size_t request_bytes = 256;
  struct job {
    void (*run)(const job&, const picture_view& ref, const picture_view& dis) = nullptr;
    void* out = nullptr;
    alignas(std::max_align_t) std::array<std::byte, request_bytes> request{};
  };
  template <auto Fn, class Req, class Out>
  static void invoke(const job& self, const picture_view& r, const picture_view& d) {
    Req req;
    std::memcpy(&req, self.request.data(), sizeof req);
    Fn(r, d, req, *static_cast<Out*>(self.out));
  }
  job& next() {
    if (count_ < jobs_.size()) return jobs_[count_++];
    ++count_;
    return more_.emplace_back();
  }
  picture_view ref_{}, dis_{};
  std::shared_ptr<const void> scratch_;
  std::array<job, 16> jobs_{};  // enough for the usual runs: copying the frame into a pool task allocates nothing
  std::vector<job> more_;       // the rest, e.g. every VMAF v1 model in one run
  std::size_t count_ = 0;
};

}  // namespace vqm::cpu
