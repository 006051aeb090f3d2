// The Cpu backend of the VP9 loop filter: the scalar reference or the SIMD path, threaded over edges.
//
// A checked batch is order-independent (contract.hpp), so splitting the edges among threads cannot
// change the result; counters are integer sums, equally independent of the split.
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "vqm/executor.hpp"
#include "vqm/lpf/contract.hpp"
#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/detail/simd.hpp"
#include "vqm/lpf/edge.hpp"
#include "vqm/lpf/kernels.hpp"
#include "vqm/lpf/reference.hpp"
#include "vqm/thread_pool.hpp"

namespace vqm::lpf {

enum class cpu_isa { best, scalar, sse2, avx2 };

constexpr const char* name(cpu_isa i) {
  switch (i) {
    case cpu_isa::scalar: return "scalar";
    case cpu_isa::sse2: return "sse2";
    case cpu_isa::avx2: return "avx2";
    default: return "best";
  }
}

struct cpu_options {
  unsigned threads = 0;         // 0: std::thread::hardware_concurrency()
  cpu_isa isa = cpu_isa::best;  // best: AVX2 if the CPU has it, else SSE2, else scalar
  check_level checks = check_level::full;
  std::size_t min_edges_per_thread = 512;  // smaller batches stay on fewer threads (wake-up cost)
  // The caller's executor (it must outlive the backend): batches run on it and on the calling thread,
  // `threads` is then ignored. Null: the backend's own pool of threads − 1 workers.
  executor* pool = nullptr;
};

class cpu_backend {
 public:
  explicit cpu_backend(cpu_options o = {}) : opt_(o) {
    if (o.pool) {
      pool_ = o.pool;
      threads_ = o.pool->concurrency() + 1;
    } else {
      const unsigned t = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
      // Workers the system cannot start are done without (the result does not depend on the split).
      own_ = std::make_unique<thread_pool>(t - 1, thread_start::as_many_as_possible);
      pool_ = own_.get();
      threads_ = own_->size() + 1;
    }
    isa_ = resolve(o.isa);
  }

  // Threads a batch is split over, the caller's included.
  [[nodiscard]] unsigned threads() const { return threads_; }
  [[nodiscard]] cpu_isa isa() const { return isa_; }
  // True when this build and CPU can run `i`.
  [[nodiscard]] static bool supports(cpu_isa i) {
    switch (i) {
      case cpu_isa::best:
      case cpu_isa::scalar: return true;
#ifdef VQM_LPF_HAVE_SSE2
      case cpu_isa::sse2: return true;
      case cpu_isa::avx2: return detail::cpu_has_avx2();
#endif
      default: return false;
    }
  }

  // Filters `edges` of plane `p` in place. Throws vqm::error(errc::invalid_argument) on a contract
  // violation, before touching any pixel.
  template <class Pixel>
  void filter(kind k, const plane<Pixel>& p, std::span<const edge> edges, counters* c = nullptr) {
    check_contract(k, p, edges, opt_.checks);
    if (edges.empty()) return;
    const std::size_t per = std::max<std::size_t>(opt_.min_edges_per_thread, 1);
    const std::size_t chunks = std::min<std::size_t>(threads_, (edges.size() + per - 1) / per);
    if (chunks <= 1) {
      run_chunk(k, p, edges, c);
      return;
    }
    std::vector<counters> part(c ? chunks : 0);
    parallel_for(pool_, chunks, threads_, [&](std::size_t i) {
      const std::size_t b = edges.size() * i / chunks, e = edges.size() * (i + 1) / chunks;
      run_chunk(k, p, edges.subspan(b, e - b), c ? &part[i] : nullptr);
    });
    if (c)
      for (const counters& x : part) *c += x;
  }

 private:
  static cpu_isa resolve(cpu_isa want) {
    if (want == cpu_isa::best) {
      if (supports(cpu_isa::avx2)) return cpu_isa::avx2;
      if (supports(cpu_isa::sse2)) return cpu_isa::sse2;
      return cpu_isa::scalar;
    }
    if (!supports(want))
      throw error(errc::invalid_argument, std::string("lpf cpu backend: instruction set ") + name(want) +
                                              " is not available on this CPU/build; use cpu_isa::best");
    return want;
  }

  template <class Pixel>
  void run_chunk(kind k, const plane<Pixel>& p, std::span<const edge> edges, counters* c) const {
    const bool h = k.dir == direction::h;
    switch (k.wd) {
      case 4: return h ? run<direction::h, 4>(p, edges, c) : run<direction::v, 4>(p, edges, c);
      case 8: return h ? run<direction::h, 8>(p, edges, c) : run<direction::v, 8>(p, edges, c);
      default: return h ? run<direction::h, 16>(p, edges, c) : run<direction::v, 16>(p, edges, c);
    }
  }

  template <direction Dir, int Wd, class Pixel>
  void run(const plane<Pixel>& p, std::span<const edge> edges, counters* c) const {
#ifdef VQM_LPF_HAVE_SSE2
    if (isa_ != cpu_isa::scalar) {
      const auto stride = static_cast<std::ptrdiff_t>(p.stride);
      counters local;
      std::size_t done = 0;
      if constexpr (Wd == 4 && sizeof(Pixel) == 1) {
        // 8-bit lanes: 4 edges per AVX2 step, 2 per SSE2 step; a last odd edge takes the int16 path below.
        auto* px = reinterpret_cast<std::uint8_t*>(p.data);
        if (isa_ == cpu_isa::avx2) {
          done = edges.size() & ~std::size_t(3);
          if (c) detail::avx2::run_u8_4<Dir, true>(px, stride, edges.data(), done, local);
          else detail::avx2::run_u8_4<Dir, false>(px, stride, edges.data(), done, local);
        }
        const std::size_t pairs = (edges.size() - done) & ~std::size_t(1);
        if (c) detail::sse2::run_u8_4<Dir, true>(px, stride, edges.data() + done, pairs, local);
        else detail::sse2::run_u8_4<Dir, false>(px, stride, edges.data() + done, pairs, local);
        done += pairs;
      } else if (isa_ == cpu_isa::avx2) {
        done = edges.size() & ~std::size_t(1);
        if (c) detail::avx2::run<Dir, Wd, true>(p.data, stride, edges.data(), done, p.bit_depth, local);
        else detail::avx2::run<Dir, Wd, false>(p.data, stride, edges.data(), done, p.bit_depth, local);
      }
      if (c) detail::sse2::run<Dir, Wd, true>(p.data, stride, edges.data() + done, edges.size() - done, p.bit_depth, local);
      else detail::sse2::run<Dir, Wd, false>(p.data, stride, edges.data() + done, edges.size() - done, p.bit_depth, local);
      if (c) *c += local;
      return;
    }
#endif
    reference::filter_edges<Dir, Wd>(p, edges, c);
  }

  cpu_options opt_;
  cpu_isa isa_ = cpu_isa::scalar;
  std::unique_ptr<thread_pool> own_;  // when the caller gave no executor
  executor* pool_ = nullptr;
  unsigned threads_ = 1;
};

static_assert(LpfKernel<cpu_backend, std::uint8_t> && LpfKernel<cpu_backend, std::uint16_t>);

}  // namespace vqm::lpf
