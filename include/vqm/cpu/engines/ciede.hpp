// Cpu kernel and schedule of ciede: the 4:4:4 samples of both pictures (plain, or as libvmaf's chroma
// upsampling reads them), then ΔE per pixel added serially in double, row-major, as libvmaf does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/cpu/ciede.hpp"
#include "vqm/cpu/frame.hpp"
#include "vqm/metrics/ciede.hpp"

namespace vqm::cpu {

namespace ciede_detail {

// One picture's samples at 4:4:4 (three planes, `width` samples a row).
struct yuv444 {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint16_t> plane[3];
  [[nodiscard]] float at(int p, std::size_t i) const noexcept { return plane[p][i]; }
};

[[nodiscard]] inline std::uint32_t sample(const plane_view& v, std::uint32_t bpc, std::uint32_t x, std::uint32_t y) noexcept {
  return bpc > 8 ? v.row<std::uint16_t>(y)[x] : v.row<std::uint8_t>(y)[x];
}

// Nearest-neighbour upsampling of the stored (ceil-sized) chroma; gray has neutral chroma.
inline void plain_444(const picture_view& pic, yuv444& out) {
  const auto& f = pic.format;
  const std::uint32_t sh = f.chroma == chroma_format::yuv444 ? 0 : 1, sv = f.chroma == chroma_format::yuv420 ? 1 : 0;
  const auto grey = static_cast<std::uint16_t>(1u << (f.bit_depth - 1));
  for (int p = 0; p < 3; ++p) out.plane[p].assign(std::size_t{f.width} * f.height, grey);
  for (std::uint32_t y = 0; y < f.height; ++y)
    for (std::uint32_t x = 0; x < f.width; ++x) {
      const std::size_t i = std::size_t{y} * f.width + x;
      out.plane[0][i] = static_cast<std::uint16_t>(sample(pic.planes[0], f.bit_depth, x, y));
      if (f.planes() == 1) continue;
      for (int p = 1; p < 3; ++p)
        out.plane[p][i] = static_cast<std::uint16_t>(sample(pic.planes[p], f.bit_depth, x >> sh, y >> sv));
    }
}

// libvmaf's picture buffer (picture.c): planes w>>ss × h>>ss back to back in one allocation, rows padded
// to a multiple of 32 samples. Padding reads as 0 (libvmaf's odd-width 4:2:0 values, whose last column
// reads it, match with 0); reads past the end are refused (ciede_reads_past_picture).
struct vmaf_buffer {
  std::size_t stride[3]{}, offset[3]{};
  std::vector<std::uint16_t> samples;
  [[nodiscard]] std::uint16_t at(std::size_t k) const noexcept { return k < samples.size() ? samples[k] : 0; }
};

// The picture as libvmaf holds it; gray as 4:2:0 with mid-grey chroma (how libvmaf was fed gray input).
inline vmaf_buffer vmaf_picture(const picture_view& pic) {
  const auto& f = pic.format;
  const bool c444 = f.chroma == chroma_format::yuv444, c420 = f.chroma == chroma_format::yuv420 || f.planes() == 1;
  const std::uint32_t w[3] = {f.width, c444 ? f.width : f.width >> 1, c444 ? f.width : f.width >> 1};
  const std::uint32_t h[3] = {f.height, c420 ? f.height >> 1 : f.height, c420 ? f.height >> 1 : f.height};
  vmaf_buffer b;
  std::size_t size = 0;
  for (int p = 0; p < 3; ++p) {
    b.stride[p] = ciede_vmaf_stride(w[p]);
    b.offset[p] = size;
    size += b.stride[p] * h[p];
  }
  b.samples.assign(size, 0);
  const auto grey = static_cast<std::uint16_t>(1u << (f.bit_depth - 1));
  for (int p = 0; p < 3; ++p)
    for (std::uint32_t y = 0; y < h[p]; ++y) {
      std::uint16_t* row = b.samples.data() + b.offset[p] + y * b.stride[p];
      for (std::uint32_t x = 0; x < w[p]; ++x)
        row[x] = p < f.planes() ? static_cast<std::uint16_t>(sample(pic.planes[p], f.bit_depth, x, y)) : grey;
    }
  return b;
}

// libvmaf's scale_chroma_planes(_hbd) into its 4:4:4 picture: output row i reads chroma row ⌊i/2⌋ for
// 4:2:0 and 4:2:2 alike, and column ⌊j/2⌋ only for 4:2:0 (4:2:2 reads column j, running into the row's
// padding and the next row). 4:4:4 is read as it is.
inline void vmaf_444(const picture_view& pic, yuv444& out) {
  const auto& f = pic.format;
  const vmaf_buffer in = vmaf_picture(pic);
  const std::uint32_t w = f.width, h = f.height;
  const bool c444 = f.chroma == chroma_format::yuv444 && f.planes() == 3;
  const bool ss_ver = f.chroma == chroma_format::yuv420 || f.planes() == 1;
  for (int p = 0; p < 3; ++p) {
    out.plane[p].resize(std::size_t{w} * h);
    for (std::uint32_t i = 0; i < h; ++i) {
      const std::size_t row = in.offset[p] + (p && !c444 ? i / 2 : i) * in.stride[p];
      for (std::uint32_t j = 0; j < w; ++j)
        out.plane[p][std::size_t{i} * w + j] = in.at(row + (p && !c444 && ss_ver ? j / 2 : j));
    }
  }
}

}  // namespace ciede_detail

struct ciede_engine {
  static void run(const picture_view& r, const picture_view& d, const ciede_request& q, ciede_partials& out) {
    ciede_detail::yuv444 a, b;
    if (q.libvmaf) {
      ciede_detail::vmaf_444(r, a);
      ciede_detail::vmaf_444(d, b);
    } else {
      ciede_detail::plain_444(r, a);
      ciede_detail::plain_444(d, b);
    }
    const std::uint32_t bpc = r.format.bit_depth;
    double sum = 0.;
    const std::size_t n = std::size_t{r.format.width} * r.format.height;
    for (std::size_t i = 0; i < n; ++i) {
      const auto c1 = ciede::lab_color(a.at(0, i), a.at(1, i), a.at(2, i), bpc);
      const auto c2 = ciede::lab_color(b.at(0, i), b.at(1, i), b.at(2, i), bpc);
      sum += static_cast<double>(ciede::delta_e(c1, c2));
    }
    out.de_sum = sum;
  }
  void ciede(frame& f, const ciede_request& q, ciede_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
