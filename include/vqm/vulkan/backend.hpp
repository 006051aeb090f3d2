// vqm::Vulkan — the Vulkan compute backend.
//
// A frame's kernel calls only note what to compute; submit() then copies each needed plane of the pair
// once into the frame slot's upload buffer, records every requested metric into the slot's command
// buffer (uploads, all kernels stage by stage; the kernels write the few result bytes straight into a
// host-visible block, so nothing after them blocks the next frame's upload) and submits it once with the
// slot's fence. Slots (buffers, descriptor sets, command buffer, fence) are created when a format is first seen
// and recycled; several frames are in flight (frames_in_flight() is the scorer depth to use). wait()
// reads the few hundred bytes of sums back and fills the partials structs; the host reduction is the
// shared metrics code.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/concepts/float_sse_kernel.hpp"
#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/concepts/psnr_hvs_kernel.hpp"
#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/error.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/copy_pool.hpp"
#include "vqm/vulkan/detail/engines.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/detail/profiler.hpp"

#if !defined(VQM_VULKAN_NO_PSNR_HVS) && __has_include("vqm/vulkan/psnr_hvs.hpp")
#include "vqm/vulkan/psnr_hvs.hpp"
#define VQM_VULKAN_HAS_PSNR_HVS 1
#else
#define VQM_VULKAN_HAS_PSNR_HVS 0
#endif

namespace vqm {

class Vulkan {
 public:
  static constexpr std::string_view name = "vulkan";
  static constexpr std::size_t default_slots = 4;

  // Creates its own context (options: device index, validation, pipeline cache).
  explicit Vulkan(const vulkan::context_options& o = {}) : Vulkan(std::make_shared<vulkan::context>(o)) {}
  // Runs on a shared context (e.g. one importing the caller's VkDevice). `slots` frames can be
  // recorded at once; up to slots − 1 in flight while the next one is prepared.
  explicit Vulkan(std::shared_ptr<vulkan::context> ctx, std::size_t slots = default_slots)
      : ctx_(std::move(ctx)), slot_count_(std::max<std::size_t>(slots, 2)) {
    if (!ctx_) throw error(errc::invalid_argument, "vqm::Vulkan: null context");
    pipes_ = std::make_unique<vulkan::detail::pipeline_set>(*ctx_);
    pool_ = vulkan::command_pool(*ctx_);
    if (vulkan::detail::gpu_profiler::wanted()) profiler_ = std::make_unique<vulkan::detail::gpu_profiler>(*ctx_, slot_count_);
  }
  Vulkan(const Vulkan&) = delete;
  Vulkan& operator=(const Vulkan&) = delete;
  ~Vulkan() {
    if (ctx_) {
      std::lock_guard lock(ctx_->queue_mutex());
      ctx_->fn().vkQueueWaitIdle(ctx_->queue());
    }
  }

  // The scorer depth that keeps the GPU busy without blocking in begin/submit.
  [[nodiscard]] std::size_t frames_in_flight() const noexcept { return slot_count_ - 1; }
  [[nodiscard]] vulkan::context& context() const noexcept { return *ctx_; }
  [[nodiscard]] const std::shared_ptr<vulkan::context>& shared_context() const noexcept { return ctx_; }

  class frame {
   public:
    frame() = default;

   private:
    friend class Vulkan;
    enum class kind : std::uint8_t { sse, float_sse, ssim, ms_ssim, psnr_hvs, touch };
    struct job {
      kind what;
      void* out;
      std::uint32_t param;  // sse: planes wanted; ssim: scale; touch: planes to upload
    };
    picture_view ref_{}, dis_{};
    std::array<job, 16> jobs_{};
    std::size_t count_ = 0;
    int slot_ = -1;
    std::uint64_t ticket_ = 0;

    void add(job j) {
      if (count_ == jobs_.size()) throw error(errc::invalid_argument, "too many metrics recorded into one Vulkan frame");
      jobs_[count_++] = j;
    }
  };

  [[nodiscard]] frame begin_frame(const picture_view& ref, const picture_view& dis) const {
    check_pair(ref, dis);
    frame f;
    f.ref_ = ref;
    f.dis_ = dis;
    return f;
  }

  void sse(frame& f, const sse_request& q, sse_partials& out) const {
    require_int64("psnr");
    f.add({frame::kind::sse, &out, (q.chroma && f.ref_.format.planes() == 3) ? 3u : 1u});
  }
  void float_sse(frame& f, float_sse_partials& out) const {
    require_int64("float_psnr");
    f.add({frame::kind::float_sse, &out, 1});
  }
  void ssim(frame& f, const ssim_request& q, ssim_partials& out) const {
    require_float64("float_ssim");
    f.add({frame::kind::ssim, &out, std::max<std::uint32_t>(q.scale, 1)});
  }
  void ms_ssim(frame& f, ms_ssim_partials& out) const {
    require_float64("float_ms_ssim");
    f.add({frame::kind::ms_ssim, &out, 0});
  }
#if VQM_VULKAN_HAS_PSNR_HVS
  void psnr_hvs(frame& f, psnr_hvs_partials& out) const { f.add({frame::kind::psnr_hvs, &out, 3}); }
#endif
  // Uploads the first `planes` planes of the pair without computing anything (benchmarks the copy path).
  void upload_only(frame& f, int planes = 3) const { f.add({frame::kind::touch, nullptr, static_cast<std::uint32_t>(planes)}); }

  // Records and submits the frame (one vkQueueSubmit); returns without waiting.
  void submit(frame& f) {
    if (f.count_ == 0) return;
    const std::size_t s = prepare(f);
    auto& sl = slots_[s];
    vulkan::begin(*ctx_, sl.cb);
    record_into(f, s, sl.cb);
    vulkan::end(*ctx_, sl.cb);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &sl.cb;
    sl.fence.reset();
    ctx_->submit(si, sl.fence);
    sl.busy = true;
  }

  // Waits for the frame and fills the partials its kernel calls named.
  void wait(frame& f) {
    if (f.slot_ < 0) return;
    auto& sl = slots_[static_cast<std::size_t>(f.slot_)];
    if (sl.ticket == f.ticket_ && sl.busy) complete(static_cast<std::size_t>(f.slot_));
    f.slot_ = -1;
  }

  // Caller's command buffer: records the frame's uploads and kernels into `cb` (recording, on a queue of
  // context().queue_family()); the caller submits it. Once that submission has completed, collect(f)
  // fills the partials. Host-side, the planes are copied into the slot's upload buffer here.
  void record(frame& f, VkCommandBuffer cb) {
    if (f.count_ == 0) return;
    const std::size_t s = prepare(f);
    record_into(f, s, cb);
    slots_[s].busy = true;
    slots_[s].external = true;
  }
  void collect(frame& f) {
    if (f.slot_ < 0) return;
    auto& sl = slots_[static_cast<std::size_t>(f.slot_)];
    if (sl.ticket == f.ticket_ && sl.busy) {
      sl.external = false;  // the caller vouches for completion
      deliver(static_cast<std::size_t>(f.slot_));
    }
    f.slot_ = -1;
  }

 private:
  struct delivery {
    frame::kind what;
    void* out;
    std::uint32_t offset;  // bytes into the result block
    std::uint32_t planes;
    bool empty;            // an empty SSIM map: zeros
  };
  struct slot {
    vulkan::buffer staging, input, results;  // results: host-visible, written by the kernels
    VkCommandBuffer cb = VK_NULL_HANDLE;
    vulkan::fence fence;
    bool busy = false, external = false;
    bool direct = true;  // this frame's planes were written into `input` (or unified staging) by the host
    std::uint64_t ticket = 0;
    std::vector<delivery> deliveries;
  };
  static constexpr std::uint32_t result_block = 4096;

  void require_int64(const char* metric) const {
    if (!ctx_->has_int64())
      throw error(errc::backend_unavailable, "Vulkan device " + ctx_->name() + " lacks shaderInt64, which " + metric +
                                                 "'s exact integer sums need; use --backend cpu");
  }
  void require_float64(const char* metric) const {
    if (!ctx_->has_float64())
      throw error(errc::backend_unavailable, "Vulkan device " + ctx_->name() + " lacks shaderFloat64, which " + metric +
                                                 " needs to reproduce libvmaf's double accumulation; use --backend cpu");
  }

  // Format check, slot acquisition, engine selection and the host-side plane copy.
  std::size_t prepare(frame& f) {
    if (!layout_ || !layout_->matches(f.ref_)) {
      const auto t0 = std::chrono::steady_clock::now();
      reset_format(f.ref_);
      if (profiler_) profiler_->host_time("host_format_ms", t0);
    }
    const std::size_t s = next_slot_;
    next_slot_ = (next_slot_ + 1) % slot_count_;
    auto& sl = slots_[s];
    if (sl.busy) {
      if (sl.external)
        throw error(errc::invalid_argument, "vqm::Vulkan: a frame recorded into a caller command buffer was not "
                                            "collect()ed before its slot was needed again");
      complete(s);
    }
    ensure_slot(s);
    sl.deliveries.clear();
    frame_engines_.clear();
    // Engines for this frame, deduplicated; float_sse at <= 12 bits reuses the integer SSE (exact, SPEC §3).
    bool want_sse3 = false;
    for (std::size_t i = 0; i < f.count_; ++i)
      if (f.jobs_[i].what == frame::kind::sse && f.jobs_[i].param == 3) want_sse3 = true;
    int upload_planes = 0;
    for (std::size_t i = 0; i < f.count_; ++i) {
      const auto& j = f.jobs_[i];
      delivery d{j.what, j.out, 0, j.param, false};
      vulkan::detail::engine* e = nullptr;
      switch (j.what) {
        case frame::kind::sse: e = engine_for(key(0, want_sse3 ? 3 : 1)); break;
        case frame::kind::float_sse:
          e = layout_->format.bit_depth <= 12 ? engine_for(key(0, want_sse3 ? 3 : 1)) : engine_for(key(1, 1));
          break;
        case frame::kind::ssim: {
          e = engine_for(key(2, j.param));
          d.empty = static_cast<vulkan::detail::ssim_engine*>(e)->empty_map();
          break;
        }
        case frame::kind::ms_ssim: e = engine_for(key(3, 0)); break;
        case frame::kind::psnr_hvs: upload_planes = 3; break;
        case frame::kind::touch: upload_planes = std::max(upload_planes, static_cast<int>(j.param)); break;
      }
      if (e) {
        d.offset = e->result_offset;
        upload_planes = std::max(upload_planes, e->uses_chroma() ? 3 : 1);
        if (std::find(frame_engines_.begin(), frame_engines_.end(), e) == frame_engines_.end()) frame_engines_.push_back(e);
      }
#if VQM_VULKAN_HAS_PSNR_HVS
      if (j.what == frame::kind::psnr_hvs) d.offset = hvs_offset();
#endif
      if (j.what != frame::kind::touch) sl.deliveries.push_back(d);
    }
    upload_planes_ = std::min(upload_planes, layout_->planes);
    for (auto* e : frame_engines_) e->ensure(s);
    // Host writes straight into a host-visible input (BAR) when the GPU is the bottleneck (psnr_hvs,
    // ms_ssim: the device copy would add ~130 µs per frame at 1080p and does not overlap the previous
    // frame's shaders on NVIDIA); otherwise into host memory + a device copy, since host writes over PCIe
    // are slower (H200 host: 29 against 43 GB/s) and bound the cheap metrics.
    bool heavy = false;
    for (std::size_t i = 0; i < f.count_; ++i)
      heavy = heavy || f.jobs_[i].what == frame::kind::psnr_hvs || f.jobs_[i].what == frame::kind::ms_ssim;
    sl.direct = !sl.input || (sl.input.host_visible() && (heavy || rebar_always_));
    if (!sl.direct && !sl.staging) sl.staging = vulkan::buffer(*ctx_, layout_->bytes, vulkan::memory_kind::upload);
    upload(f, sl);
    f.slot_ = static_cast<int>(s);
    f.ticket_ = sl.ticket = ++ticket_;
    return s;
  }

  void upload(const frame& f, slot& sl) {
    const auto& l = *layout_;
    const vulkan::buffer& dst_buf = sl.direct && sl.input ? sl.input : sl.staging;
    std::byte* base = dst_buf.data();
    pieces_.clear();
    for (int pic = 0; pic < 2; ++pic) {
      const picture_view& v = pic == 0 ? f.ref_ : f.dis_;
      for (int p = 0; p < upload_planes_; ++p) {
        const plane_view& pv = v.planes[p];
        std::byte* dst = base + l.offset[pic][p];
        const std::size_t row = std::size_t{l.width[p]} * l.bps;
        if (pv.stride == static_cast<std::ptrdiff_t>(row) && row == l.stride[p]) {
          pieces_.push_back({dst, pv.data, row * l.height[p]});
        } else {
          for (std::uint32_t y = 0; y < l.height[p]; ++y)
            pieces_.push_back({dst + std::size_t{y} * l.stride[p], pv.data + static_cast<std::ptrdiff_t>(y) * pv.stride, row});
        }
      }
    }
    copier_.run(pieces_);
    dst_buf.flush();
  }

  void record_into(const frame&, std::size_t s, VkCommandBuffer cb) {
    auto& sl = slots_[s];
    const auto& fn = ctx_->fn();
    const auto& l = *layout_;
    if (profiler_) profiler_->begin(cb, s);
    if (!sl.direct) {  // staging -> device-local input
      std::array<VkBufferCopy, 6> regions{};
      std::uint32_t n = 0;
      for (int pic = 0; pic < 2; ++pic)
        for (int p = 0; p < upload_planes_; ++p)
          regions[n++] = {l.offset[pic][p], l.offset[pic][p], l.plane_bytes(p)};
      if (n) fn.vkCmdCopyBuffer(cb, sl.staging, sl.input, n, regions.data());
    }
    vulkan::transfer_to_compute(*ctx_, cb);
    if (profiler_) profiler_->mark(cb, s, "upload");
    int stages = 0;
    for (auto* e : frame_engines_) stages = std::max(stages, e->stages());
#if VQM_VULKAN_HAS_PSNR_HVS
    // psnr_hvs's 4 dependent stages go last: its long serial walk then shares the final stage with the
    // other metrics' reductions, and nothing after it in this frame waits for it.
    std::optional<vulkan::psnr_hvs_kernel::frame_args> hvs;
    for (const auto& d : sl.deliveries)
      if (d.what == frame::kind::psnr_hvs) {
        std::array<vulkan::plane_binding, 3> r{}, dd{};
        for (int p = 0; p < 3; ++p) {
          r[p] = l.binding(buffers_.input[s], 0, p);
          dd[p] = l.binding(buffers_.input[s], 1, p);
        }
        hvs = hvs_kernel().prepare(r, dd, sl.results, hvs_offset(), s);
        break;
      }
    const int hvs_first = hvs ? std::max(stages, vulkan::psnr_hvs_kernel::stages) - vulkan::psnr_hvs_kernel::stages : 0;
    if (hvs) stages = std::max(stages, vulkan::psnr_hvs_kernel::stages);
#endif
    static constexpr const char* stage_names[] = {"stage0", "stage1", "stage2", "stage3", "stage4",
                                                  "stage5", "stage6", "stage7", "stage8", "stage9"};
    for (int st = 0; st < stages; ++st) {
      if (st > 0) vulkan::compute_to_compute(*ctx_, cb);
      for (auto* e : frame_engines_)
        if (st < e->stages()) e->record(cb, s, st);
#if VQM_VULKAN_HAS_PSNR_HVS
      if (hvs && st >= hvs_first) hvs_->record_stage(cb, *hvs, st - hvs_first);
#endif
      if (profiler_) profiler_->mark(cb, s, stage_names[std::min(st, 9)]);
    }
    vulkan::to_host(*ctx_, cb);
  }

  void complete(std::size_t s) {
    slots_[s].fence.wait();
    if (profiler_) profiler_->collect(s);
    deliver(s);
  }

  void deliver(std::size_t s) {
    auto& sl = slots_[s];
    sl.busy = false;
    sl.results.invalidate();
    const std::byte* r = sl.results.data();
    auto u64 = [&](std::uint32_t off) {
      std::uint64_t v;
      std::memcpy(&v, r + off, 8);
      return v;
    };
    auto f64 = [&](std::uint32_t off) {
      double v;
      std::memcpy(&v, r + off, 8);
      return v;
    };
    const auto bpc = layout_->format.bit_depth;
    for (const auto& d : sl.deliveries) {
      switch (d.what) {
        case frame::kind::sse: {
          auto& o = *static_cast<sse_partials*>(d.out);
          for (std::uint32_t p = 0; p < d.planes; ++p) o.sse[p] = u64(d.offset + 8 * p);
          break;
        }
        case frame::kind::float_sse: {
          // Σ f32((a−b)²) in units of 2^−2(bpc−8), exact (SPEC §3; cpu/float_sse.hpp).
          const double scale = static_cast<double>(1ull << (2 * (bpc - 8)));
          static_cast<float_sse_partials*>(d.out)->noise = static_cast<double>(u64(d.offset)) / scale;
          break;
        }
        case frame::kind::ssim: {
          auto& o = *static_cast<ssim_partials*>(d.out);
          o = d.empty ? ssim_partials{} : ssim_partials{f64(d.offset), f64(d.offset + 8), f64(d.offset + 16), f64(d.offset + 24)};
          break;
        }
        case frame::kind::ms_ssim: {
          auto& o = *static_cast<ms_ssim_partials*>(d.out);
          for (std::uint32_t k = 0; k < 5; ++k) {
            const std::uint32_t b = d.offset + 32 * k;
            o.level[k] = {f64(b), f64(b + 8), f64(b + 16), f64(b + 24)};
          }
          break;
        }
        case frame::kind::psnr_hvs: {
          auto& o = *static_cast<psnr_hvs_partials*>(d.out);
          std::memcpy(o.ret.data(), r + d.offset, 12);
          break;
        }
        case frame::kind::touch: break;
      }
    }
  }

  static constexpr std::uint64_t key(std::uint32_t kind, std::uint32_t param) noexcept {
    return (std::uint64_t{kind} << 32) | param;
  }

  vulkan::detail::engine* engine_for(std::uint64_t k) {
    if (auto it = engines_.find(k); it != engines_.end()) return it->second.get();
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<vulkan::detail::engine> e;
    const auto kind = static_cast<std::uint32_t>(k >> 32), param = static_cast<std::uint32_t>(k);
    switch (kind) {
      case 0: e = std::make_unique<vulkan::detail::sse_engine>(*ctx_, *pipes_, *layout_, buffers_, static_cast<int>(param), false); break;
      case 1: e = std::make_unique<vulkan::detail::sse_engine>(*ctx_, *pipes_, *layout_, buffers_, 1, true); break;
      case 2: e = std::make_unique<vulkan::detail::ssim_engine>(*ctx_, *pipes_, *layout_, buffers_, param); break;
      default: e = std::make_unique<vulkan::detail::ms_ssim_engine>(*ctx_, *pipes_, *layout_, buffers_); break;
    }
    e->result_offset = allocate_result(e->result_bytes());
    if (profiler_) profiler_->host_time("host_engines_ms", t0);
    return engines_.emplace(k, std::move(e)).first->second.get();
  }

  std::uint32_t allocate_result(std::uint32_t bytes) {
    const auto off = static_cast<std::uint32_t>(vulkan::detail::align_up(result_used_, 32));
    if (off + bytes > result_block) throw error(errc::invalid_argument, "vqm::Vulkan: too many distinct metrics in one run");
    result_used_ = off + bytes;
    return off;
  }

#if VQM_VULKAN_HAS_PSNR_HVS
  std::uint32_t hvs_offset() {
    if (hvs_offset_ == ~0u) hvs_offset_ = allocate_result(16);
    return hvs_offset_;
  }
  vulkan::psnr_hvs_kernel& hvs_kernel() {
    if (!hvs_) {
      const auto t0 = std::chrono::steady_clock::now();
      // The layout holds the views' chroma sizes: floor ones in compat::libvmaf mode on odd sizes.
      const auto& l = *layout_;
      const bool ceil = l.width[1] == l.format.plane_width(1) && l.height[1] == l.format.plane_height(1);
      hvs_ = std::make_unique<vulkan::psnr_hvs_kernel>(*ctx_, l.format, ceil ? chroma_rounding::ceil : chroma_rounding::floor,
                                                       slot_count_);
      if (profiler_) profiler_->host_time("host_hvs_ms", t0);
    }
    return *hvs_;
  }
#endif

  // Slot s's buffers, command buffer and fence, on its first frame (start-up pays for one slot). Kernels
  // read `input`: device-local memory, host-writable when the device has a resizable BAR (direct_upload_),
  // or, on unified memory, the upload buffer itself. `staging` (host memory, copied by the device) is
  // created when a frame first needs it.
  void ensure_slot(std::size_t s) {
    auto& sl = slots_[s];
    if (sl.cb) return;
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t bytes = layout_->bytes;
    if (ctx_->unified_memory()) {
      sl.staging = vulkan::buffer(*ctx_, bytes, vulkan::memory_kind::upload);
    } else {
      if (direct_upload_) {
        try {
          sl.input = vulkan::buffer(*ctx_, bytes, vulkan::memory_kind::device_upload);
        } catch (const error&) {
          direct_upload_ = false;  // BAR exhausted: copy through host memory from now on
        }
      }
      if (!sl.input) sl.input = vulkan::buffer(*ctx_, bytes, vulkan::memory_kind::device_local);
    }
    sl.results = vulkan::buffer(*ctx_, result_block, vulkan::memory_kind::readback);
    sl.fence = vulkan::fence(*ctx_);
    sl.cb = pool_.allocate();
    buffers_.input[s] = sl.input ? sl.input.get() : sl.staging.get();
    buffers_.results[s] = sl.results.get();
    if (profiler_) profiler_->host_time("host_slots_ms", t0);
  }

  // A new format: drain the slots in flight (delivering their results), then build the slots anew.
  void reset_format(const picture_view& v) {
    for (std::size_t s = 0; s < slots_.size(); ++s)
      if (slots_[s].busy && !slots_[s].external) complete(s);
    engines_.clear();
#if VQM_VULKAN_HAS_PSNR_HVS
    hvs_.reset();
    hvs_offset_ = ~0u;
#endif
    slots_.clear();
    buffers_ = {};
    result_used_ = 0;
    layout_ = vulkan::detail::frame_layout::of(v);
    slots_.resize(slot_count_);
    buffers_.input.assign(slot_count_, VK_NULL_HANDLE);
    buffers_.results.assign(slot_count_, VK_NULL_HANDLE);
    direct_upload_ = vulkan::direct_upload_heap(*ctx_);
    const char* rb = std::getenv("VQM_VULKAN_REBAR");
    rebar_always_ = rb && *rb == '1';
    next_slot_ = 0;
  }

  std::shared_ptr<vulkan::context> ctx_;
  std::size_t slot_count_;
  std::unique_ptr<vulkan::detail::pipeline_set> pipes_;
  vulkan::command_pool pool_;
  std::optional<vulkan::detail::frame_layout> layout_;
  std::vector<slot> slots_;
  vulkan::detail::slot_buffers buffers_;
  std::map<std::uint64_t, std::unique_ptr<vulkan::detail::engine>> engines_;
  std::vector<vulkan::detail::engine*> frame_engines_;
  std::uint32_t result_used_ = 0;
  int upload_planes_ = 0;
  bool direct_upload_ = false;  // inputs in a resizable BAR (vulkan::direct_upload_heap)
  bool rebar_always_ = false;   // VQM_VULKAN_REBAR=1: every frame written straight into it
  std::size_t next_slot_ = 0;
  std::uint64_t ticket_ = 0;
  vulkan::detail::copy_pool copier_;
  std::vector<vulkan::detail::copy_pool::piece> pieces_;
  std::unique_ptr<vulkan::detail::gpu_profiler> profiler_;
#if VQM_VULKAN_HAS_PSNR_HVS
  std::unique_ptr<vulkan::psnr_hvs_kernel> hvs_;
  std::uint32_t hvs_offset_ = ~0u;
#endif
};

static_assert(Backend<Vulkan> && SseKernel<Vulkan> && FloatSseKernel<Vulkan> && SsimKernel<Vulkan> &&
              MsSsimKernel<Vulkan>);
#if VQM_VULKAN_HAS_PSNR_HVS
static_assert(PsnrHvsKernel<Vulkan>);
#endif

}  // namespace vqm
