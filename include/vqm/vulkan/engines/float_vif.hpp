// Vulkan schedule of float_vif (float_vif.comp, docs/spec-float-features.md): the float lumas, then per
// scale s the decimation to s+1, the per-pixel terms of s, its row sums and its serial total, overlapped
// in 7 rounds (round t: stats of t−1, down to t, rows of t−2, total of t−3). Kernel scale 1 only (the
// taps travel as push constants).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vqm/metrics/float_vif.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/detail/request_registry.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/spirv/float_vif.hpp"

namespace vqm::vulkan {

namespace detail {
[[nodiscard]] inline bool same_float_vif_request(const float_vif_request& a, const float_vif_request& b) noexcept {
  return a.gain_limit == b.gain_limit && a.sigma_nsq == b.sigma_nsq && a.kernelscale == b.kernelscale &&
         a.skip_scale0 == b.skip_scale0;
}
using float_vif_requests = request_registry<float_vif_request, same_float_vif_request>;
}  // namespace detail

class float_vif_program final : public program {
 public:
  struct push {
    double nsq;
    std::uint32_t mode, n, w, h, in_w, in_h, src[2], dst[2];
    float egl, smi;
    float taps[17];
  };
  static_assert(sizeof(push) == 128);

  static std::unique_ptr<program> make(program_env& env, std::uint32_t id, std::uint32_t) {
    return std::make_unique<float_vif_program>(env, id);
  }

  float_vif_program(program_env& env, std::uint32_t id)
      : env_(env), l_(env.layout), q_(detail::float_vif_requests::at(id)) {
    pipe_ = &env.shared.pipeline(spirv::float_vif, 3, sizeof(push));
    std::uint32_t off = 0;
    for (int s = 0; s < 4; ++s) {
      w_[s] = s == 0 ? l_.width[0] : w_[s - 1] / 2;
      h_[s] = s == 0 ? l_.height[0] : h_[s - 1] / 2;
      for (auto& o : img_[s]) {
        o = off;
        off += w_[s] * h_[s];
      }
      terms_[s] = off;
      off += 2 * w_[s] * h_[s];
      rows_[s] = off;
      off += 2 * h_[s];
      taps_[s] = fvif::filter_taps(s, 1.0f);
    }
    floats_ = off;
    const float nsq = static_cast<float>(q_.sigma_nsq);
    smi_ = static_cast<float>(static_cast<double>(nsq * nsq) / (255.0 * 255.0));
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = descriptor_pool(env.ctx, slots, 3 * slots);
    scratch_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
  }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    scratch_[s] = buffer(env_.ctx, std::uint64_t{floats_} * 4, memory_kind::device_local);
    sets_[s] = pool_.allocate(pipe_->set_layout());
    write_storage_buffers(env_.ctx, sets_[s],
                          {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, scratch_[s].range(),
                           VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE}});
  }
  [[nodiscard]] int stages() const noexcept override { return 7; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 8 * 4; }
  [[nodiscard]] int planes() const noexcept override { return 1; }

  void record(VkCommandBuffer cb, std::size_t slot, int t) override {
    pipe_->bind(cb, sets_[slot]);
    if (t == 0) {
      push p = base(0, 0);
      p.in_w = l_.stride_words(0);
      p.in_h = l_.format.bit_depth;
      p.src[0] = l_.word(0, 0);
      p.src[1] = l_.word(1, 0);
      p.dst[0] = img_[0][0];
      p.dst[1] = img_[0][1];
      run(cb, p, div_up(w_[0], 8), div_up(h_[0], 8));
      return;
    }
    if (const int s = t - 1; s <= 3 && computed(s)) {  // the terms of scale s
      push p = base(2, s);
      p.src[0] = img_[s][0];
      p.src[1] = img_[s][1];
      p.dst[0] = terms_[s];
      run(cb, p, div_up(w_[s], 8), div_up(h_[s], 8));
    }
    if (const int s = t; s <= 3) {  // scale s from s − 1
      push p = base(1, s);
      p.in_w = w_[s - 1];
      p.in_h = h_[s - 1];
      p.src[0] = img_[s - 1][0];
      p.src[1] = img_[s - 1][1];
      p.dst[0] = img_[s][0];
      p.dst[1] = img_[s][1];
      run(cb, p, div_up(w_[s], 8), div_up(h_[s], 8));
    }
    if (const int s = t - 2; s >= 0 && s <= 3 && computed(s)) {  // row sums of scale s
      push p = base(3, s);
      p.src[0] = terms_[s];
      p.dst[0] = rows_[s];
      run(cb, p, div_up(h_[s], 8), 1);
    }
    if (const int s = t - 3; s >= 0 && computed(s)) {  // total of scale s
      push p = base(4, s);
      p.src[0] = rows_[s];
      p.dst[0] = result_offset / 4 + 2 * static_cast<std::uint32_t>(s);
      run(cb, p, 1, 1);
    }
  }
  [[nodiscard]] bool computed(int s) const noexcept { return s > 0 || !q_.skip_scale0; }

 private:
  push base(std::uint32_t mode, int s) const {
    push p{};
    p.nsq = q_.sigma_nsq;
    p.mode = mode;
    const auto& f = taps_[static_cast<std::size_t>(s)];
    p.n = static_cast<std::uint32_t>(f.size());
    std::memcpy(p.taps, f.data(), f.size() * sizeof(float));
    p.w = w_[s];
    p.h = h_[s];
    p.egl = static_cast<float>(q_.gain_limit);
    p.smi = smi_;
    return p;
  }
  void run(VkCommandBuffer cb, const push& p, std::uint32_t gx, std::uint32_t gy) {
    pipe_->push(cb, p);
    pipe_->dispatch(cb, gx, gy, 1);
  }

  program_env& env_;
  detail::frame_layout l_;
  float_vif_request q_;
  const compute_pipeline* pipe_ = nullptr;
  std::array<std::uint32_t, 4> w_{}, h_{}, terms_{}, rows_{};
  std::array<std::array<std::uint32_t, 2>, 4> img_{};
  std::array<std::vector<float>, 4> taps_;
  std::uint32_t floats_ = 0;
  float smi_ = 0;
  descriptor_pool pool_;
  std::vector<buffer> scratch_;
  std::vector<VkDescriptorSet> sets_;
};

struct float_vif_engine {
  void float_vif(frame& f, const float_vif_request& q, float_vif_partials& out) const {
    if (q.kernelscale != 1.0f || q.sigma_nsq == 0.0)
      throw error(errc::unsupported_format,
                  "float_vif on Vulkan supports vif_kernelscale=1 and vif_sigma_nsq > 0 only (use the Cpu backend)");
    require_float64(f, "float_vif", "libvmaf's double quotients");
    f.add({.key = {&float_vif_program::make, detail::float_vif_requests::index(q), 0}, .decode = &decode, .out = &out});
  }

 private:
  static void decode(const job& j, const program& p, const std::byte* slice) {
    const auto& prog = static_cast<const float_vif_program&>(p);
    auto& o = *static_cast<float_vif_partials*>(j.out);
    float v[8];
    std::memcpy(v, slice, sizeof v);
    for (int s = 0; s < 4; ++s) {
      o.num[s] = prog.computed(s) ? v[2 * s] : 0.0f;
      o.den[s] = prog.computed(s) ? v[2 * s + 1] : 0.0f;
    }
  }
};

}  // namespace vqm::vulkan
