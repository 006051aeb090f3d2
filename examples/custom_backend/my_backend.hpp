// A user-written backend that provides only the SSE kernel: enough for Psnr<MyBackend>, and nothing
// else (Ssim<MyBackend> does not compile: MyBackend is no SsimKernel).
#pragma once

#include <cstdint>
#include <string_view>

#include "vqm/vqm.hpp"

struct MyBackend {
  static constexpr std::string_view name = "my";

  struct frame {
    vqm::picture_view ref, dis;
  };

  // The views already have the plane sizes the metric must see (compat rounding applied).
  frame begin_frame(const vqm::picture_view& ref, const vqm::picture_view& dis) { return {ref, dis}; }
  void submit(frame&) {}  // the work is done in sse() already
  void wait(frame&) {}

  void sse(frame& f, const vqm::sse_request& q, vqm::sse_partials& out) {
    const int planes = q.chroma ? f.ref.format.planes() : 1;
    for (int p = 0; p < planes; ++p) {
      const auto &r = f.ref.planes[p], &d = f.dis.planes[p];
      std::uint64_t sum = 0;
      for (std::uint32_t y = 0; y < r.height; ++y)
        for (std::uint32_t x = 0; x < r.width; ++x) {
          const std::int64_t e = f.ref.format.bit_depth > 8
                                     ? std::int64_t{r.row<std::uint16_t>(y)[x]} - d.row<std::uint16_t>(y)[x]
                                     : std::int64_t{r.row<std::uint8_t>(y)[x]} - d.row<std::uint8_t>(y)[x];
          sum += static_cast<std::uint64_t>(e * e);
        }
      out.sse[p] = sum;
    }
  }
};

static_assert(vqm::SseKernel<MyBackend>);
static_assert(!vqm::SsimKernel<MyBackend>);
