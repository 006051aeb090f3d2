// The Cpu backend's input stage: pictures stored otherwise than the kernels read them (semi-planar
// chroma: NV12, NV21, P010, ...; MSB-aligned samples: P010, P012) are written as planar, LSB-aligned
// planes into scratch the backend owns. A plane that needs no change (NV12's luma) is not copied.
//
// Frames run in parallel on the pool, so each frame in flight holds its own scratch buffer: the frame
// (and its pool task's copy) keeps a reference, and a buffer nobody else references is reused by the next
// frame. Once as many buffers exist as frames are alive at once, nothing is allocated per frame.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "vqm/picture.hpp"

namespace vqm::cpu {

namespace semi_planar_detail {

[[nodiscard]] constexpr std::size_t align64(std::size_t n) noexcept { return (n + 63) & ~std::size_t{63}; }

// Bytes of planar scratch view v needs: its chroma planes when interleaved, its luma when MSB-aligned.
[[nodiscard]] inline std::size_t scratch_bytes(const picture_view& v) noexcept {
  const std::size_t bps = v.format.bytes_per_sample();
  std::size_t n = 0;
  if (v.format.msb_shift != 0) n += align64(std::size_t{v.planes[0].width} * v.planes[0].height * bps);
  if (v.format.planes() == 3 && (v.format.semi_planar() || v.format.msb_shift != 0))
    n += 2 * align64(std::size_t{plane_extent(v, 1).width} * plane_extent(v, 1).height * bps);
  return n;
}

template <class T>
void copy_shifted(const plane_view& src, T* dst, unsigned shift) noexcept {
  for (std::uint32_t y = 0; y < src.height; ++y) {
    const T* s = src.row<T>(y);
    T* d = dst + std::size_t{y} * src.width;
    for (std::uint32_t x = 0; x < src.width; ++x) d[x] = static_cast<T>(s[x] >> shift);
  }
}

// The interleaved plane `src` (width pairs per row) into the planes `a` (first of each pair) and `b`.
template <class T>
void split(const plane_view& src, T* a, T* b, unsigned shift) noexcept {
  for (std::uint32_t y = 0; y < src.height; ++y) {
    const T* s = src.row<T>(y);
    T* da = a + std::size_t{y} * src.width;
    T* db = b + std::size_t{y} * src.width;
    for (std::uint32_t x = 0; x < src.width; ++x) {
      da[x] = static_cast<T>(s[2 * x] >> shift);
      db[x] = static_cast<T>(s[2 * x + 1] >> shift);
    }
  }
}

template <class T>
picture_view to_planar(const picture_view& v, std::byte* scratch) noexcept {
  picture_view out{planar_equivalent(v.format), v.planes};
  const unsigned shift = v.format.msb_shift;
  auto take = [&](std::uint32_t w, std::uint32_t h) {
    T* p = reinterpret_cast<T*>(scratch);
    scratch += align64(std::size_t{w} * h * sizeof(T));
    return p;
  };
  auto planar = [](T* data, std::uint32_t w, std::uint32_t h) {
    return plane_view{reinterpret_cast<const std::byte*>(data), static_cast<std::ptrdiff_t>(w * sizeof(T)), w, h};
  };
  if (shift != 0) {
    const plane_view& y = v.planes[0];
    T* d = take(y.width, y.height);
    copy_shifted<T>(y, d, shift);
    out.planes[0] = planar(d, y.width, y.height);
  }
  if (v.format.planes() == 1) return out;
  const plane_view& c = plane_extent(v, 1);
  if (v.format.semi_planar()) {
    T* cb = take(c.width, c.height);
    T* cr = take(c.width, c.height);
    if (v.format.layout == chroma_layout::uv) split<T>(c, cb, cr, shift);
    else split<T>(c, cr, cb, shift);
    out.planes[1] = planar(cb, c.width, c.height);
    out.planes[2] = planar(cr, c.width, c.height);
  } else if (shift != 0) {
    for (int p = 1; p < 3; ++p) {
      T* d = take(v.planes[p].width, v.planes[p].height);
      copy_shifted<T>(v.planes[p], d, shift);
      out.planes[p] = planar(d, v.planes[p].width, v.planes[p].height);
    }
  }
  return out;
}

}  // namespace semi_planar_detail

// v as planar LSB-aligned planes, written into `scratch` (at least scratch_bytes(v), 64-byte aligned
// for speed only); planes that need no conversion still point into v. v must not be planar already.
[[nodiscard]] inline picture_view to_planar(const picture_view& v, std::byte* scratch) noexcept {
  return v.format.bytes_per_sample() == 1 ? semi_planar_detail::to_planar<std::uint8_t>(v, scratch)
                                          : semi_planar_detail::to_planar<std::uint16_t>(v, scratch);
}

// Base of the Cpu backend (through cpu::engines) holding its scratch buffers.
class planar_input {
 public:
  struct planar_pair {
    picture_view ref, dis;
    std::shared_ptr<const void> hold;  // the scratch; the frame keeps it until it is gone
  };

  // The pair as planar views (the caller checked it with check_pair). Thread-safe.
  [[nodiscard]] planar_pair to_planar_pair(const picture_view& ref, const picture_view& dis) const {
    const std::size_t rb = ref.format.is_planar() ? 0 : semi_planar_detail::scratch_bytes(ref);
    const std::size_t db = dis.format.is_planar() ? 0 : semi_planar_detail::scratch_bytes(dis);
    auto buf = scratch_->acquire(rb + db);
    std::byte* base = buf->data();
    planar_pair out{ref, dis, std::move(buf)};
    if (!ref.format.is_planar()) out.ref = to_planar(ref, base);
    if (!dis.format.is_planar()) out.dis = to_planar(dis, base + rb);
    return out;
  }

  // Scratch buffers made so far: at most the number of frames alive at once (tests check the reuse).
  [[nodiscard]] std::size_t scratch_buffers() const {
    std::lock_guard lock(scratch_->m);
    return scratch_->buffers.size();
  }

 private:
  struct pool {
    std::mutex m;
    std::vector<std::shared_ptr<std::vector<std::byte>>> buffers;

    // A buffer no frame references any more (only this pool does), grown to `bytes` if needed.
    std::shared_ptr<std::vector<std::byte>> acquire(std::size_t bytes) {
      std::lock_guard lock(m);
      for (auto& b : buffers)
        if (b.use_count() == 1) {
          // The last frame to let go released it (an acq_rel decrement); see its reads before we write.
          std::atomic_thread_fence(std::memory_order_acquire);
          if (b->size() < bytes) b->resize(bytes);
          return b;
        }
      buffers.push_back(std::make_shared<std::vector<std::byte>>(bytes));
      return buffers.back();
    }
  };
  std::shared_ptr<pool> scratch_ = std::make_shared<pool>();
};

}  // namespace vqm::cpu
