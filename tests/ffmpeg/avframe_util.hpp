// Helpers of the AVFrame tests (test_avframe.cpp, test_avvkframe.cpp): Y4M fixtures, software AVFrames
// holding a picture's samples (padded, bottom-up, semi-planar), and a VMAF + PSNR session over pairs.
#pragma once

#include <gtest/gtest.h>

extern "C" {
#include <libavutil/frame.h>
}

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "vqm/io/y4m.hpp"
#include "vqm/picture.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm::test {

struct frame_free {
  void operator()(AVFrame* f) const noexcept { av_frame_free(&f); }
};
using frame_ptr = std::unique_ptr<AVFrame, frame_free>;

inline std::vector<picture> read_fixture(const std::string& name, int frames = 3) {
  io::y4m_reader r(std::string(VQM_FIXTURE_DIR) + "/" + name);
  std::vector<picture> out;
  for (picture p; static_cast<int>(out.size()) < frames && r.read(p);) out.push_back(std::move(p));
  return out;
}

// A frame of `fmt` holding the samples of `p` (stored as the frame stores them), rows padded as
// av_frame_get_buffer pads them; `bottom_up` stores the rows last to first with a negative linesize.
inline frame_ptr frame_of(const picture& p, AVPixelFormat fmt, bool bottom_up = false) {
  frame_ptr f(av_frame_alloc());
  f->format = fmt;
  f->width = static_cast<int>(p.format().width);
  f->height = static_cast<int>(p.format().height);
  if (av_frame_get_buffer(f.get(), 64) < 0) throw std::runtime_error("av_frame_get_buffer failed");
  const std::size_t bps = p.format().bytes_per_sample();
  for (int pl = 0; pl < p.format().stored_planes(); ++pl) {
    const std::uint32_t h = p.format().plane_height(pl);
    const std::size_t row = std::size_t{p.format().stored_width(pl)} * bps;
    EXPECT_GT(static_cast<std::size_t>(f->linesize[pl]), row - 1);
    if (bottom_up) {  // the last row first in memory: data points at the top row, linesize negative
      f->data[pl] += static_cast<std::ptrdiff_t>(h - 1) * f->linesize[pl];
      f->linesize[pl] = -f->linesize[pl];
    }
    for (std::uint32_t y = 0; y < h; ++y)
      std::memcpy(f->data[pl] + static_cast<std::ptrdiff_t>(y) * f->linesize[pl], p.plane_data(pl) + y * row, row);
  }
  return f;
}

// `src` (planar) stored as `layout` with `shift` (semi-planar nv12 / p010).
inline picture repacked(const picture& src, chroma_layout layout, std::uint32_t shift) {
  picture_format to = src.format();
  to.layout = layout;
  to.msb_shift = shift;
  picture p(to);
  const std::size_t bps = to.bytes_per_sample();
  auto get = [&](int pl, std::uint32_t x, std::uint32_t y) -> std::uint32_t {
    const auto* r = src.plane_data(pl) + (std::size_t{y} * src.format().stored_width(pl) + x) * bps;
    if (bps == 1) return std::to_integer<std::uint32_t>(*r);
    std::uint16_t v;
    std::memcpy(&v, r, 2);
    return v;
  };
  auto put = [&](int pl, std::uint32_t x, std::uint32_t y, std::uint32_t v) {
    auto* r = p.plane_data(pl) + (std::size_t{y} * to.stored_width(pl) + x) * bps;
    if (bps == 1) *r = static_cast<std::byte>(v);
    else {
      const auto w = static_cast<std::uint16_t>(v);
      std::memcpy(r, &w, 2);
    }
  };
  for (std::uint32_t y = 0; y < to.height; ++y)
    for (std::uint32_t x = 0; x < to.width; ++x) put(0, x, y, get(0, x, y) << shift);
  for (std::uint32_t y = 0; y < to.plane_height(1); ++y)
    for (std::uint32_t x = 0; x < to.plane_width(1); ++x) {
      put(1, 2 * x, y, get(1, x, y) << shift);
      put(1, 2 * x + 1, y, get(2, x, y) << shift);
    }
  return p;
}

// vmaf_v0.6.1 and psnr; psnr alone for `vmaf` false.
inline session_config vmaf_and_psnr(bool vmaf = true) {
  session_config cfg;
  if (vmaf) cfg.models.push_back(vmaf::builtin_model("vmaf_v0.6.1"));
  cfg.features = {{"psnr", {}}};
  return cfg;
}

// Every value of a session over the pairs, as they are handed over.
template <class B>
score_table scores(B& backend, const std::vector<picture_view>& ref, const std::vector<picture_view>& dis,
                   const session_config& cfg = vmaf_and_psnr()) {
  session<B> s(backend, ref.front().format, cfg);
  for (std::size_t i = 0; i < ref.size(); ++i) s.push(ref[i], dis[i]);
  return s.finish();
}

inline std::vector<picture_view> views(const std::vector<picture>& p) {
  std::vector<picture_view> v;
  for (const auto& x : p) v.push_back(x.view());
  return v;
}

}  // namespace vqm::test
