// The temporal path of the Vulkan backend, with a toy temporal engine defined here (test-only): float SSIM
// between the reference luma of the previous frame and of this one, the previous frame's normalised luma
// kept on the GPU in a vulkan::temporal_ring. The engine has the shape VMAF's motion will have
// (make_*_state(format, ring) + a kernel call taking the state) and is added to the backend the way a real
// one is: its own engine class, mixed into the backend (here by a derived class instead of a line in
// vulkan/engines.hpp). The results must equal the Cpu SSIM of consecutive reference frames exactly, with
// any number of frames in flight and beside other metrics in the same frames.
#include <gtest/gtest.h>

#include <deque>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu/ssim.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/engines/ssim_passes.hpp"
#include "vqm/vulkan/temporal.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

struct toy_partials {
  ssim_partials sums;
  bool computed = false;  // false for frame 0 (nothing before it)
};

class toy_program final : public vulkan::program {
 public:
  static std::unique_ptr<program> make(vulkan::program_env& env, std::uint32_t, std::uint32_t) {
    return std::make_unique<toy_program>(env);
  }
  explicit toy_program(vulkan::program_env& env) : env_(env), w_(env.layout.width[0]), h_(env.layout.height[0]) {
    namespace spirv = vulkan::spirv;
    using vulkan::detail::ssim_spec;
    prepare_ = &env.shared.pipeline(spirv::ssim_prepare, 5, 48, ssim_spec<spirv::ssim_prepare_constants>());
    hpass_ = &env.shared.pipeline(spirv::ssim_hpass, 5, 20, ssim_spec<spirv::ssim_hpass_constants>());
    vpass_ = &env.shared.pipeline(spirv::ssim_vpass, 5, 16, ssim_spec<spirv::ssim_vpass_constants>());
    reduce_ = &env.shared.pipeline(spirv::reduce_f64, 5, 12, ssim_spec<spirv::reduce_f64_constants>());
    table_ = env.shared.get<vulkan::detail::ssim_lowpass_table>().table.get();
    gx_ = vulkan::div_up(w_ - 10, 16);
    gy_ = vulkan::div_up(h_ - 10, 16);
    const auto slots = static_cast<std::uint32_t>(env.slots);
    pool_ = vulkan::descriptor_pool(env.ctx, slots, 5 * slots);
    partial_.resize(slots);
    sets_.resize(slots, VK_NULL_HANDLE);
    bound_.resize(slots, VK_NULL_HANDLE);
    at_.resize(slots);
  }
  [[nodiscard]] int stages() const noexcept override { return 4; }
  [[nodiscard]] std::uint32_t result_bytes() const noexcept override { return 32; }
  [[nodiscard]] bool temporal() const noexcept override { return true; }
  void ensure(std::size_t s) override {
    if (sets_[s]) return;
    partial_[s] = vulkan::buffer(env_.ctx, std::uint64_t{gx_} * gy_ * 32, vulkan::memory_kind::device_local);
    sets_[s] = pool_.allocate(prepare_->set_layout());
  }
  // The ring (created on its first frame) is binding 1; the set is rewritten only when it changes.
  void bind(std::size_t s, const vulkan::job& j) override {
    auto& ring = *static_cast<vulkan::temporal_ring*>(j.state);
    const vulkan::buffer& b = ring.storage(env_.ctx);
    if (bound_[s] != b.get()) {
      vulkan::write_storage_buffers(env_.ctx, sets_[s],
                                    {VkDescriptorBufferInfo{env_.buffers.input[s], 0, VK_WHOLE_SIZE}, b.range(),
                                     partial_[s].range(), VkDescriptorBufferInfo{env_.buffers.results[s], 0, VK_WHOLE_SIZE},
                                     VkDescriptorBufferInfo{table_, 0, VK_WHOLE_SIZE}});
      bound_[s] = b.get();
    }
    const auto extra = static_cast<std::uint32_t>(ring.extra_offset() / 4);
    at_[s] = {j.arg[0], j.arg[1], extra, extra + w_ * h_, j.arg[2] != 0};
  }
  void record(VkCommandBuffer cb, std::size_t s, int stage) override {
    const auto& a = at_[s];
    const auto& l = env_.layout;
    if (stage == 0) {  // this frame's reference luma into its entry (the distorted one into scratch)
      struct {
        std::uint32_t in_off[2], stride, width, height, bpc, scale, ow, oh, out_off[2];
        float k;
      } pc{{l.word(0, 0), l.word(1, 0)}, l.stride_words(0), w_, h_, l.format.bit_depth, 1, w_, h_, {a.cur, a.dump}, 1.0f};
      prepare_->bind(cb, sets_[s]);
      prepare_->push(cb, pc);
      prepare_->dispatch(cb, vulkan::div_up(w_, 16), vulkan::div_up(h_, 16), 2);
      return;
    }
    if (!a.computed) return;
    if (stage == 1) {  // the previous frame's entry against this one's
      const struct {
        std::uint32_t x_off, y_off, w, h, tmp_off;
      } pc{a.prev, a.cur, w_, h_, a.tmp};
      hpass_->bind(cb, sets_[s]);
      hpass_->push(cb, pc);
      hpass_->dispatch(cb, vulkan::div_up(w_ - 10, 16), vulkan::div_up(h_, 16));
    } else if (stage == 2) {
      const struct {
        std::uint32_t tmp_off, ow, h, partial_base;
      } pc{a.tmp, w_ - 10, h_, 0};
      vpass_->bind(cb, sets_[s]);
      vpass_->push(cb, pc);
      vpass_->dispatch(cb, gx_, gy_);
    } else if (stage == 3) {
      const struct {
        std::uint32_t count, in_base, out_base;
      } pc{gx_ * gy_, 0, result_offset / 32};
      reduce_->bind(cb, sets_[s]);
      reduce_->push(cb, pc);
      reduce_->dispatch(cb, 1);
    }
  }

 private:
  struct position {
    std::uint32_t cur = 0, prev = 0, dump = 0, tmp = 0;  // floats into the ring's buffer
    bool computed = false;
  };
  vulkan::program_env& env_;
  std::uint32_t w_, h_, gx_ = 0, gy_ = 0;
  const vulkan::compute_pipeline *prepare_ = nullptr, *hpass_ = nullptr, *vpass_ = nullptr, *reduce_ = nullptr;
  VkBuffer table_ = VK_NULL_HANDLE;
  vulkan::descriptor_pool pool_;
  std::vector<vulkan::buffer> partial_;
  std::vector<VkDescriptorSet> sets_;
  std::vector<VkBuffer> bound_;
  std::vector<position> at_;
};

// The engine: what a backend inherits to offer the toy metric.
struct toy_engine {
  // The state the metric holds: the ring of previous frames' normalised reference luma, and scratch
  // shared by the frames (they run one after the other).
  struct toy_state {
    std::shared_ptr<vulkan::temporal_ring> ring;
  };
  [[nodiscard]] toy_state make_toy_state(const picture_format& fmt, std::size_t ring) const {
    const std::uint64_t w = fmt.width, h = fmt.height;
    return {std::make_shared<vulkan::temporal_ring>(ring, w * h * 4, (w * h + 5 * (w - 10) * h) * 4)};
  }
  void toy(vulkan::frame& f, toy_state& s, toy_partials& out) const {
    vulkan::require_float64(f, "toy", "double sums");
    const std::uint64_t n = s.ring->advance();  // presentation order: the order of these calls
    vulkan::job j;
    j.key = {&toy_program::make, 0, 0};
    j.decode = &decode;
    j.out = &out;
    j.state = s.ring.get();
    j.arg[0] = static_cast<std::uint32_t>(s.ring->offset(n) / 4);
    j.arg[1] = n > 0 ? static_cast<std::uint32_t>(s.ring->offset(n - 1) / 4) : 0;
    j.arg[2] = n > 0 ? 1 : 0;
    f.add(j);
  }

 private:
  static void decode(const vulkan::job& j, const vulkan::program&, const std::byte* slice) {
    auto& o = *static_cast<toy_partials*>(j.out);
    o.computed = j.arg[2] != 0;
    o.sums = o.computed ? vulkan::detail::ssim_sums(slice) : ssim_partials{};
  }
};

class ToyVulkan : public Vulkan, public toy_engine {
 public:
  using Vulkan::Vulkan;
};

// The four SSIM means (float_ssim, _l, _c, _s) of a frame's sums: what a metric reports. The GPU adds the
// double terms per workgroup then in a tree, so the raw sums may differ from the Cpu's serial ones in the
// last bits; the binary32-rounded means are exact (docs/vulkan.md).
std::vector<double> means(const picture_format& fmt, const ssim_partials& p) {
  ssim_options o;
  o.scale = 1;
  o.enable_lcs = true;
  const ssim_algorithm a(fmt, o);
  std::vector<double> out(4);
  a.scores(p, out.data());
  return out;
}

// Runs the toy (and psnr when `with_psnr`) over the pairs with `depth` frames in flight.
std::vector<toy_partials> run_toy(ToyVulkan& v, const std::vector<picture>& ref, const std::vector<picture>& dis,
                                  std::size_t depth, bool with_psnr, std::vector<sse_partials>* psnr = nullptr) {
  auto state = v.make_toy_state(ref.front().format(), depth + 1);
  struct in_flight {
    Vulkan::frame f;
    std::size_t i;
  };
  std::vector<toy_partials> out(ref.size());
  std::vector<sse_partials> sse(ref.size());
  std::deque<in_flight> q;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    q.push_back({v.begin_frame(ref[i], dis[i]), i});
    if (with_psnr) v.sse(q.back().f, sse_request{}, sse[i]);
    v.toy(q.back().f, state, out[i]);
    v.submit(q.back().f);
    if (q.size() > depth) {
      v.wait(q.front().f);
      q.pop_front();
    }
  }
  for (auto& x : q) v.wait(x.f);
  if (psnr) *psnr = sse;
  return out;
}

TEST(VulkanTemporal, ToyEngineSeesThePreviousFrameInPresentationOrder) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto ref = read_all(fixture("astronaut_576x324_420p8_ref.y4m"));
  const auto dis = read_all(fixture("astronaut_576x324_420p8_x264crf35.y4m"));
  ASSERT_GE(ref.size(), 3u);
  const auto fmt = ref.front().format();
  ToyVulkan v(ctx);
  const auto got = run_toy(v, ref, dis, v.frames_in_flight(), false);
  ASSERT_FALSE(got[0].computed);
  for (std::size_t i = 1; i < ref.size(); ++i) {
    ASSERT_TRUE(got[i].computed) << i;
    const auto want = cpu::ssim(ref[i - 1].view().planes[0], ref[i].view().planes[0], ref[i].format().bit_depth, 1);
    EXPECT_EQ(means(fmt, got[i].sums), means(fmt, want)) << "frame " << i;
  }
  // One frame at a time gives the same, and so do frames shared with another metric.
  ToyVulkan w(ctx);
  const auto serial = run_toy(w, ref, dis, 1, false);
  std::vector<sse_partials> sse;
  const auto mixed = run_toy(w, ref, dis, w.frames_in_flight(), true, &sse);
  Cpu cpu;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    EXPECT_EQ(means(fmt, serial[i].sums), means(fmt, got[i].sums)) << i;
    EXPECT_EQ(means(fmt, mixed[i].sums), means(fmt, got[i].sums)) << i;
    sse_partials want;
    auto f = cpu.begin_frame(ref[i], dis[i]);
    cpu.sse(f, sse_request{}, want);
    cpu.submit(f);
    cpu.wait(f);
    EXPECT_EQ(sse[i].sse, want.sse) << i;
  }
}

// The state is a host object until its first frame; its device ring is made once, not per frame.
TEST(VulkanTemporal, StateAllocatesItsRingOnce) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto ref = read_all(fixture("astronaut_576x324_420p8_ref.y4m"));
  ToyVulkan v(ctx);
  auto state = v.make_toy_state(ref.front().format(), 2);
  EXPECT_EQ(state.ring->frames(), 0u);
  VkBuffer first = VK_NULL_HANDLE;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    toy_partials p;
    auto f = v.begin_frame(ref[i], ref[i]);
    v.toy(f, state, p);
    v.submit(f);
    v.wait(f);
    const VkBuffer b = state.ring->storage(*ctx).get();
    if (i == 0) first = b;
    EXPECT_EQ(b, first);
  }
  EXPECT_EQ(state.ring->frames(), ref.size());
}

}  // namespace
}  // namespace vqm::test
