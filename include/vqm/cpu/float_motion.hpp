// Cpu kernel of float_motion: libvmaf's convolution_f32_c_s (FILTER_5_s) and vmaf_image_sad_c in their
// binary32 order, bit-identical to cpu/reference/float_motion.hpp. Each vector lane is one blurred sample
// doing exactly the scalar operations (0 + f0·s0 + … + f4·s4, no contraction); the SAD keeps libvmaf's
// serial sums — each row left to right, the rows top to bottom — but runs eight rows' chains side by
// side. The blurred frame is kept per thread, so a stream's next frame (the usual single-thread case)
// blurs only its new luma. Lane count from cpu/float_lanes.hpp: 4 baseline, 8 AVX2, 16 AVX-512.
#pragma once

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/cpu/float_lanes.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace detail {

// libvmaf's FILTER_5_s: double constants rounded to float.
inline constexpr float fmotion_filter[5] = {static_cast<float>(0.054488685), static_cast<float>(0.244201342),
                                            static_cast<float>(0.402619947), static_cast<float>(0.244201342),
                                            static_cast<float>(0.054488685)};

// libvmaf 3.2's convolution edge: −t before the start, 2n−2−t past the end (the edge sample not repeated);
// n >= 3.
[[nodiscard]] constexpr std::int64_t fmotion_mirror(std::int64_t t, std::int64_t n) noexcept {
  return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t);
}

// A fresh stream number for float_motion_sad's cache (never 0).
inline std::uint64_t fmotion_new_stream() noexcept {
  static std::atomic<std::uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) + 1;
}

// Per-thread scratch, grown once; blur[last] is frame `frame` of stream `stream` (0: none).
struct fmotion_workspace {
  std::vector<float> pic;      // the converted luma, w×h plus slack
  std::vector<float> row;      // one row of the vertical pass, mirror-padded by 2
  std::vector<float> blur[2];  // blurred lumas, w×h plus slack
  std::uint64_t stream = 0;
  std::size_t frame = 0;
  int last = 0;
};

// libvmaf's picture_copy: f32(sample) / 2^(bpc−8) − 128 (exact), row-major w×h.
template <class T>
VQM_CPU_INLINE void fmotion_load(const plane_view& p, unsigned bpc, float* dst) noexcept {
  const float scaler = static_cast<float>(1u << (bpc - 8));
  const float offset = -128.0f;
  for (std::uint32_t y = 0; y < p.height; ++y) {
    const T* row = p.row<T>(y);
    float* d = dst + std::size_t{y} * p.width;
    for (std::uint32_t x = 0; x < p.width; ++x) d[x] = static_cast<float>(row[x]) / scaler + offset;
  }
}

// Row i of the blur: the vertical pass into the padded row, its mirrored ends, the horizontal pass into
// dst (whose last vector may spill into the next row, written later, or the slack).
template <int N>
VQM_CPU_INLINE void fmotion_blur_row(const float* src, std::int64_t w, std::int64_t h, std::int64_t i, float* row,
                                     float* dst) noexcept {
  using F = typename flanes::lanes<N>::f;
  const float* f = fmotion_filter;
  const float* r[5];
  for (int k = 0; k < 5; ++k) r[k] = src + fmotion_mirror(i - 2 + k, h) * w;
  for (std::int64_t x = 0; x < w; x += N) {
    F a{};
    for (int k = 0; k < 5; ++k) a += f[k] * simd::load<F>(r[k] + x);
    simd::store(row + 2 + x, a);
  }
  row[1] = row[3];
  row[0] = row[4];
  row[w + 2] = row[w];
  row[w + 3] = row[w - 1];
  for (std::int64_t x = 0; x < w; x += N) {
    F a{};
    for (int k = 0; k < 5; ++k) a += f[k] * simd::load<F>(row + x + k);
    simd::store(dst + x, a);
  }
}

// vmaf_image_sad_c's sums of rows [i, i + R): each row's |a − b| left to right in float, R chains at once;
// the rows' sums then added to accum in order.
template <int R>
VQM_CPU_INLINE float fmotion_sad_rows(const float* a, const float* b, std::int64_t w, std::int64_t i,
                                      float accum) noexcept {
  float line[R] = {};
  for (std::int64_t j = 0; j < w; ++j)
    for (int k = 0; k < R; ++k) line[k] += std::fabs(a[(i + k) * w + j] - b[(i + k) * w + j]);
  for (int k = 0; k < R; ++k) accum += line[k];
  return accum;
}

// Blurs luma p into dst; with prev (the previous frame's blur) returns the SAD sum of the two.
template <int N, class T>
VQM_CPU_INLINE float fmotion_frame(const plane_view& p, unsigned bpc, fmotion_workspace& ws, float* dst,
                                   const float* prev) noexcept {
  constexpr std::int64_t R = 8;
  const std::int64_t w = p.width, h = p.height;
  fmotion_load<T>(p, bpc, ws.pic.data());
  float accum = 0.0f;
  for (std::int64_t i0 = 0; i0 < h; i0 += R) {
    const std::int64_t end = i0 + R < h ? i0 + R : h;
    for (std::int64_t i = i0; i < end; ++i) fmotion_blur_row<N>(ws.pic.data(), w, h, i, ws.row.data(), dst + i * w);
    if (!prev) continue;
    if (end - i0 == R) accum = fmotion_sad_rows<R>(prev, dst, w, i0, accum);
    else
      for (std::int64_t i = i0; i < end; ++i) accum = fmotion_sad_rows<1>(prev, dst, w, i, accum);
  }
  return accum;
}

}  // namespace detail

// float_motion's SAD sum between the blurred previous and current reference lumas (equal sizes, >= 3x3,
// bpc 8, 10, 12 or 16). With a stream number (detail::fmotion_new_stream()) and cur's frame number in it,
// the previous frame's blur is taken from this thread's last call when that call blurred frame − 1 of the
// same stream.
[[nodiscard]] inline float float_motion_sad(const plane_view& prev, const plane_view& cur, unsigned bpc,
                                            std::uint64_t stream = 0, std::size_t frame = 0) {
  thread_local detail::fmotion_workspace ws;
  const std::size_t w = cur.width, h = cur.height;
  const std::size_t n = w * h + flanes::max_lanes;
  for (auto* v : {&ws.pic, &ws.blur[0], &ws.blur[1]})
    if (v->size() < n) v->resize(n);
  if (ws.row.size() < w + 4 + flanes::max_lanes) ws.row.resize(w + 4 + flanes::max_lanes);
  const bool cached = stream != 0 && ws.stream == stream && frame >= 1 && ws.frame == frame - 1;
  ws.stream = 0;  // until this call has completed
  const int prev_i = cached ? ws.last : 0, cur_i = 1 - prev_i;
  const float sad = flanes::with_lanes([&]<int N>() {
    const auto run = [&]<class T>() {
      if (!cached) (void)detail::fmotion_frame<N, T>(prev, bpc, ws, ws.blur[prev_i].data(), nullptr);
      return detail::fmotion_frame<N, T>(cur, bpc, ws, ws.blur[cur_i].data(), ws.blur[prev_i].data());
    };
    return bpc > 8 ? run.template operator()<std::uint16_t>() : run.template operator()<std::uint8_t>();
  });
  ws.stream = stream;
  ws.frame = frame;
  ws.last = cur_i;
  return sad;
}

#pragma GCC diagnostic pop

}  // namespace vqm::cpu
