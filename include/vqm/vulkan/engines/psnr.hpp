// Vulkan schedule of integer PSNR: exact Σ (a − b)² per plane in uint64 (sse.comp per row band, then
// reduce_u64 into the result block: banded_sums). float_psnr runs on the same program (engines/float_psnr.hpp).
#pragma once

#include <cstdint>
#include <memory>

#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/vulkan/engines/banded_sums.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/sse.hpp"

namespace vqm::vulkan {

// Σ (a − b)² of the first `planes` planes (id 0), or of luma with float_psnr's round24 at 16 bits (id 1).
class sse_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t planes) {
    return std::make_unique<sse_program>(env, static_cast<int>(planes), id == 1);
  }
  [[nodiscard]] static program_key key(bool round24, std::uint32_t planes) noexcept {
    return {&make, round24 ? 1u : 0u, planes};
  }

  sse_program(program_env& env, int planes, bool round24)
      : l_(env.layout), planes_(planes), round24_(round24), sums_(env, spirv::sse, 80, 3, 4096) {}  // ~16 words a thread
  void ensure(std::size_t s) override { sums_.ensure(s); }
  [[nodiscard]] int stages() const noexcept override { return 2; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 3 * 8; }
  [[nodiscard]] int planes() const noexcept override { return planes_; }

  void record(VkCommandBuffer cb, std::size_t slot, int stage) override {
    const auto z = static_cast<std::uint32_t>(planes_);
    if (stage == 0) {
      struct {
        std::uint32_t ref_off[3], dis_off[3], stride[3], width[3], height[3];
        std::uint32_t bpc, rows_per_group, groups, round24, partial_base;
      } pc{};
      for (int p = 0; p < planes_; ++p) {
        pc.ref_off[p] = l_.word(0, p);
        pc.dis_off[p] = l_.word(1, p);
        pc.stride[p] = l_.stride_words(p);
        pc.width[p] = l_.width[p];
        pc.height[p] = l_.height[p];
      }
      pc.bpc = l_.format.bit_depth;
      pc.rows_per_group = sums_.rows();
      pc.groups = sums_.groups();
      pc.round24 = round24_ ? 1 : 0;
      static_assert(sizeof(pc) == 80);
      sums_.record_pass1(cb, slot, pc, z);
    } else if (stage == 1) {
      sums_.record_reduce(cb, slot, result_offset, z);
    }
  }

 private:
  detail::frame_layout l_;
  int planes_;
  bool round24_;
  banded_sums sums_;
};

struct psnr_engine {
  void sse(frame& f, const sse_request& q, sse_partials& out) const {
    require_int64(f, "psnr", "exact integer sums");
    const std::uint32_t planes = (q.chroma && f.ref().format.planes() == 3) ? 3u : 1u;
    f.add({.key = sse_program::key(false, planes),
           .decode = &decode,
           .out = &out,
           .arg = {static_cast<std::uint32_t>(planes)}});
  }

 private:
  static void decode(const job& j, const program&, const std::byte* slice) {
    auto& o = *static_cast<sse_partials*>(j.out);
    for (std::uint32_t p = 0; p < j.arg[0]; ++p) o.sse[p] = banded_sums::sum(slice, p);  // plane p
  }
};

}  // namespace vqm::vulkan
