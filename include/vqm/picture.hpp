// Planar pictures: formats, non-owning views with stride, and owning frames.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

struct picture_format {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  chroma_format chroma = chroma_format::yuv420;
  std::uint32_t bit_depth = 8;

  [[nodiscard]] constexpr int planes() const noexcept { return chroma == chroma_format::yuv400 ? 1 : 3; }
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
  // Bytes of one frame as files store it (ceil chroma, little-endian 16-bit above 8 bits).
  [[nodiscard]] constexpr std::size_t frame_bytes() const noexcept {
    std::size_t n = 0;
    for (int p = 0; p < planes(); ++p) n += std::size_t{plane_width(p)} * plane_height(p);
    return n * bytes_per_sample();
  }
  friend constexpr bool operator==(const picture_format&, const picture_format&) = default;
};

[[nodiscard]] inline std::string describe(const picture_format& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + to_string(f.chroma) + " " +
         std::to_string(f.bit_depth) + "-bit";
}

// One plane: samples are uint8_t at 8 bits, uint16_t above. Stride in bytes.
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
  for (int p = 1; p < v.format.planes(); ++p) {
    v.planes[p].width = v.format.plane_width(p, r);
    v.planes[p].height = v.format.plane_height(p, r);
  }
  return v;
}

// A backend measures a pair only when both pictures have the same format and the same plane sizes (the
// kernels walk both with the reference's geometry). Throws errc::mismatch naming the difference.
inline void check_pair(const picture_view& ref, const picture_view& dis) {
  if (!(ref.format == dis.format))
    throw error(errc::mismatch, "reference is " + describe(ref.format) + " but distorted is " + describe(dis.format));
  for (int p = 0; p < ref.format.planes(); ++p)
    if (ref.planes[p].width != dis.planes[p].width || ref.planes[p].height != dis.planes[p].height)
      throw error(errc::mismatch, "reference and distorted plane " + std::to_string(p) + " sizes differ");
}

// A sample above what the format's bit depth allows (2^bit_depth - 1): where it is and its value.
struct sample_out_of_range {
  int plane = 0;
  std::uint32_t x = 0, y = 0;
  std::uint32_t value = 0;
};

// The first sample above the declared bit depth, in plane/row/column order; none for 8 and 16 bits,
// where every stored value is in range. Cheap: one OR over each row, a scan only of a row that fails.
[[nodiscard]] inline std::optional<sample_out_of_range> find_sample_out_of_range(const picture_view& v) noexcept {
  const std::uint32_t depth = v.format.bit_depth;
  if (depth <= 8 || depth >= 16) return std::nullopt;
  for (int p = 0; p < v.format.planes(); ++p) {
    const auto& pl = v.planes[p];
    for (std::uint32_t y = 0; y < pl.height; ++y) {
      const auto* row = pl.row<std::uint16_t>(y);
      unsigned acc = 0;
      for (std::uint32_t x = 0; x < pl.width; ++x) acc |= row[x];
      if ((acc >> depth) == 0) continue;
      for (std::uint32_t x = 0; x < pl.width; ++x)
        if ((row[x] >> depth) != 0) return sample_out_of_range{p, x, y, row[x]};
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

// An owning planar picture with tightly packed rows.
class picture {
 public:
  picture() = default;
  explicit picture(const picture_format& f) { reset(f); }

  void reset(const picture_format& f) {
    if (f.width == 0 || f.height == 0)
      throw error(errc::invalid_argument, "picture size must be non-zero, got " + describe(f));
    if (f.bit_depth < 8 || f.bit_depth > 16)
      throw error(errc::unsupported_format, "bit depth must be 8..16, got " + std::to_string(f.bit_depth));
    format_ = f;
    std::size_t off = 0;
    for (int p = 0; p < f.planes(); ++p) {
      offset_[p] = off;
      off += std::size_t{f.plane_width(p)} * f.plane_height(p) * f.bytes_per_sample();
    }
    storage_.assign(off, std::byte{0});
  }

  [[nodiscard]] const picture_format& format() const noexcept { return format_; }
  [[nodiscard]] std::ptrdiff_t stride(int p) const noexcept {
    return static_cast<std::ptrdiff_t>(format_.plane_width(p) * format_.bytes_per_sample());
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

  [[nodiscard]] picture_view view() const noexcept {
    picture_view v{format_, {}};
    for (int p = 0; p < format_.planes(); ++p)
      v.planes[p] = plane_view{plane_data(p), stride(p), format_.plane_width(p), format_.plane_height(p)};
    return v;
  }
  operator picture_view() const noexcept { return view(); }  // NOLINT: a picture is usable where a view is

 private:
  picture_format format_{};
  std::array<std::size_t, 3> offset_{};
  std::vector<std::byte> storage_;
};

}  // namespace vqm
