// vqm::Cpu — the CPU backend. Frames run on the calling thread, or whole frames in parallel on a pool
// (results do not depend on the thread count: every frame is computed the same way).
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>

#include "vqm/concepts/float_sse_kernel.hpp"
#include "vqm/concepts/ms_ssim_kernel.hpp"
#include "vqm/concepts/psnr_hvs_kernel.hpp"
#include "vqm/concepts/sse_kernel.hpp"
#include "vqm/concepts/ssim_kernel.hpp"
#include "vqm/cpu/float_sse.hpp"
#include "vqm/cpu/ms_ssim.hpp"
#include "vqm/cpu/psnr_hvs.hpp"
#include "vqm/cpu/sse.hpp"
#include "vqm/cpu/ssim.hpp"
#include "vqm/cpu/thread_pool.hpp"
#include "vqm/error.hpp"

namespace vqm {

class Cpu {
 public:
  static constexpr std::string_view name = "cpu";

  // threads <= 1: run on the caller's thread. Otherwise frames run in parallel on `threads` workers
  // (use a scorer depth of `threads` to keep them busy).
  explicit Cpu(unsigned threads = 1) {
    if (threads > 1) pool_ = std::make_unique<cpu::thread_pool>(threads);
  }

  [[nodiscard]] unsigned threads() const noexcept { return pool_ ? pool_->size() : 1; }

  class frame {
   public:
    frame() = default;

   private:
    friend class Cpu;
    struct job {
      enum class kind : std::uint8_t { sse, float_sse, ssim, ms_ssim, psnr_hvs } what;
      void* out;
      sse_request sse{};
      ssim_request ssim{};
    };
    struct completion {
      std::mutex m;
      std::condition_variable cv;
      bool done = false;
      std::exception_ptr error;
    };
    picture_view ref_{}, dis_{};
    std::array<job, 16> jobs_{};
    std::size_t count_ = 0;
    std::shared_ptr<completion> pending_;

    void add(job j) {
      if (count_ == jobs_.size()) throw error(errc::invalid_argument, "too many metrics recorded into one Cpu frame");
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

  void sse(frame& f, const sse_request& q, sse_partials& out) const { f.add({frame::job::kind::sse, &out, q, {}}); }
  void float_sse(frame& f, float_sse_partials& out) const { f.add({frame::job::kind::float_sse, &out, {}, {}}); }
  void ssim(frame& f, const ssim_request& q, ssim_partials& out) const { f.add({frame::job::kind::ssim, &out, {}, q}); }
  void ms_ssim(frame& f, ms_ssim_partials& out) const { f.add({frame::job::kind::ms_ssim, &out, {}, {}}); }
  void psnr_hvs(frame& f, psnr_hvs_partials& out) const { f.add({frame::job::kind::psnr_hvs, &out, {}, {}}); }

  void submit(frame& f) {
    if (!pool_) return run(f);  // inline: the work is done by wait() time
    auto c = std::make_shared<frame::completion>();
    f.pending_ = c;
    // The task works on its own copy of the recorded jobs: the caller may move the frame while it runs.
    pool_->post([work = f, c] {
      std::exception_ptr e;
      try {
        run(work);
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard lock(c->m);
      c->error = e;
      c->done = true;
      c->cv.notify_all();
    });
  }

  void wait(frame& f) {
    if (!f.pending_) return;
    std::unique_lock lock(f.pending_->m);
    f.pending_->cv.wait(lock, [&] { return f.pending_->done; });
    auto e = f.pending_->error;
    lock.unlock();
    f.pending_.reset();
    if (e) std::rethrow_exception(e);
  }

 private:
  static void run(const frame& f) {
    const auto& r = f.ref_;
    const auto& d = f.dis_;
    const auto bpc = r.format.bit_depth;
    for (std::size_t i = 0; i < f.count_; ++i) {
      const auto& j = f.jobs_[i];
      switch (j.what) {
        case frame::job::kind::sse: {
          auto& out = *static_cast<sse_partials*>(j.out);
          const int planes = j.sse.chroma ? r.format.planes() : 1;
          for (int p = 0; p < planes; ++p) out.sse[p] = cpu::sse_plane(r.planes[p], d.planes[p], bpc);
          break;
        }
        case frame::job::kind::float_sse:
          static_cast<float_sse_partials*>(j.out)->noise = cpu::float_sse(r.planes[0], d.planes[0], bpc);
          break;
        case frame::job::kind::ssim:
          *static_cast<ssim_partials*>(j.out) = cpu::ssim(r.planes[0], d.planes[0], bpc, j.ssim.scale);
          break;
        case frame::job::kind::ms_ssim:
          *static_cast<ms_ssim_partials*>(j.out) = cpu::ms_ssim(r.planes[0], d.planes[0], bpc);
          break;
        case frame::job::kind::psnr_hvs: {
          auto& out = *static_cast<psnr_hvs_partials*>(j.out);
          for (int p = 0; p < 3; ++p) out.ret[p] = cpu::psnr_hvs_plane(r.planes[p], d.planes[p], bpc, p);
          break;
        }
      }
    }
  }

  std::unique_ptr<cpu::thread_pool> pool_;
};

static_assert(SseKernel<Cpu> && FloatSseKernel<Cpu> && SsimKernel<Cpu> && MsSsimKernel<Cpu> && PsnrHvsKernel<Cpu>);

}  // namespace vqm
