// vulkan::frame — what the Vulkan backend records for one frame pair: the pictures and a short list of
// jobs. A job names the program (per-format GPU work, vulkan/program.hpp) it runs on, the partials it
// fills and how to decode them; the engines (vulkan/engines/) add jobs, the backend runs them at submit.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"
#include "vqm/vulkan/gpu_picture.hpp"

namespace vqm {
class Vulkan;
}

namespace vqm::vulkan {

class context;
class program;
struct program_env;

// Which program a job runs on. Programs are built once per frame format and cached by (make, id); in one
// frame, the jobs with the same (make, id) share one program built with the largest `width` any of them
// asks for (psnr's luma-only and chroma SSE, float_psnr's luma SSE: one 3-plane dispatch).
struct program_key {
  using factory = std::unique_ptr<program> (*)(program_env& env, std::uint32_t id, std::uint32_t width);
  factory make = nullptr;
  std::uint32_t id = 0;     // e.g. ssim's scale: distinct programs of one factory
  std::uint32_t width = 0;  // e.g. sse's plane count: merged by max within a frame
};

struct job {
  program_key key;
  // On the host once the frame has completed: reads the program's slice of the slot's result block
  // (`slice` = block + program.result_offset) into *out.
  void (*decode)(const job& j, const program& p, const std::byte* slice) = nullptr;
  void* out = nullptr;              // the partials struct; valid until the frame is waited for
  void* out2 = nullptr;             // a second one, for a job that serves two requests (VMAF and NEG), or null
  void* state = nullptr;            // a temporal engine's state object (vulkan/temporal.hpp), or null
  std::array<std::uint32_t, 4> arg{};  // engine-defined (plane count, bit depth, position in the sequence)
};

class frame {
 public:
  static constexpr std::size_t max_jobs = 64;  // e.g. several VMAF models with their own feature options

  frame() = default;

  // The pictures' geometry (a GPU-resident picture's views have no host data: engines read only sizes).
  [[nodiscard]] const picture_view& ref() const noexcept { return ref_; }
  [[nodiscard]] const picture_view& dis() const noexcept { return dis_; }
  // The device the frame will run on (engines check its features when they record).
  [[nodiscard]] const context& device() const noexcept { return *ctx_; }

  void add(const job& j) {
    if (count_ == jobs_.size()) throw error(errc::invalid_argument, "too many metrics recorded into one Vulkan frame");
    jobs_[count_++] = j;
  }
  // Lets a job added earlier serve a new request too (two that differ only in a gain limit share a pass):
  // take(job&) may amend the job and returns whether it took the request over. False when none did.
  template <class Join>
  bool join(Join&& take) {
    for (std::size_t i = 0; i < count_; ++i)
      if (take(jobs_[i])) return true;
    return false;
  }
  // Uploads at least the first `planes` planes of the pair, whatever the jobs need.
  void upload_at_least(int planes) noexcept { min_planes_ = std::max(min_planes_, planes); }

  [[nodiscard]] bool empty() const noexcept { return count_ == 0 && min_planes_ == 0; }

 private:
  friend class ::vqm::Vulkan;
  picture_view ref_{}, dis_{};
  std::array<gpu_picture, 2> gpu_{};  // [0] ref, [1] dis: the source of picture i when gpu_mask_ bit i is set
  unsigned gpu_mask_ = 0;
  const context* ctx_ = nullptr;
  std::array<job, max_jobs> jobs_{};
  std::size_t count_ = 0;
  int min_planes_ = 0;
  int slot_ = -1;
  std::uint64_t ticket_ = 0;
};

}  // namespace vqm::vulkan
