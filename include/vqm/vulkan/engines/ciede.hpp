// Vulkan engine of ciede: ciede.comp computes every pixel's ΔE in double with certified float roundings
// (docs/spec-float-features.md, "ciede on Vulkan"); a pixel it cannot certify comes back as NaN with its
// six 4:4:4 samples, and the host computes it with the Cpu kernel's function (glibc). The host then adds
// the float ΔE serially in double, row-major, as libvmaf does: the per-pixel values are read back.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "vqm/cpu/ciede.hpp"
#include "vqm/metrics/ciede.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/ciede.hpp"

namespace vqm::vulkan {

// Pixels seen and pixels the host computed (tests and docs/performance.md read them).
struct ciede_counters {
  static std::atomic<std::uint64_t>& pixels() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
  static std::atomic<std::uint64_t>& fallbacks() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
};

class ciede_program final : public program {
 public:
  static std::unique_ptr<program> make(program_env& env, std::uint32_t libvmaf, std::uint32_t) {
    return std::make_unique<ciede_program>(env, libvmaf != 0);
  }

  ciede_program(program_env& env, bool libvmaf) : env_(env), l_(env.layout), libvmaf_(libvmaf) {
    pipe_ = &env.shared.pipeline(spirv::ciede, 4, 15 * 4);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 4 * slots);
    de_.resize(env.slots);
    side_.resize(env.slots);
    sets_.resize(env.slots, VK_NULL_HANDLE);
    // VQM_CIEDE_FALLBACK=all: every pixel goes to the host (tests the fallback path).
    const char* f = std::getenv("VQM_CIEDE_FALLBACK");
    force_ = f && std::strcmp(f, "all") == 0;
  }
  [[nodiscard]] int stages() const noexcept override { return 1; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 4; }
  [[nodiscard]] int planes() const noexcept override { return 3; }

  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    const std::uint64_t n = pixels();
    de_[s] = buffer(env_.ctx, n * 4, memory_kind::readback);
    side_[s] = buffer(env_.ctx, n * 12, memory_kind::readback);
    sets_[s] = pool_.allocate(pipe_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, de_[s].range(),
                           side_[s].range(), VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }

  void record(VkCommandBuffer cb, std::size_t slot, int) override {
    const auto& f = l_.format;
    const bool gray = l_.planes == 1;
    const std::uint32_t mode = (libvmaf_ ? 1u : 0u) | (f.chroma == chroma_format::yuv444 && !gray ? 2u : 0u) |
                               (f.chroma == chroma_format::yuv420 || gray ? 4u : 0u) | (gray ? 8u : 0u) |
                               (force_ ? 16u : 0u);
    struct {
      std::uint32_t off[6], stride[3], width, height, bpc, mode, slot, result_word;
    } pc{};
    for (int pic = 0; pic < 2; ++pic)
      for (int p = 0; p < 3; ++p) pc.off[3 * pic + p] = p < l_.planes ? l_.word(pic, p) : 0;
    for (int p = 0; p < 3; ++p) pc.stride[p] = p < l_.planes ? l_.stride_words(p) : 0;
    pc.width = f.width;
    pc.height = f.height;
    pc.bpc = f.bit_depth;
    pc.mode = mode;
    pc.slot = static_cast<std::uint32_t>(slot);
    pc.result_word = result_offset / 4;
    static_assert(sizeof(pc) == 15 * 4);
    pipe_->bind(cb, sets_[slot]);
    pipe_->push(cb, pc);
    const std::uint32_t groups = div_up(pixels() + 1, 256), gx = std::min<std::uint32_t>(groups, 32768);
    pipe_->dispatch(cb, gx, div_up(groups, gx), 1);
  }

  // libvmaf's serial double sum of the slot's per-pixel ΔE, the host computing the failed pixels.
  [[nodiscard]] double sum(std::size_t slot) const {
    const auto& de = de_[slot];
    const auto& side = side_[slot];
    de.invalidate();
    const auto* v = de.as<const float>();
    const std::uint64_t n = pixels();
    const std::uint32_t bpc = l_.format.bit_depth;
    double total = 0.;
    std::uint64_t failed = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      float d = v[i];
      if (std::isnan(d)) {
        if (failed++ == 0) side.invalidate();
        const auto* w = side.as<const std::uint32_t>() + 3 * i;
        const auto lo = [&](int k) { return static_cast<double>(w[k] & 0xffffu); };
        const auto hi = [&](int k) { return static_cast<double>(w[k] >> 16); };
        d = cpu::ciede::delta_e(cpu::ciede::lab_color(lo(0), hi(0), lo(1), bpc),
                                cpu::ciede::lab_color(hi(1), lo(2), hi(2), bpc));
      }
      total += static_cast<double>(d);
    }
    ciede_counters::pixels() += n;
    ciede_counters::fallbacks() += failed;
    return total;
  }

 private:
  [[nodiscard]] std::uint64_t pixels() const noexcept { return std::uint64_t{l_.format.width} * l_.format.height; }

  program_env& env_;
  detail::frame_layout l_;
  bool libvmaf_;
  bool force_ = false;
  const compute_pipeline* pipe_ = nullptr;
  descriptor_pool pool_;
  std::vector<buffer> de_, side_;
  std::vector<VkDescriptorSet> sets_;
};

struct ciede_engine {
  void ciede(frame& f, const ciede_request& q, ciede_partials& out) const {
    require_float64(f, "ciede", "libvmaf's double colour arithmetic");
    f.add({.key = {&ciede_program::make, q.libvmaf ? 1u : 0u, 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    std::uint32_t slot;
    std::memcpy(&slot, slice, 4);
    static_cast<ciede_partials*>(j.out)->de_sum = static_cast<const ciede_program&>(p).sum(slot);
  }
};

}  // namespace vqm::vulkan
