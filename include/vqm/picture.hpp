// Pictures: formats, non-owning views with stride, and owning frames. Chroma is planar (Cb and Cr
// planes) or semi-planar (one plane of interleaved Cb/Cr pairs: NV12, P010, ...), samples LSB-aligned
// or MSB-aligned in their 16-bit words (P010, P012); pixel_formats names them. The kernels read planar
// LSB-aligned samples: each backend converts other layouts itself (cpu/semi_planar.hpp, the Vulkan
// backend's unpack shader), and every metric measures the samples at the format's true bit depth.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vqm/detail/big_buffer.hpp"
#include "vqm/error.hpp"

namespace vqm {

enum class chroma_format : std::uint8_t { yuv420, yuv422, yuv444, yuv400 };

// How the size of a subsampled chroma plane is derived from an odd luma size.
// `ceil` is what files store; `floor` is libvmaf's (compat) reading.
enum class chroma_rounding : std::uint8_t { ceil, floor };

[[nodiscard]] constexpr const char* to_string(chroma_format c) noexcept {
  switch (c) {
    case chroma_format::yuv420: return "4:2:0";
    case chroma_format::yuv422: return "4:2:2";
    case chroma_format::yuv444: return "4:4:4";
    case chroma_format::yuv400: return "4:0:0";
  }
  return "?";
}

// How the chroma samples are stored: two planes (Cb, Cr), or one plane of interleaved pairs, Cb first
// (`uv`: NV12, NV16, NV24, P010) or Cr first (`vu`: NV21, NV42).
enum class chroma_layout : std::uint8_t { planar, uv, vu };

struct picture_format {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  chroma_format chroma = chroma_format::yuv420;
  std::uint32_t bit_depth = 8;  // the samples' true depth: 10 for P010
  chroma_layout layout = chroma_layout::planar;
  // MSB-aligned samples (P010: 6, P012: 4): each 16-bit word holds value << msb_shift; the metrics
  // measure value (the low bits are dropped, as FFmpeg drops them converting P010 to yuv420p10).
  std::uint32_t msb_shift = 0;

  // Logical planes: Y, Cb, Cr (1 for gray), whatever the storage.
  [[nodiscard]] constexpr int planes() const noexcept { return chroma == chroma_format::yuv400 ? 1 : 3; }
  [[nodiscard]] constexpr bool semi_planar() const noexcept {
    return layout != chroma_layout::planar && chroma != chroma_format::yuv400;
  }
  // Planar with LSB-aligned samples: what the kernels read without a conversion.
  [[nodiscard]] constexpr bool is_planar() const noexcept { return !semi_planar() && msb_shift == 0; }
  // Planes in memory: Y, then Cb and Cr, or one interleaved CbCr plane.
  [[nodiscard]] constexpr int stored_planes() const noexcept { return planes() == 1 ? 1 : semi_planar() ? 2 : 3; }
  // Samples per row of stored plane p (an interleaved row holds two per chroma position).
  [[nodiscard]] constexpr std::uint32_t stored_width(int p) const noexcept {
    return p == 1 && semi_planar() ? 2 * plane_width(1) : plane_width(p);
  }
  [[nodiscard]] constexpr std::size_t bytes_per_sample() const noexcept { return bit_depth > 8 ? 2 : 1; }

  [[nodiscard]] constexpr std::uint32_t plane_width(int p, chroma_rounding r = chroma_rounding::ceil) const noexcept {
    if (p == 0) return width;
    if (chroma == chroma_format::yuv400) return 0;
    if (chroma == chroma_format::yuv444) return width;
    return r == chroma_rounding::ceil ? (width + 1) >> 1 : width >> 1;
  }
  [[nodiscard]] constexpr std::uint32_t plane_height(int p, chroma_rounding r = chroma_rounding::ceil) const noexcept {
    if (p == 0) return height;
    if (chroma == chroma_format::yuv400) return 0;
    if (chroma != chroma_format::yuv420) return height;
    return r == chroma_rounding::ceil ? (height + 1) >> 1 : height >> 1;
  }
  // Bytes of one frame as files store it (ceil chroma, little-endian 16-bit above 8 bits; the same for
  // planar and semi-planar storage).
  [[nodiscard]] constexpr std::size_t frame_bytes() const noexcept {
    std::size_t n = 0;
    for (int p = 0; p < stored_planes(); ++p) n += std::size_t{stored_width(p)} * plane_height(p);
    return n * bytes_per_sample();
  }
  friend constexpr bool operator==(const picture_format&, const picture_format&) = default;
};

// The format the kernels measure: the same samples, planar and LSB-aligned.
[[nodiscard]] constexpr picture_format planar_equivalent(picture_format f) noexcept {
  f.layout = chroma_layout::planar;
  f.msb_shift = 0;
  return f;
}

// Named storage formats (FFmpeg's names; a trailing "le" is optional where FFmpeg's name has one).
struct pixel_format_name {
  std::string_view name;
  chroma_format chroma;
  std::uint32_t bit_depth;
  chroma_layout layout = chroma_layout::planar;
  std::uint32_t msb_shift = 0;
};
inline constexpr pixel_format_name pixel_formats[] = {
    {"nv12", chroma_format::yuv420, 8, chroma_layout::uv},       {"nv21", chroma_format::yuv420, 8, chroma_layout::vu},
    {"nv16", chroma_format::yuv422, 8, chroma_layout::uv},       {"nv24", chroma_format::yuv444, 8, chroma_layout::uv},
    {"nv42", chroma_format::yuv444, 8, chroma_layout::vu},       {"nv20le", chroma_format::yuv422, 10, chroma_layout::uv},
    {"p010le", chroma_format::yuv420, 10, chroma_layout::uv, 6}, {"p012le", chroma_format::yuv420, 12, chroma_layout::uv, 4},
    {"p016le", chroma_format::yuv420, 16, chroma_layout::uv},    {"p210le", chroma_format::yuv422, 10, chroma_layout::uv, 6},
    {"p212le", chroma_format::yuv422, 12, chroma_layout::uv, 4}, {"p216le", chroma_format::yuv422, 16, chroma_layout::uv},
    {"p410le", chroma_format::yuv444, 10, chroma_layout::uv, 6}, {"p412le", chroma_format::yuv444, 12, chroma_layout::uv, 4},
    {"p416le", chroma_format::yuv444, 16, chroma_layout::uv},    {"yuv420p", chroma_format::yuv420, 8},
    {"yuv422p", chroma_format::yuv422, 8},                       {"yuv444p", chroma_format::yuv444, 8},
    {"gray", chroma_format::yuv400, 8},                          {"yuv420p10le", chroma_format::yuv420, 10},
    {"yuv422p10le", chroma_format::yuv422, 10},                  {"yuv444p10le", chroma_format::yuv444, 10},
    {"gray10le", chroma_format::yuv400, 10},                     {"yuv420p12le", chroma_format::yuv420, 12},
    {"yuv422p12le", chroma_format::yuv422, 12},                  {"yuv444p12le", chroma_format::yuv444, 12},
    {"gray12le", chroma_format::yuv400, 12},                     {"yuv420p16le", chroma_format::yuv420, 16},
    {"yuv422p16le", chroma_format::yuv422, 16},                  {"yuv444p16le", chroma_format::yuv444, 16},
    {"gray16le", chroma_format::yuv400, 16},
};

// "p010" and "p010le" both name P010; null for an unknown name.
[[nodiscard]] constexpr const pixel_format_name* find_pixel_format(std::string_view name) noexcept {
  for (const auto& n : pixel_formats)
    if (n.name == name || (n.name.size() == name.size() + 2 && n.name.starts_with(name) && n.name.ends_with("le")))
      return &n;
  return nullptr;
}
// The name of f's storage (without a trailing "le"), or empty when no entry describes it.
[[nodiscard]] constexpr std::string_view pixel_format_of(const picture_format& f) noexcept {
  for (const auto& n : pixel_formats)
    if (n.chroma == f.chroma && n.bit_depth == f.bit_depth && n.layout == (f.semi_planar() ? f.layout : chroma_layout::planar) &&
        n.msb_shift == f.msb_shift)
      return n.name.ends_with("le") ? n.name.substr(0, n.name.size() - 2) : n.name;
  return {};
}
[[nodiscard]] constexpr picture_format make_format(const pixel_format_name& n, std::uint32_t width,
                                                   std::uint32_t height) noexcept {
  return {width, height, n.chroma, n.bit_depth, n.layout, n.msb_shift};
}

// Why a storage description is inconsistent (empty when it is not).
[[nodiscard]] inline std::string storage_problem(const picture_format& f) {
  if (f.layout != chroma_layout::planar && f.chroma == chroma_format::yuv400)
    return "a gray picture has no chroma to interleave (use chroma_layout::planar)";
  if (f.msb_shift != 0 && (f.bit_depth <= 8 || f.bit_depth + f.msb_shift > 16))
    return "msb_shift " + std::to_string(f.msb_shift) + " does not fit " + std::to_string(f.bit_depth) +
           "-bit samples in 16-bit words";
  return {};
}

// "576x324 4:2:0 8-bit", and the storage for others: "576x324 4:2:0 10-bit p010".
[[nodiscard]] inline std::string describe(const picture_format& f) {
  std::string s = std::to_string(f.width);
  s += 'x';
  s += std::to_string(f.height);
  s += ' ';
  s += to_string(f.chroma);
  s += ' ';
  s += std::to_string(f.bit_depth);
  s += "-bit";
  if (f.is_planar()) return s;
  s += ' ';
  if (const auto name = pixel_format_of(f); !name.empty()) return s += name;
  s += f.semi_planar() ? (f.layout == chroma_layout::uv ? "semi-planar CbCr" : "semi-planar CrCb") : "planar";
  if (f.msb_shift != 0) {
    s += ", MSB-aligned by ";
    s += std::to_string(f.msb_shift);
  }
  return s;
}

// One plane: samples are uint8_t at 8 bits, uint16_t above. Stride in bytes. The interleaved plane of a
// semi-planar picture (planes[1]; planes[2] is then empty) has width × height chroma positions, each a
// pair of samples: a row holds 2 · width samples.
struct plane_view {
  const std::byte* data = nullptr;
  std::ptrdiff_t stride = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;

  template <class T>
  [[nodiscard]] const T* row(std::uint32_t y) const noexcept {
    return reinterpret_cast<const T*>(data + static_cast<std::ptrdiff_t>(y) * stride);
  }
};

struct picture_view {
  picture_format format;
  std::array<plane_view, 3> planes{};
};

// The view a metric sees: with chroma_rounding::floor the odd-size chroma planes lose their last
// column/row (libvmaf reads the top-left floor-sized part of the planes files store).
[[nodiscard]] inline picture_view with_chroma_rounding(picture_view v, chroma_rounding r) noexcept {
  for (int p = 1; p < v.format.stored_planes(); ++p) {
    v.planes[p].width = v.format.plane_width(p, r);
    v.planes[p].height = v.format.plane_height(p, r);
  }
  return v;
}

// The view of logical plane p's positions: the interleaved plane for both chroma planes when semi-planar.
[[nodiscard]] constexpr const plane_view& plane_extent(const picture_view& v, int p) noexcept {
  return v.planes[p == 2 && v.format.semi_planar() ? 1 : p];
}

// A backend measures a pair only when both pictures hold the same samples' format (size, chroma format,
// bit depth; the storage may differ) and the same plane sizes (the kernels walk both with the
// reference's geometry). Throws errc::mismatch naming the difference.
inline void check_pair(const picture_view& ref, const picture_view& dis) {
  for (const auto* v : {&ref, &dis})
    if (auto why = storage_problem(v->format); !why.empty()) throw error(errc::unsupported_format, why);
  if (!(planar_equivalent(ref.format) == planar_equivalent(dis.format)))
    throw error(errc::mismatch, "reference is " + describe(ref.format) + " but distorted is " + describe(dis.format));
  for (int p = 0; p < ref.format.planes(); ++p)
    if (plane_extent(ref, p).width != plane_extent(dis, p).width || plane_extent(ref, p).height != plane_extent(dis, p).height)
      throw error(errc::mismatch, "reference and distorted plane " + std::to_string(p) + " sizes differ");
}

// A sample above what the format's bit depth allows (2^bit_depth - 1): where it is and its value.
struct sample_out_of_range {
  int plane = 0;
  std::uint32_t x = 0, y = 0;
  std::uint32_t value = 0;
};

// The first sample above the declared bit depth, in stored plane/row/column order; none for 8 and 16
// bits and for MSB-aligned samples filling their word (P010), where every stored value is in range.
// Cheap: one OR over each row, a scan only of a row that fails.
[[nodiscard]] inline std::optional<sample_out_of_range> find_sample_out_of_range(const picture_view& v) noexcept {
  const std::uint32_t depth = v.format.bit_depth, shift = v.format.msb_shift;
  if (depth <= 8 || depth + shift >= 16) return std::nullopt;
  for (int p = 0; p < v.format.stored_planes(); ++p) {
    const auto& pl = v.planes[p];
    const bool pairs = p == 1 && v.format.semi_planar();
    const std::uint32_t n = pairs ? 2 * pl.width : pl.width;
    for (std::uint32_t y = 0; y < pl.height; ++y) {
      const auto* row = pl.row<std::uint16_t>(y);
      unsigned acc = 0;
      for (std::uint32_t x = 0; x < n; ++x) acc |= row[x];
      if ((acc >> (depth + shift)) == 0) continue;
      for (std::uint32_t x = 0; x < n; ++x) {
        if ((row[x] >> (depth + shift)) == 0) continue;
        const std::uint32_t value = row[x] >> shift;
        if (!pairs) return sample_out_of_range{p, x, y, value};
        const bool cr = ((x & 1) != 0) != (v.format.layout == chroma_layout::vu);
        return sample_out_of_range{cr ? 2 : 1, x / 2, y, value};
      }
    }
  }
  return std::nullopt;
}

// "plane 1 (Cb) sample at x=3, y=7 is 1500, above the 10-bit maximum 1023"
[[nodiscard]] inline std::string describe(const sample_out_of_range& s, std::uint32_t bit_depth) {
  static constexpr const char* names[] = {"Y", "Cb", "Cr"};
  return "plane " + std::to_string(s.plane) + " (" + names[s.plane < 3 ? s.plane : 0] + ") sample at x=" +
         std::to_string(s.x) + ", y=" + std::to_string(s.y) + " is " + std::to_string(s.value) + ", above the " +
         std::to_string(bit_depth) + "-bit maximum " + std::to_string((1u << bit_depth) - 1);
}

// For callers that build their own pictures: throws errc::bad_input when a sample does not fit the
// declared bit depth (the metrics assume it does; out-of-range samples overflow their sums and make
// backends disagree). vqm's readers (Y4M, raw .yuv) run this check on every frame they read.
inline void check_sample_range(const picture_view& v) {
  if (const auto bad = find_sample_out_of_range(v)) throw error(errc::bad_input, describe(*bad, v.format.bit_depth));
}

// Where each stored plane starts in a frame stored "packed": planes back to back, rows tightly packed, as
// Y4M and raw .yuv files hold a frame (and picture stores it). The whole frame is f.frame_bytes().
[[nodiscard]] constexpr std::array<std::size_t, 3> packed_offsets(const picture_format& f) noexcept {
  std::array<std::size_t, 3> off{};
  std::size_t at = 0;
  for (int p = 0; p < f.stored_planes(); ++p) {
    off[p] = at;
    at += std::size_t{f.stored_width(p)} * f.plane_height(p) * f.bytes_per_sample();
  }
  return off;
}

// The view of a packed frame at `data` (f.frame_bytes() bytes): memory of the caller's (a mapped upload
// buffer a frame was read into) seen as a picture.
[[nodiscard]] inline picture_view packed_view(const picture_format& f, const std::byte* data) noexcept {
  const auto off = packed_offsets(f);
  picture_view v{f, {}};
  for (int p = 0; p < f.stored_planes(); ++p)
    v.planes[p] = plane_view{data + off[p], static_cast<std::ptrdiff_t>(std::size_t{f.stored_width(p)} * f.bytes_per_sample()),
                             f.plane_width(p), f.plane_height(p)};
  return v;
}

// An owning picture with tightly packed rows, stored as its format says (planar or semi-planar).
class picture {
 public:
  picture() = default;
  explicit picture(const picture_format& f) { reset(f); }

  void reset(const picture_format& f) {
    if (f.width == 0 || f.height == 0)
      throw error(errc::invalid_argument, "picture size must be non-zero, got " + describe(f));
    if (f.bit_depth < 8 || f.bit_depth > 16)
      throw error(errc::unsupported_format, "bit depth must be 8..16, got " + std::to_string(f.bit_depth));
    if (auto why = storage_problem(f); !why.empty()) throw error(errc::unsupported_format, why);
    format_ = f;
    offset_ = packed_offsets(f);
    storage_.assign(f.frame_bytes(), std::byte{0});
  }

  [[nodiscard]] const picture_format& format() const noexcept { return format_; }
  [[nodiscard]] std::ptrdiff_t stride(int p) const noexcept {
    return static_cast<std::ptrdiff_t>(format_.stored_width(p) * format_.bytes_per_sample());
  }
  [[nodiscard]] std::byte* plane_data(int p) noexcept { return storage_.data() + offset_[p]; }
  [[nodiscard]] const std::byte* plane_data(int p) const noexcept { return storage_.data() + offset_[p]; }
  template <class T>
  [[nodiscard]] T* row(int p, std::uint32_t y) noexcept {
    return reinterpret_cast<T*>(plane_data(p) + static_cast<std::ptrdiff_t>(y) * stride(p));
  }
  // The whole frame in file layout (planes back to back).
  [[nodiscard]] std::span<std::byte> bytes() noexcept { return storage_; }
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return storage_; }

  [[nodiscard]] picture_view view() const noexcept { return packed_view(format_, storage_.data()); }
  operator picture_view() const noexcept { return view(); }  // NOLINT: a picture is usable where a view is

 private:
  picture_format format_{};
  std::array<std::size_t, 3> offset_{};
  vqm::detail::big_vector<std::byte> storage_;
};

}  // namespace vqm
