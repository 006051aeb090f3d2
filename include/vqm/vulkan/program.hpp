// vulkan::program — one metric's GPU work for one frame format, as an engine (vulkan/engines/) defines it:
// its pipelines, per-slot scratch and descriptor sets, its dispatches stage by stage and the size of its
// slice of the slot's result block. The backend builds programs on a format's first frame (through the
// factory in a job's program_key), records stage i of every program of a frame, then one barrier, and
// knows nothing else about them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/pipeline.hpp"

namespace vqm::vulkan {

[[nodiscard]] constexpr std::uint32_t div_up(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

// Objects programs share and the backend keeps across format changes: pipelines (keyed by their SPIR-V)
// and constant objects such as filter tables (keyed by type, built from the context on first use).
class shared_objects {
 public:
  explicit shared_objects(context& ctx) : ctx_(ctx) {}

  template <std::size_t N>
  const compute_pipeline& pipeline(const std::uint32_t (&code)[N], std::uint32_t storage_buffers,
                                   std::uint32_t push_bytes, const specialization& spec = {}) {
    auto& p = pipelines_[static_cast<const void*>(code)];
    if (!p) p = std::make_unique<compute_pipeline>(ctx_, std::span<const std::uint32_t>(code, N), storage_buffers,
                                                   push_bytes, spec);
    return *p;
  }
  template <class T>
  T& get() {
    static const char tag = 0;
    auto& o = objects_[&tag];
    if (!o) o = std::make_shared<T>(ctx_);
    return *static_cast<T*>(o.get());
  }

 private:
  context& ctx_;
  std::map<const void*, std::unique_ptr<compute_pipeline>> pipelines_;
  std::map<const void*, std::shared_ptr<void>> objects_;
};

// Per slot: the buffers every program binds.
struct slot_buffers {
  std::vector<VkBuffer> input;    // the frame pair's planes (frame_layout)
  std::vector<VkBuffer> results;  // the small host-visible result block the kernels write
};

// What the backend gives the programs of one frame format.
struct program_env {
  context& ctx;
  const detail::frame_layout& layout;
  const slot_buffers& buffers;  // filled per slot before that slot's first frame (program::ensure)
  std::size_t slots = 0;
  shared_objects& shared;
};

// The one scheduling hint a program may give: how its stages load the device. A program whose last
// stages are latency-bound (a serial walk: few workgroups, most of the device idle for a long time)
// names the first of them; it then starts with the frame and is recorded first in each round, and every
// other program is delayed so that its heaviest stage runs beside that first latency-bound stage instead
// of before or after it (the barriers between rounds are global).
struct schedule_hint {
  int heaviest_stage = 0;       // the stage with the most parallel work
  int latency_bound_from = -1;  // the first of the trailing latency-bound stages; -1: none

  [[nodiscard]] constexpr bool latency_bound() const noexcept { return latency_bound_from >= 0; }
};

class program {
 public:
  program() = default;
  program(const program&) = delete;
  program& operator=(const program&) = delete;
  virtual ~program() = default;

  // Dependent rounds of dispatches; the backend puts a compute -> compute barrier between rounds.
  [[nodiscard]] virtual int stages() const noexcept = 0;
  // Bytes of the slot's result block this program writes (the backend assigns result_offset).
  [[nodiscard]] virtual std::uint32_t result_bytes() const noexcept = 0;
  // Planes of the pair it reads: 1 (luma) or 3.
  [[nodiscard]] virtual int planes() const noexcept { return 1; }
  // GPU-bound: the frame's planes go straight into a host-visible device buffer when one exists.
  [[nodiscard]] virtual bool gpu_bound() const noexcept { return false; }
  // How its stages load the device, for the backend's placement of rounds (schedule_hint).
  [[nodiscard]] virtual schedule_hint schedule() const noexcept { return {}; }
  // Reads device state written by earlier frames (vulkan/temporal.hpp): the frame then starts with a
  // barrier that also covers the compute writes of earlier submissions.
  [[nodiscard]] virtual bool temporal() const noexcept { return false; }

  // Creates slot `slot`'s scratch and descriptor sets on its first frame (its input and results buffers
  // exist by then): start-up pays for one slot only.
  virtual void ensure(std::size_t slot) = 0;
  // Host side, before recording: each job of the frame that runs on this program (per-frame arguments
  // such as a temporal state's ring positions). The slot's previous frame has completed.
  virtual void bind(std::size_t /*slot*/, const job& /*j*/) {}
  // Records round `stage` (0 .. stages() − 1) into cb.
  virtual void record(VkCommandBuffer cb, std::size_t slot, int stage) = 0;

  std::uint32_t result_offset = 0;  // bytes into the result block, assigned by the backend
};

// Device features an engine checks when it records (the error names the feature and the fix).
inline void require_int64(const frame& f, const char* metric, const char* why) {
  if (!f.device().has_int64())
    throw error(errc::backend_unavailable, "Vulkan device " + f.device().name() + " lacks shaderInt64, which " + metric +
                                               " needs (" + why + "): enable shaderInt64 on the device, or run " +
                                               metric + " on the Cpu backend");
}
inline void require_float64(const frame& f, const char* metric, const char* why) {
  if (!f.device().has_float64())
    throw error(errc::backend_unavailable, "Vulkan device " + f.device().name() + " lacks shaderFloat64, which " +
                                               metric + " needs (" + why + "): enable shaderFloat64 on the device, or run " +
                                               metric + " on the Cpu backend");
}

}  // namespace vqm::vulkan
