// Cpu kernel: the integer motion SAD (SPEC-vmaf A.3 steps 1-4), and the ring of raw reference luma
// copies the Cpu backend keeps between frames (A.5).
//
// Bit-identical to cpu::reference::motion_sad: all arithmetic is exact integer arithmetic. The vector
// path works in int32 lanes: the one sum that needs 33 bits (the horizontal pass, and the vertical pass at
// 16 bits) is split as V = 256*Vh + Vl (Vl = V & 255), S = 256*Sh + Sl, and
//   floor((S + 2^15) / 2^16) = (Sh + ((Sl + 2^15) >> 8)) >> 8,
// exact because the low byte of Sl + 2^15 cannot carry into the result. On x86 (x86/motion.hpp) the
// horizontal pass runs on the int16 halves with pmaddwd (AVX2: 8 lanes, else SSE2: 4 lanes); elsewhere in
// generic int32 vectors.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "vqm/detail/big_buffer.hpp"
#include "vqm/cpu/kernel_api.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu::detail {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
using motion_u8x8 = std::uint8_t __attribute__((vector_size(8)));
using motion_u16x8 = std::uint16_t __attribute__((vector_size(16)));
using motion_i32x8 = std::int32_t __attribute__((vector_size(32)));
using motion_u32x8 = std::uint32_t __attribute__((vector_size(32)));

inline constexpr std::int32_t motion_f0 = 3571, motion_f1 = 16004, motion_f2 = 26386;

[[nodiscard]] constexpr std::int64_t motion_mirror(std::int64_t t, std::int64_t n) noexcept {
  return t < 0 ? -t : (t >= n ? 2 * n - 2 - t : t);
}

struct motion_workspace {
  std::vector<std::int32_t> d;         // 8 rows of prev - cur, row y in slot y & 7
  std::vector<std::int32_t> v;         // one vertically filtered row, 2 mirrored samples each side, + slack
  std::vector<std::int16_t> hi, lo;    // v >> 8 and v & 255 (x86 pmaddwd path), + slack
};

// One row of prev - cur as int32: d[c] = p[c] - q[c], c < n (x86: x86/motion.hpp).
template <class T>
inline void motion_diff_row(const T* p, const T* q, std::int32_t* d, std::int64_t n) noexcept {
  std::int64_t c = 0;
  for (; c + 8 <= n; c += 8) {
    motion_i32x8 a, b;
    if constexpr (sizeof(T) == 1) {
      motion_u8x8 x, y;
      std::memcpy(&x, p + c, sizeof x);
      std::memcpy(&y, q + c, sizeof y);
      a = __builtin_convertvector(x, motion_i32x8);
      b = __builtin_convertvector(y, motion_i32x8);
    } else {
      motion_u16x8 x, y;
      std::memcpy(&x, p + c, sizeof x);
      std::memcpy(&y, q + c, sizeof y);
      a = __builtin_convertvector(x, motion_i32x8);
      b = __builtin_convertvector(y, motion_i32x8);
    }
    const motion_i32x8 r = a - b;
    std::memcpy(d + c, &r, sizeof r);
  }
  for (; c < n; ++c) d[c] = std::int32_t{p[c]} - std::int32_t{q[c]};
}

VQM_CPU_INLINE motion_i32x8 motion_loadi(const std::int32_t* p) noexcept {
  motion_i32x8 x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

// floor((f0*(a+e) + f1*(b+d) + f2*c + 2^15) / 2^16) for |a..e| <= 65535, in int32 lanes (the split above).
VQM_CPU_INLINE motion_i32x8 motion_filter16(motion_i32x8 a, motion_i32x8 b, motion_i32x8 c, motion_i32x8 d,
                                            motion_i32x8 e) noexcept {
  const auto hi = [](motion_i32x8 x) { return x >> 8; };
  const auto lo = [](motion_i32x8 x) { return x & 255; };
  const motion_i32x8 sh = motion_f0 * (hi(a) + hi(e)) + motion_f1 * (hi(b) + hi(d)) + motion_f2 * hi(c);
  const motion_i32x8 sl = motion_f0 * (lo(a) + lo(e)) + motion_f1 * (lo(b) + lo(d)) + motion_f2 * lo(c);
  return (sh + ((sl + 32768) >> 8)) >> 8;
}

[[nodiscard]] inline std::int64_t motion_filter_scalar(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d,
                                                       std::int64_t e, unsigned shift) noexcept {
  const std::int64_t s = motion_f0 * (a + e) + motion_f1 * (b + d) + motion_f2 * c;
  return (s + (std::int64_t{1} << (shift - 1))) >> shift;
}

#pragma GCC diagnostic pop

}  // namespace vqm::cpu::detail

#if VQM_CPU_X86
#include "vqm/cpu/x86/motion.hpp"
#endif

namespace vqm::cpu {

namespace detail {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

template <class T, bool Avx2>
VQM_CPU_INLINE std::uint64_t motion_sad_impl(const plane_view& prev, const plane_view& cur, unsigned bpc,
                                             motion_workspace& ws) noexcept {
  const std::int64_t w = cur.width, h = cur.height;
  const std::size_t W = cur.width;
  std::int32_t* dbuf = ws.d.data();
  std::int32_t* vp = ws.v.data();  // vp[c + 2] = V[c]
  const std::int64_t vend = w - w % 8;
  std::int64_t next = 0;  // the next row of prev - cur to compute
  std::uint64_t sad = 0;
  for (std::int64_t r = 0; r < h; ++r) {
    for (const std::int64_t last = r + 2 < h ? r + 2 : h - 1; next <= last; ++next) {
      const T* p = prev.row<T>(static_cast<std::uint32_t>(next));
      const T* q = cur.row<T>(static_cast<std::uint32_t>(next));
      std::int32_t* d = dbuf + static_cast<std::size_t>(next & 7) * W;
#if VQM_CPU_X86
      if constexpr (Avx2) x86::avx2::motion_diff_row(p, q, d, w);
      else x86::sse2::motion_diff_row(p, q, d, w);
#else
      motion_diff_row(p, q, d, w);
#endif
    }
    const std::int32_t* d0 = dbuf + static_cast<std::size_t>(motion_mirror(r - 2, h) & 7) * W;
    const std::int32_t* d1 = dbuf + static_cast<std::size_t>(motion_mirror(r - 1, h) & 7) * W;
    const std::int32_t* d2 = dbuf + static_cast<std::size_t>(r & 7) * W;
    const std::int32_t* d3 = dbuf + static_cast<std::size_t>(motion_mirror(r + 1, h) & 7) * W;
    const std::int32_t* d4 = dbuf + static_cast<std::size_t>(motion_mirror(r + 2, h) & 7) * W;
    // Vertical pass -> vp[2 .. w+1].
    std::int64_t c = 0;
    if (bpc <= 15) {
      const std::int32_t round = std::int32_t{1} << (bpc - 1);
      const int shift = static_cast<int>(bpc);
      for (; c < vend; c += 8) {
        const motion_i32x8 s = motion_f0 * (motion_loadi(d0 + c) + motion_loadi(d4 + c)) +
                               motion_f1 * (motion_loadi(d1 + c) + motion_loadi(d3 + c)) +
                               motion_f2 * motion_loadi(d2 + c);
        const motion_i32x8 v = (s + round) >> shift;
        std::memcpy(vp + 2 + c, &v, sizeof v);
      }
    } else {
      for (; c < vend; c += 8) {
        const motion_i32x8 v = motion_filter16(motion_loadi(d0 + c), motion_loadi(d1 + c), motion_loadi(d2 + c),
                                               motion_loadi(d3 + c), motion_loadi(d4 + c));
        std::memcpy(vp + 2 + c, &v, sizeof v);
      }
    }
    for (; c < w; ++c)
      vp[2 + c] = static_cast<std::int32_t>(motion_filter_scalar(d0[c], d1[c], d2[c], d3[c], d4[c], bpc));
    // Reflect-101 pads: V[-1] = V[1], V[-2] = V[2], V[w] = V[w-2], V[w+1] = V[w-3].
    vp[1] = vp[3];
    vp[0] = vp[4];
    vp[w + 2] = vp[w];
    vp[w + 3] = vp[w - 1];
    // Horizontal pass and |E| into uint32 lanes (wrapping like libvmaf's per-row uint32 sum).
#if VQM_CPU_X86
    if constexpr (Avx2) sad += x86::avx2::motion_row(vp, ws.hi.data(), ws.lo.data(), w);
    else sad += x86::sse2::motion_row(vp, ws.hi.data(), ws.lo.data(), w);
    continue;
#endif
    motion_u32x8 acc{};
    c = 0;
    for (; c < vend; c += 8) {
      const motion_i32x8 e = motion_filter16(motion_loadi(vp + c), motion_loadi(vp + c + 1), motion_loadi(vp + c + 2),
                                             motion_loadi(vp + c + 3), motion_loadi(vp + c + 4));
      const motion_i32x8 sign = e >> 31;
      acc += reinterpret_cast<motion_u32x8>((e ^ sign) - sign);
    }
    std::uint32_t row = 0;
    for (int i = 0; i < 8; ++i) row += acc[i];
    for (; c < w; ++c) {
      const std::int64_t e = motion_filter_scalar(vp[c], vp[c + 1], vp[c + 2], vp[c + 3], vp[c + 4], 16);
      row += static_cast<std::uint32_t>(e < 0 ? -e : e);
    }
    sad += row;
  }
  return sad;
}

#pragma GCC diagnostic pop

}  // namespace detail

// SAD of A.3 steps 1-4 between the previous and the current reference luma (equal sizes, W and H >= 3;
// bpc 8 means uint8 samples, 9..16 uint16). Uses AVX2 when cpu::active_isa() allows.
[[nodiscard]] VQM_CPU_KERNEL std::uint64_t motion_sad(const plane_view& prev, const plane_view& cur, unsigned bpc)
#if VQM_CPU_KERNEL_BODIES
{
  if (cur.width < 3 || cur.height < 3 || prev.width != cur.width || prev.height != cur.height || bpc < 8 || bpc > 16)
    throw error(errc::invalid_argument, "motion_sad needs two planes of the same size, at least 3x3, and 8..16 bits");
  thread_local detail::motion_workspace ws;
  const std::size_t w = cur.width;
  if (ws.d.size() < 8 * w) ws.d.resize(8 * w);
  if (ws.v.size() < w + 4 + 8) ws.v.resize(w + 4 + 8);
  if (ws.hi.size() < w + 4 + 32) {
    ws.hi.resize(w + 4 + 32);
    ws.lo.resize(w + 4 + 32);
  }
#if VQM_CPU_X86
  if (active_isa() >= isa::avx2) {
    if (bpc == 8) return simd::as_avx2([&] { return detail::motion_sad_impl<std::uint8_t, true>(prev, cur, bpc, ws); });
    return simd::as_avx2([&] { return detail::motion_sad_impl<std::uint16_t, true>(prev, cur, bpc, ws); });
  }
#endif
  return bpc == 8 ? detail::motion_sad_impl<std::uint8_t, false>(prev, cur, bpc, ws)
                  : detail::motion_sad_impl<std::uint16_t, false>(prev, cur, bpc, ws);
}
#else
;
#endif

// The raw reference luma of the last `ring` frames, in slots allocated once. capture() runs in frame
// order on one thread; at() may run concurrently on other threads for frames still in the ring (the
// caller sizes the ring so that a slot is not reused while a kernel reads it).
class motion_state {
 public:
  motion_state() = default;
  motion_state(const picture_format& fmt, std::size_t ring)
      : width_(fmt.width), height_(fmt.height), bytes_(fmt.bytes_per_sample()), ring_(ring) {
    if (ring_ < 2) throw error(errc::invalid_argument, "motion_state needs a ring of at least 2 frames");
    if (fmt.width == 0 || fmt.height == 0) throw error(errc::invalid_argument, "motion_state: empty picture format");
    store_.assign(slot_bytes() * ring_, std::byte{0});
  }
  motion_state(motion_state&& o) noexcept { *this = std::move(o); }
  motion_state& operator=(motion_state&& o) noexcept {
    width_ = o.width_;
    height_ = o.height_;
    bytes_ = o.bytes_;
    ring_ = o.ring_;
    store_ = std::move(o.store_);
    count_.store(o.count_.load(std::memory_order_acquire), std::memory_order_release);
    return *this;
  }
  motion_state(const motion_state&) = delete;
  motion_state& operator=(const motion_state&) = delete;

  // Copies `luma` into the next slot and returns its frame number (0, 1, 2, ...).
  std::size_t capture(const plane_view& luma) {
    if (luma.width != width_ || luma.height != height_)
      throw error(errc::mismatch, "motion: the picture size changed from " + std::to_string(width_) + "x" +
                                      std::to_string(height_) + " to " + std::to_string(luma.width) + "x" +
                                      std::to_string(luma.height));
    const std::size_t n = count_.load(std::memory_order_relaxed);
    std::byte* dst = store_.data() + (n % ring_) * slot_bytes();
    const std::size_t row = std::size_t{width_} * bytes_;
    for (std::uint32_t y = 0; y < height_; ++y)
      std::memcpy(dst + y * row, luma.data + static_cast<std::ptrdiff_t>(y) * luma.stride, row);
    count_.store(n + 1, std::memory_order_release);
    return n;
  }

  // The luma captured as `frame_number`; it must be one of the last `ring` captured.
  [[nodiscard]] plane_view at(std::size_t frame_number) const {
    const std::size_t n = count_.load(std::memory_order_acquire);
    if (frame_number >= n || n - frame_number > ring_)
      throw error(errc::invalid_argument, "motion_state: frame " + std::to_string(frame_number) +
                                              " is not in the ring (captured " + std::to_string(n) + ", ring " +
                                              std::to_string(ring_) + ")");
    return plane_view{store_.data() + (frame_number % ring_) * slot_bytes(),
                      static_cast<std::ptrdiff_t>(std::size_t{width_} * bytes_), width_, height_};
  }

  [[nodiscard]] std::size_t captured() const noexcept { return count_.load(std::memory_order_acquire); }
  [[nodiscard]] std::size_t ring() const noexcept { return ring_; }

 private:
  [[nodiscard]] std::size_t slot_bytes() const noexcept { return std::size_t{width_} * height_ * bytes_; }

  std::uint32_t width_ = 0, height_ = 0;
  std::size_t bytes_ = 1, ring_ = 0;
  vqm::detail::big_vector<std::byte> store_;
  std::atomic<std::size_t> count_{0};
};

}  // namespace vqm::cpu
