// VP9 loop-filter vocabulary: kernel kinds, the per-edge record, the pixel plane the edges live in.
//
// Naming follows FFmpeg/dav1d (SPEC §1): lpf_h = filtering across a vertical edge (taps along x),
// lpf_v = filtering across a horizontal edge (taps along y). libvpx names them the other way round.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vqm::lpf {

// Direction of the filter taps (not of the edge).
enum class direction : std::uint8_t { h = 0, v = 1 };

// One kernel of the family: lpf_<dir>_<wd>_8. wd is the filter family (4, 8 or 16), not a tap count.
struct kind {
  direction dir = direction::h;
  int wd = 4;
  friend constexpr bool operator==(const kind&, const kind&) = default;
};

inline constexpr kind lpf_h_4_8_kind{direction::h, 4};
inline constexpr kind lpf_h_8_8_kind{direction::h, 8};
inline constexpr kind lpf_h_16_8_kind{direction::h, 16};
inline constexpr kind lpf_v_4_8_kind{direction::v, 4};
inline constexpr kind lpf_v_8_8_kind{direction::v, 8};
inline constexpr kind lpf_v_16_8_kind{direction::v, 16};
inline constexpr kind all_kinds[] = {lpf_h_4_8_kind, lpf_h_8_8_kind, lpf_h_16_8_kind,
                                     lpf_v_4_8_kind, lpf_v_8_8_kind, lpf_v_16_8_kind};

constexpr bool valid_wd(int wd) { return wd == 4 || wd == 8 || wd == 16; }

constexpr std::string_view name(kind k) {
  const bool h = k.dir == direction::h;
  switch (k.wd) {
    case 4: return h ? "lpf_h_4_8" : "lpf_v_4_8";
    case 8: return h ? "lpf_h_8_8" : "lpf_v_8_8";
    case 16: return h ? "lpf_h_16_8" : "lpf_v_16_8";
    default: return "lpf_?";
  }
}

// Footprint per line relative to q0 (SPEC §7): reads [-read_reach, read_reach-1], writes [-write_reach, write_reach-1].
constexpr int read_reach(int wd) { return wd == 16 ? 8 : 4; }
constexpr int write_reach(int wd) { return wd == 16 ? 7 : wd == 8 ? 3 : 2; }
// Two lines closer than this (across the edge) would read what the other writes.
constexpr int min_separation(int wd) { return read_reach(wd) + write_reach(wd); }

inline constexpr int lines_per_edge = 8;

// One 8-line edge segment (SPEC §2.1): offset = pixel index of q0 of line 0; thresholds in 8-bit units.
struct edge {
  std::uint32_t offset = 0;
  std::uint8_t E = 0;  // edge limit (libvpx blimit), 0..254
  std::uint8_t I = 0;  // interior limit (libvpx limit)
  std::uint8_t H = 0;  // high-edge-variance threshold (libvpx thresh)
  std::uint8_t flags = 0;  // reserved, ignored by the kernels
};
static_assert(sizeof(edge) == 8, "the record is shared with the GPU as 2 x uint32");

// The largest E of the contract: at 255 the C and SIMD references of libvpx disagree (SPEC §2.1).
inline constexpr int max_E = 254;

struct thresholds {
  std::uint8_t E, I, H;
};

// E, I, H from a VP9 filter level L in [1, 63] and sharpness S in [0, 7] (SPEC §2).
constexpr thresholds thresholds_from_level(int L, int S) {
  const int shift = (S > 0) + (S > 4);
  int I = L >> shift;
  if (S > 0 && I > 9 - S) I = 9 - S;
  if (I < 1) I = 1;
  return {static_cast<std::uint8_t>(2 * (L + 2) + I), static_cast<std::uint8_t>(I), static_cast<std::uint8_t>(L >> 4)};
}

// A plane of pixels filtered in place. Pixel is std::uint8_t (bit_depth 8) or std::uint16_t (8, 10, 12);
// values must be < 2^bit_depth. size counts pixels, stride is in pixels.
template <class Pixel>
struct plane {
  Pixel* data = nullptr;
  std::size_t size = 0;
  std::size_t stride = 0;
  int bit_depth = 8 * static_cast<int>(sizeof(Pixel));
};

}  // namespace vqm::lpf
