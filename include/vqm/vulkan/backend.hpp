// vqm::Vulkan — the Vulkan compute backend.
//
// The backend only orchestrates; every metric's kernel entry points come from its engine (vulkan/engines/,
// listed in vulkan/engines.hpp). A kernel call adds a job to the frame (vulkan/frame.hpp) naming the
// program it runs on (vulkan/program.hpp). submit() takes the next frame slot (vulkan/detail/slots.hpp),
// builds the frame's programs on a format's first frame, copies each needed plane of the pair once into the
// slot's input, records the programs stage by stage (stage i of every program, then one barrier; the
// kernels write the few result bytes straight into a host-visible block) and submits the slot's command
// buffer once with its fence. Several frames are in flight (frames_in_flight() is the scorer depth to
// use). wait() reads the result block and each job decodes its slice into its partials; the host
// reduction is the shared metrics code.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "vqm/error.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/profiler.hpp"
#include "vqm/vulkan/detail/slots.hpp"
#include "vqm/vulkan/engines.hpp"
#include "vqm/vulkan/frame.hpp"
#include "vqm/vulkan/gpu_picture.hpp"
#include "vqm/vulkan/host_picture.hpp"
#include "vqm/vulkan/program.hpp"
#include "vqm/vulkan/reference_ring.hpp"

namespace vqm {

class Vulkan : public vulkan::engines {
 public:
  static constexpr std::string_view name = "vulkan";
  static constexpr std::size_t default_slots = 4;
  using frame = vulkan::frame;

  // Creates its own context (options: device index, validation, pipeline cache).
  explicit Vulkan(const vulkan::context_options& o = {}) : Vulkan(std::make_shared<vulkan::context>(o)) {}
  // Runs on a shared context (e.g. one importing the caller's VkDevice). `slots` frames can be
  // recorded at once; up to slots − 1 in flight while the next one is prepared.
  explicit Vulkan(std::shared_ptr<vulkan::context> ctx, std::size_t slots = default_slots)
      : ctx_(std::move(ctx)), slot_count_(std::max<std::size_t>(slots, 2)) {
    if (!ctx_) throw error(errc::invalid_argument, "vqm::Vulkan: null context");
    shared_ = std::make_unique<vulkan::shared_objects>(*ctx_);
    slots_ = std::make_unique<vulkan::detail::slot_ring>(*ctx_, slot_count_);
    if (vulkan::detail::gpu_profiler::wanted())
      profiler_ = std::make_unique<vulkan::detail::gpu_profiler>(*ctx_, slot_count_);
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

  [[nodiscard]] frame begin_frame(const picture_view& ref, const picture_view& dis) const {
    check_pair(ref, dis);
    frame f;
    f.ref_ = ref;
    f.dis_ = dis;
    f.ctx_ = ctx_.get();
    return f;
  }

  // GPU-resident input (vulkan/gpu_picture.hpp; either or both pictures): the frame's command buffer copies
  // the planes from the caller's buffers/images, submit() waits on the pictures' wait semaphores and
  // signals their signal semaphores when the frame has completed. No host copy. Contract: docs/vulkan.md.
  [[nodiscard]] frame begin_frame(const vulkan::gpu_picture& ref, const vulkan::gpu_picture& dis) const {
    return with_gpu(with_gpu(begin_frame(vulkan::geometry(ref), vulkan::geometry(dis)), 0, ref), 1, dis);
  }
  [[nodiscard]] frame begin_frame(const picture_view& ref, const vulkan::gpu_picture& dis) const {
    return with_gpu(begin_frame(ref, vulkan::geometry(dis)), 1, dis);
  }
  [[nodiscard]] frame begin_frame(const vulkan::gpu_picture& ref, const picture_view& dis) const {
    return with_gpu(begin_frame(vulkan::geometry(ref), dis), 0, ref);
  }

  // One reference read by several frames, uploaded once per frame (multi_session; vulkan/reference_ring.hpp):
  // put(ref) gives the gpu_picture to push; `entries` ≥ the readers' frames in flight + 1.
  [[nodiscard]] std::unique_ptr<vulkan::reference_ring> reference_ring(const picture_format& f, std::size_t entries) {
    return std::make_unique<vulkan::reference_ring>(*ctx_, f, entries, host_uploaded_);
  }
  // Host memory a frame is read or decoded into and pushed from as host_picture::gpu(), so that its pixels
  // are not copied on the host (vulkan/host_picture.hpp; the CLI reads Y4M/raw frames into these).
  [[nodiscard]] vulkan::host_picture host_picture(const picture_format& f,
                                                  vulkan::host_access a = vulkan::host_access::write) const {
    return {*ctx_, f, a};
  }
  // Bytes of pictures copied from host memory for the GPU so far (frame slots and reference rings).
  [[nodiscard]] std::uint64_t host_bytes_uploaded() const noexcept { return host_uploaded_; }

  // Uploads the first `planes` planes of the pair without computing anything (benchmarks the copy path).
  void upload_only(frame& f, int planes = 3) const { f.upload_at_least(planes); }

  // Records and submits the frame (one vkQueueSubmit); returns without waiting.
  void submit(frame& f) {
    if (f.empty()) {
      if (f.gpu_mask_) pass_semaphores(f);  // nothing to measure, but the caller's semaphores still pass
      return;
    }
    const std::size_t s = prepare(f);
    auto& sl = slots_->at(s);
    vulkan::begin(*ctx_, sl.cb);
    record_into(s, sl.cb, f);
    vulkan::end(*ctx_, sl.cb);
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &sl.cb;
    VkTimelineSemaphoreSubmitInfo ti{};
    if (f.gpu_mask_) add_semaphores(f, si, ti);
    sl.fence.reset();
    ctx_->submit(si, sl.fence);
    sl.busy = true;
  }

  // Waits for the frame and fills the partials its kernel calls named.
  void wait(frame& f) {
    if (f.slot_ < 0) return;
    auto& sl = slots_->at(static_cast<std::size_t>(f.slot_));
    if (sl.ticket == f.ticket_ && sl.busy) complete(static_cast<std::size_t>(f.slot_));
    f.slot_ = -1;
  }

  // Caller's command buffer: records the frame's uploads and kernels into `cb` (recording, on a queue of
  // context().queue_family()); the caller submits it. Once that submission has completed, collect(f)
  // fills the partials. Host-side, the planes are copied into the slot's upload buffer here.
  void record(frame& f, VkCommandBuffer cb) {
    if (f.empty()) return;
    for (unsigned i = 0; i < 2; ++i)
      if ((f.gpu_mask_ >> i & 1u) && (f.gpu_[i].wait_count || f.gpu_[i].signal.semaphore || f.gpu_[i].signal_count))
        throw error(errc::invalid_argument, "vqm::Vulkan::record: a gpu_picture's semaphores are for submit(); with "
                                            "record() wait on and signal them in your own vkQueueSubmit");
    const std::size_t s = prepare(f);
    record_into(s, cb, f);
    slots_->at(s).busy = true;
    slots_->at(s).external = true;
  }
  void collect(frame& f) {
    if (f.slot_ < 0) return;
    auto& sl = slots_->at(static_cast<std::size_t>(f.slot_));
    if (sl.ticket == f.ticket_ && sl.busy) {
      sl.external = false;  // the caller vouches for completion
      deliver(static_cast<std::size_t>(f.slot_));
    }
    f.slot_ = -1;
  }

 private:
  using slot = vulkan::detail::frame_slot;

  // Format check, slot acquisition, the frame's programs and the host-side plane copy.
  std::size_t prepare(frame& f) {
    if (!slots_->matches(f.ref_, f.dis_)) {
      const auto t0 = std::chrono::steady_clock::now();
      drain();
      programs_.clear();
      slots_->reset(f.ref_, f.dis_);
      env_.emplace(vulkan::program_env{*ctx_, slots_->layout(), slots_->buffers(), slot_count_, *shared_});
      if (profiler_) profiler_->host_time("host_format_ms", t0);
    }
    const std::size_t s = slots_->next();
    auto& sl = slots_->at(s);
    if (sl.busy) {
      if (sl.external)
        throw error(errc::invalid_argument, "vqm::Vulkan: a frame recorded into a caller command buffer was not "
                                            "collect()ed before its slot was needed again");
      complete(s);
    }
    {
      const auto t0 = std::chrono::steady_clock::now();
      if (slots_->ensure(s) && profiler_) profiler_->host_time("host_slots_ms", t0);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t built = programs_.size();
    programs_.plan(f.jobs_.data(), f.count_, *env_, sl.frame);
    if (profiler_ && programs_.size() != built) profiler_->host_time("host_engines_ms", t0);
    int planes = f.min_planes_;
    bool gpu_bound = false;
    for (auto* p : sl.frame.programs()) {
      planes = std::max(planes, p->planes());
      gpu_bound = gpu_bound || p->gpu_bound();
      p->ensure(s);
    }
    for (std::size_t i = 0; i < sl.frame.jobs; ++i) sl.frame.program_of[i]->bind(s, sl.frame.jobs_of[i]);
    host_uploaded_ += slots_->upload(s, f.ref_, f.dis_, planes, gpu_bound, ~f.gpu_mask_ & 3u);
    f.slot_ = static_cast<int>(s);
    f.ticket_ = sl.ticket = ++ticket_;
    return s;
  }

  void record_into(std::size_t s, VkCommandBuffer cb, const frame& f) {
    auto& sl = slots_->at(s);
    if (profiler_) profiler_->begin(cb, s);
    slots_->record_copy(s, cb);
    if (f.gpu_mask_)
      slots_->record_gpu_copy(s, cb, {f.gpu_mask_ & 1u ? &f.gpu_[0] : nullptr, f.gpu_mask_ & 2u ? &f.gpu_[1] : nullptr});
    // A frame with a temporal program also waits for the compute writes of earlier submissions (its state).
    if (sl.frame.temporal) vulkan::history_to_compute(*ctx_, cb);
    else vulkan::transfer_to_compute(*ctx_, cb);
    if (profiler_) profiler_->mark(cb, s, "upload");
    // Semi-planar / MSB-aligned input made planar before the programs read it.
    if (slots_->record_unpack(s, cb)) {
      vulkan::compute_to_compute(*ctx_, cb);
      if (profiler_) profiler_->mark(cb, s, "unpack");
    }
    // Rounds: a latency-bound program's stages start with the frame; every other program starts so that
    // its heaviest stage meets the first latency-bound stage of the longest one (schedule_hint).
    int chain = 0, tail = 1, stages = 0;
    for (auto* p : sl.frame.programs())
      if (const auto h = p->schedule(); h.latency_bound() && p->stages() > chain) {
        chain = p->stages();
        tail = std::clamp(chain - h.latency_bound_from, 1, chain);
      }
    const auto first_round = [chain, tail](const vulkan::program* p) {
      const auto h = p->schedule();
      return h.latency_bound() ? chain - p->stages() : std::max(0, chain - tail - h.heaviest_stage);
    };
    for (auto* p : sl.frame.programs()) stages = std::max(stages, first_round(p) + p->stages());
    static constexpr const char* stage_names[] = {"stage0", "stage1", "stage2",  "stage3",  "stage4",  "stage5",
                                                  "stage6", "stage7", "stage8", "stage9", "stage10", "stage11"};
    for (int st = 0; st < stages; ++st) {
      if (st > 0) vulkan::compute_to_compute(*ctx_, cb);
      for (auto* p : sl.frame.programs()) {
        const int first = first_round(p);
        if (st >= first && st - first < p->stages()) p->record(cb, s, st - first);
      }
      if (profiler_) profiler_->mark(cb, s, stage_names[std::min(st, 11)]);
    }
    vulkan::to_host(*ctx_, cb);
  }

  // Picture i of the frame comes from the GPU.
  [[nodiscard]] frame with_gpu(frame f, int i, const vulkan::gpu_picture& g) const {
    vulkan::check_gpu_picture(g, ctx_->device());
    f.gpu_[i] = g;
    f.gpu_mask_ |= 1u << i;
    return f;
  }

  // The frame's GPU pictures' semaphores into its one submission: waits before the copies (transfer
  // stage), signals when it completes; a semaphore both pictures name is waited on / signalled once.
  void add_semaphores(const frame& f, VkSubmitInfo& si, VkTimelineSemaphoreSubmitInfo& ti) {
    std::uint32_t nw = 0, ns = 0;
    bool timeline = false;
    const auto add = [&](VkSemaphore* sems, std::uint64_t* values, std::uint32_t& n, const vulkan::gpu_semaphore& g) {
      for (std::uint32_t k = 0; k < n; ++k)
        if (sems[k] == g.semaphore && values[k] == g.value) return;
      sems[n] = g.semaphore;
      values[n++] = g.value;
      timeline = timeline || g.value != 0;
    };
    for (unsigned i = 0; i < 2; ++i) {
      if (!(f.gpu_mask_ >> i & 1u)) continue;
      const auto& g = f.gpu_[i];
      for (std::uint32_t k = 0; k < g.wait_count; ++k) add(waits_.data(), wait_values_.data(), nw, g.wait[k]);
      if (g.signal.semaphore) add(signals_.data(), signal_values_.data(), ns, g.signal);
      for (std::uint32_t k = 0; k < g.signal_count; ++k) add(signals_.data(), signal_values_.data(), ns, g.signals[k]);
    }
    wait_stages_.fill(VK_PIPELINE_STAGE_TRANSFER_BIT);
    si.waitSemaphoreCount = nw;
    si.pWaitSemaphores = waits_.data();
    si.pWaitDstStageMask = wait_stages_.data();
    si.signalSemaphoreCount = ns;
    si.pSignalSemaphores = signals_.data();
    if (!timeline) return;
    ti.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    ti.waitSemaphoreValueCount = nw;
    ti.pWaitSemaphoreValues = wait_values_.data();
    ti.signalSemaphoreValueCount = ns;
    ti.pSignalSemaphoreValues = signal_values_.data();
    si.pNext = &ti;
  }

  // A submission without work that waits on and signals the frame's semaphores.
  void pass_semaphores(const frame& f) {
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    VkTimelineSemaphoreSubmitInfo ti{};
    add_semaphores(f, si, ti);
    if (si.waitSemaphoreCount || si.signalSemaphoreCount) ctx_->submit(si, VK_NULL_HANDLE);
  }

  void complete(std::size_t s) {
    slots_->at(s).fence.wait();
    if (profiler_) profiler_->collect(s);
    deliver(s);
  }

  void deliver(std::size_t s) {
    auto& sl = slots_->at(s);
    sl.busy = false;
    sl.results.invalidate();
    const std::byte* r = sl.results.data();
    const auto& fr = sl.frame;
    for (std::size_t i = 0; i < fr.jobs; ++i) {
      const auto& p = *fr.program_of[i];
      fr.jobs_of[i].decode(fr.jobs_of[i], p, r + p.result_offset);
    }
  }

  // Delivers every frame in flight (before the per-format resources go).
  void drain() {
    for (std::size_t s = 0; s < slots_->size(); ++s)
      if (slots_->at(s).busy && !slots_->at(s).external) complete(s);
  }

  std::shared_ptr<vulkan::context> ctx_;
  std::size_t slot_count_;
  std::unique_ptr<vulkan::shared_objects> shared_;  // pipelines and tables, kept across formats
  std::unique_ptr<vulkan::detail::slot_ring> slots_;
  std::optional<vulkan::program_env> env_;
  vulkan::detail::program_cache programs_;  // after env_ and slots_: programs refer to them
  std::uint64_t ticket_ = 0;
  std::uint64_t host_uploaded_ = 0;
  std::unique_ptr<vulkan::detail::gpu_profiler> profiler_;
  // The submission's semaphores (add_semaphores): members, so that nothing is allocated per frame.
  static constexpr std::size_t max_waits = 2 * vulkan::gpu_picture::max_waits;
  std::array<VkSemaphore, max_waits> waits_{};
  std::array<std::uint64_t, max_waits> wait_values_{};
  std::array<VkPipelineStageFlags, max_waits> wait_stages_{};
  static constexpr std::size_t max_signals = 2 * (1 + vulkan::gpu_picture::max_signals);
  std::array<VkSemaphore, max_signals> signals_{};
  std::array<std::uint64_t, max_signals> signal_values_{};
};

static_assert(Backend<Vulkan>);

}  // namespace vqm
