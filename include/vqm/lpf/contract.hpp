// API-boundary checks of the kernel contract (SPEC §7, §11). They throw vqm::error(errc::invalid_argument)
// with a message naming the kernel, the edge index, the bound and the fix. The checks are what makes a
// batch order-independent, so the Cpu threads and the GPU lanes may run its edges in any order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/lpf/edge.hpp"

namespace vqm::lpf {

enum class check_level {
  full,    // bounds, thresholds and pairwise edge independence (default)
  bounds,  // everything but the pairwise test: the caller guarantees the edges do not interact
};

namespace detail {

[[noreturn]] inline void contract_fail(kind k, const std::string& what) {
  throw error(errc::invalid_argument, std::string(name(k)) + ": " + what);
}

// Edges a and b interact (one's write window meets the other's read window) iff b - a lies in
// {dr * line_step + dc : |dr| <= rows, |dc| <= cols} (SPEC §7). Sorted offsets make this a sweep.
inline void check_independent(kind k, std::size_t stride, std::span<const edge> edges) {
  const bool h = k.dir == direction::h;
  const std::int64_t sep = min_separation(k.wd) - 1;
  // h: rows of the edge are `stride` apart, taps along x; v: taps `stride` apart, lines along x.
  const std::int64_t rows = h ? lines_per_edge - 1 : sep;
  const std::int64_t cols = h ? sep : lines_per_edge - 1;
  const std::int64_t step = static_cast<std::int64_t>(stride);
  std::vector<std::uint32_t> sorted;
  std::span<const edge> in = edges;
  bool is_sorted = true;
  for (std::size_t i = 1; i < in.size() && is_sorted; ++i) is_sorted = in[i - 1].offset <= in[i].offset;
  std::vector<std::uint32_t> order;  // index into edges, by offset
  if (!is_sorted) {
    order.resize(edges.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return edges[a].offset < edges[b].offset; });
  }
  auto idx = [&](std::size_t i) -> std::size_t { return is_sorted ? i : order[i]; };
  auto off = [&](std::size_t i) -> std::int64_t { return edges[idx(i)].offset; };
  const std::size_t n = edges.size();
  // One forward pointer per row offset dr in [0, rows]; dr < 0 is the same pair seen from the other edge.
  std::vector<std::size_t> ptr(static_cast<std::size_t>(rows) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t a = off(i);
    for (std::int64_t dr = 0; dr <= rows; ++dr) {
      const std::int64_t lo = a + dr * step - cols, hi = a + dr * step + cols;
      std::size_t& j = ptr[static_cast<std::size_t>(dr)];
      while (j < n && off(j) < lo) ++j;
      for (std::size_t m = j; m < n && off(m) <= hi; ++m) {
        if (m == i) continue;
        if (dr == 0 && m < i) continue;  // pair already reported from the other side
        const std::size_t e1 = std::min(idx(i), idx(m)), e2 = std::max(idx(i), idx(m));
        contract_fail(k, "edges " + std::to_string(e1) + " (offset " + std::to_string(edges[e1].offset) + ") and " +
                             std::to_string(e2) + " (offset " + std::to_string(edges[e2].offset) +
                             ") overlap: one writes pixels the other reads, so the result would depend on the "
                             "order; put them in separate batches or space them >= " +
                             std::to_string(sep + 1) + " lines apart across the edge");
      }
    }
  }
}

}  // namespace detail

// Checks one batch. Pixel decides the allowed bit depths (uint8: 8; uint16: 8, 10, 12).
template <class Pixel>
void check_contract(kind k, const plane<Pixel>& p, std::span<const edge> edges, check_level level = check_level::full) {
  static_assert(std::is_same_v<Pixel, std::uint8_t> || std::is_same_v<Pixel, std::uint16_t>);
  if (!valid_wd(k.wd))
    throw error(errc::invalid_argument, "lpf: wd = " + std::to_string(k.wd) + " is not a kernel; use 4, 8 or 16");
  if (k.dir != direction::h && k.dir != direction::v)
    throw error(errc::invalid_argument, "lpf: direction " + std::to_string(int(k.dir)) + " is invalid; use h or v");
  if constexpr (sizeof(Pixel) == 1) {
    if (p.bit_depth != 8)
      detail::contract_fail(k, "bit depth " + std::to_string(p.bit_depth) +
                                   " needs 16-bit pixels; use plane<std::uint16_t> or bit_depth 8");
  } else if (p.bit_depth != 8 && p.bit_depth != 10 && p.bit_depth != 12) {
    detail::contract_fail(k, "bit depth " + std::to_string(p.bit_depth) + " is unsupported; use 8, 10 or 12");
  }
  if (edges.empty()) return;
  if (p.data == nullptr) detail::contract_fail(k, "the plane has no data (null pointer) but edges were given");
  const bool h = k.dir == direction::h;
  const std::uint64_t r = static_cast<std::uint64_t>(read_reach(k.wd));
  const std::uint64_t stride = p.stride;
  const std::uint64_t min_stride = h ? static_cast<std::uint64_t>(min_separation(k.wd)) : lines_per_edge;
  if (stride < min_stride)
    detail::contract_fail(k, "stride " + std::to_string(stride) + " is below " + std::to_string(min_stride) +
                                 ": the lines of one edge would read each other's output; use a stride >= " +
                                 std::to_string(min_stride));
  // Lowest and highest pixel an edge reads, relative to its offset.
  const std::uint64_t below = h ? r : r * stride;
  const std::uint64_t above = h ? 7 * stride + r - 1 : 7 + (r - 1) * stride;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const edge& e = edges[i];
    if (e.E > max_E)
      detail::contract_fail(k, "edge " + std::to_string(i) + ": E = " + std::to_string(e.E) +
                                   " is above 254 (libvpx C and SIMD disagree at 255); clamp E to 254");
    if (e.offset < below)
      detail::contract_fail(k, "edge " + std::to_string(i) + ": offset " + std::to_string(e.offset) +
                                   " is below " + std::to_string(below) +
                                   ", so the p-side taps would start before the buffer; move the edge or pad the buffer");
    if (std::uint64_t(e.offset) + above >= p.size)
      detail::contract_fail(k, "edge " + std::to_string(i) + ": offset " + std::to_string(e.offset) + " + " +
                                   std::to_string(above) + " reaches past the end of the buffer (" +
                                   std::to_string(p.size) + " pixels); enlarge the buffer or drop the edge");
  }
  if (level == check_level::full) detail::check_independent(k, p.stride, edges);
}

}  // namespace vqm::lpf
