// Where a frame pair's planes lie in the upload/input buffer of a frame slot: ref planes then dis
// planes, each at a 256-byte aligned offset, rows of the view's width padded to whole 32-bit words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "vqm/picture.hpp"
#include "vqm/vulkan/plane_binding.hpp"

namespace vqm::vulkan::detail {

[[nodiscard]] constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept { return (x + a - 1) / a * a; }

struct frame_layout {
  picture_format format{};
  int planes = 0;
  std::uint32_t bps = 1;                   // bytes per sample
  std::array<std::uint32_t, 3> width{}, height{};  // the views' plane sizes (floor chroma in compat mode)
  std::array<std::uint32_t, 3> stride{};   // bytes, multiple of 4
  std::array<std::array<std::uint64_t, 3>, 2> offset{};  // [picture][plane], bytes
  std::uint64_t bytes = 0;

  [[nodiscard]] static frame_layout of(const picture_view& v) {
    frame_layout l;
    l.format = v.format;
    l.planes = v.format.planes();
    l.bps = static_cast<std::uint32_t>(v.format.bytes_per_sample());
    for (int p = 0; p < l.planes; ++p) {
      l.width[p] = v.planes[p].width;
      l.height[p] = v.planes[p].height;
      l.stride[p] = static_cast<std::uint32_t>(align_up(std::uint64_t{l.width[p]} * l.bps, 4));
    }
    std::uint64_t off = 0;
    for (int pic = 0; pic < 2; ++pic)
      for (int p = 0; p < l.planes; ++p) {
        l.offset[pic][p] = off;
        off = align_up(off + std::uint64_t{l.stride[p]} * l.height[p], 256);
      }
    l.bytes = off == 0 ? 256 : off;
    return l;
  }

  [[nodiscard]] bool matches(const picture_view& v) const noexcept {
    if (!(v.format == format)) return false;
    for (int p = 0; p < planes; ++p)
      if (v.planes[p].width != width[p] || v.planes[p].height != height[p]) return false;
    return true;
  }
  [[nodiscard]] std::uint32_t word(int pic, int p) const noexcept { return static_cast<std::uint32_t>(offset[pic][p] / 4); }
  [[nodiscard]] std::uint32_t stride_words(int p) const noexcept { return stride[p] / 4; }
  [[nodiscard]] std::uint64_t plane_bytes(int p) const noexcept { return std::uint64_t{stride[p]} * height[p]; }
  [[nodiscard]] plane_binding binding(VkBuffer b, int pic, int p) const noexcept {
    return {b, offset[pic][p], stride[p], width[p], height[p], format.bit_depth};
  }
};

}  // namespace vqm::vulkan::detail
