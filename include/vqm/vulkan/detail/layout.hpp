// Where a frame pair's planes lie in the upload/input buffer of a frame slot: ref planes then dis
// planes, each at a 256-byte aligned offset, rows of the view's width padded to whole 32-bit words.
// The programs read these planar, LSB-aligned planes (`format`). A semi-planar picture's interleaved
// chroma is uploaded as it is into its own region after them (`packed`), and MSB-aligned samples as
// they are into the planar places; the unpack shader (detail/unpack.hpp) then writes the planar planes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "vqm/picture.hpp"
#include "vqm/vulkan/plane_binding.hpp"

namespace vqm::vulkan::detail {

[[nodiscard]] constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept { return (x + a - 1) / a * a; }

struct frame_layout {
  picture_format format{};                 // what the programs read: planar, LSB-aligned
  std::array<picture_format, 2> source{};  // the pictures as given ([0] ref, [1] dis)
  int planes = 0;
  std::uint32_t bps = 1;                   // bytes per sample
  std::array<std::uint32_t, 3> width{}, height{};  // the views' plane sizes (floor chroma in compat mode)
  std::array<std::uint32_t, 3> stride{};   // bytes, multiple of 4
  std::array<std::array<std::uint64_t, 3>, 2> offset{};  // [picture][plane], bytes
  std::array<std::uint64_t, 2> packed{};   // [picture]: its interleaved chroma rows (semi-planar only), bytes
  std::uint32_t packed_stride = 0;         // bytes per interleaved row (2 · width[1] samples), multiple of 8
  std::uint64_t bytes = 0;

  [[nodiscard]] static frame_layout of(const picture_view& v) { return of(v, v); }
  [[nodiscard]] static frame_layout of(const picture_view& ref, const picture_view& dis) {
    frame_layout l;
    l.format = planar_equivalent(ref.format);
    l.source = {ref.format, dis.format};
    l.planes = l.format.planes();
    l.bps = static_cast<std::uint32_t>(l.format.bytes_per_sample());
    for (int p = 0; p < l.planes; ++p) {
      l.width[p] = plane_extent(ref, p).width;
      l.height[p] = plane_extent(ref, p).height;
      l.stride[p] = static_cast<std::uint32_t>(align_up(std::uint64_t{l.width[p]} * l.bps, 4));
    }
    std::uint64_t off = 0;
    for (int pic = 0; pic < 2; ++pic)
      for (int p = 0; p < l.planes; ++p) {
        l.offset[pic][p] = off;
        off = align_up(off + std::uint64_t{l.stride[p]} * l.height[p], 256);
      }
    // Whole 8-byte pairs of words per row: the shader reads words 2k and 2k + 1 for output word k.
    l.packed_stride = static_cast<std::uint32_t>(align_up(2 * std::uint64_t{l.width[1]} * l.bps, 8));
    for (int pic = 0; pic < 2; ++pic)
      if (l.semi_planar(pic)) {
        l.packed[pic] = off;
        off = align_up(off + std::uint64_t{l.packed_stride} * l.height[1], 256);
      }
    l.bytes = off == 0 ? 256 : off;
    return l;
  }

  [[nodiscard]] bool semi_planar(int pic) const noexcept { return source[pic].semi_planar(); }
  // Some picture needs the unpack dispatch (interleaved chroma or MSB-aligned samples).
  [[nodiscard]] bool unpacks() const noexcept { return !source[0].is_planar() || !source[1].is_planar(); }

  [[nodiscard]] bool matches(const picture_view& v) const noexcept { return matches(v, v); }
  [[nodiscard]] bool matches(const picture_view& ref, const picture_view& dis) const noexcept {
    if (!(ref.format == source[0]) || !(dis.format == source[1])) return false;
    for (int p = 0; p < planes; ++p)
      if (plane_extent(ref, p).width != width[p] || plane_extent(ref, p).height != height[p]) return false;
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
