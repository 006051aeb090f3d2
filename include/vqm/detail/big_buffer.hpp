// Storage for the large buffers of a run (pictures, the motion ring, the kernels' per-thread planes): on
// Linux, blocks of 1 MiB or more are 2 MiB-aligned and marked for transparent huge pages, so the first
// touch of a 1080p picture costs two page faults instead of ~800. Under a hypervisor a 4 KiB fault costs
// ~12 µs (measured on the project's VM: 80 MB touched 240 ms, 7–20 ms with huge pages), which made start-up
// a visible part of a short run. Smaller blocks, other systems: std::allocator. Contents are what
// std::vector makes of them (value-initialised unless written otherwise).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vqm::detail {

template <class T>
struct big_allocator {
  using value_type = T;
  static constexpr std::size_t huge = std::size_t{2} << 20;  // x86-64's and aarch64's (4 KiB granule) huge page
  static constexpr std::size_t threshold = std::size_t{1} << 20;

  big_allocator() noexcept = default;
  template <class U>
  big_allocator(const big_allocator<U>&) noexcept {}  // NOLINT: rebinding, as std::allocator

  // Whether n elements take the huge-page path (allocate and deallocate must agree on it).
  [[nodiscard]] static constexpr bool big(std::size_t n) noexcept {
#if defined(__linux__)
    return n > 0 && n <= (~std::size_t{0} - huge) / sizeof(T) && n * sizeof(T) >= threshold;
#else
    return (void)n, false;
#endif
  }

  [[nodiscard]] T* allocate(std::size_t n) {
#if defined(__linux__)
    if (big(n)) {
      const std::size_t bytes = (n * sizeof(T) + huge - 1) / huge * huge;
      void* p = std::aligned_alloc(huge, bytes);
      if (!p) throw std::bad_alloc();
      (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused (THP off, old kernel) it changes nothing
      return static_cast<T*>(p);
    }
#endif
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (big(n)) return std::free(p);
    std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  friend bool operator==(const big_allocator&, const big_allocator<U>&) noexcept {
    return true;
  }
};

template <class T>
using big_vector = std::vector<T, big_allocator<T>>;

}  // namespace vqm::detail
