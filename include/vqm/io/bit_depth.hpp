// Mixed bit depths (AOM CTC scores an 8-bit reference against a 10-bit encode): a frame_source that
// reads another one and left-shifts its samples to a higher bit depth, as libvmaf does for such pairs
// (SPEC-metrics §1.1), so that both inputs of a pair are measured at the common, higher depth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "vqm/error.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

// Writes `src` into `dst` at `bit_depth` (>= the source's): every sample shifted left by the depth
// difference. `dst` is reset only when its format differs, so a picture reused per frame is not
// reallocated. The shifted samples fit the new depth whenever the source's fit its own.
inline void shift_to_depth(const picture_view& src, picture& dst, std::uint32_t bit_depth) {
  const auto from = src.format.bit_depth;
  if (bit_depth < from || bit_depth > 16)
    throw error(errc::invalid_argument, "cannot shift " + std::to_string(from) + "-bit samples to " +
                                            std::to_string(bit_depth) + " bits (only up, to at most 16)");
  picture_format f = src.format;
  f.bit_depth = bit_depth;
  if (!(dst.format() == f) || dst.bytes().size() != f.frame_bytes()) dst.reset(f);
  const unsigned shift = bit_depth - from;
  for (int p = 0; p < f.planes(); ++p) {
    const auto& pl = src.planes[p];
    for (std::uint32_t y = 0; y < pl.height; ++y) {
      auto* out = dst.row<std::uint16_t>(p, y);
      if (from > 8) {
        const auto* in = pl.row<std::uint16_t>(y);
        for (std::uint32_t x = 0; x < pl.width; ++x) out[x] = static_cast<std::uint16_t>(in[x] << shift);
      } else if (bit_depth > 8) {
        const auto* in = pl.row<std::uint8_t>(y);
        for (std::uint32_t x = 0; x < pl.width; ++x) out[x] = static_cast<std::uint16_t>(in[x] << shift);
      } else {  // 8 -> 8: a plain copy (rows are tightly packed bytes)
        const auto* in = pl.row<std::uint8_t>(y);
        auto* out8 = dst.row<std::uint8_t>(p, y);
        for (std::uint32_t x = 0; x < pl.width; ++x) out8[x] = in[x];
      }
    }
  }
}

// Reads `inner` and hands out its frames at `bit_depth`. One scratch picture holds the source frame
// between reads: no allocation per frame once the caller's pictures have the new format.
class bit_depth_source final : public frame_source {
 public:
  bit_depth_source(std::unique_ptr<frame_source> inner, std::uint32_t bit_depth) : inner_(std::move(inner)) {
    if (!inner_) throw error(errc::invalid_argument, "bit_depth_source: no source");
    const auto from = inner_->format().bit_depth;
    if (bit_depth < from || bit_depth > 16)
      throw error(errc::invalid_argument, inner_->path() + ": cannot score " + std::to_string(from) + "-bit input at " +
                                              std::to_string(bit_depth) + " bits (samples are only shifted up)");
    format_ = inner_->format();
    format_.bit_depth = bit_depth;
  }

  [[nodiscard]] const picture_format& format() const noexcept override { return format_; }
  [[nodiscard]] const std::string& path() const noexcept override { return inner_->path(); }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return inner_->frames_read(); }
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override {
    return inner_->frame_count_hint();
  }
  // The source's own depth (what the file holds).
  [[nodiscard]] std::uint32_t source_bit_depth() const noexcept { return inner_->format().bit_depth; }

  bool read(picture& pic) override {
    if (!inner_->read(scratch_)) return false;
    shift_to_depth(scratch_.view(), pic, format_.bit_depth);
    return true;
  }
  bool skip() override { return inner_->skip(); }
  [[nodiscard]] bool skips_by_seeking() const noexcept override { return inner_->skips_by_seeking(); }

 private:
  std::unique_ptr<frame_source> inner_;
  picture_format format_;
  picture scratch_;
};

}  // namespace vqm::io
