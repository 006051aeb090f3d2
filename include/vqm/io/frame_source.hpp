// frame_source: a sequential reader of planar frames (Y4M, raw .yuv), so front ends treat inputs alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "vqm/picture.hpp"

namespace vqm::io {

class frame_source {
 public:
  virtual ~frame_source() = default;

  [[nodiscard]] virtual const picture_format& format() const noexcept = 0;
  [[nodiscard]] virtual const std::string& path() const noexcept = 0;
  // Frames returned by read() or passed by skip() so far.
  [[nodiscard]] virtual std::size_t frames_read() const noexcept = 0;
  // The number of frames in the file, when it can be told without reading it (exact for raw files,
  // from the file size for Y4M); for progress reports only.
  [[nodiscard]] virtual std::optional<std::size_t> frame_count_hint() const noexcept = 0;

  // Reads the next frame into `pic` (reset to format() when needed). False at a clean end of file;
  // throws vqm::error naming the file and the frame for anything else.
  virtual bool read(picture& pic) = 0;
  // Passes over the next frame without keeping its samples (counting frames). False at a clean end.
  virtual bool skip() = 0;
};

}  // namespace vqm::io
