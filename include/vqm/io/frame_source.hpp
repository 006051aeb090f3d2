// frame_source: a sequential reader of planar frames (Y4M, raw .yuv), so front ends treat inputs alike.
#pragma once

#include <cstddef>
#include <cstring>
#include <optional>
#include <span>
#include <string>

#include "vqm/error.hpp"
#include "vqm/picture.hpp"

namespace vqm {
class executor;  // vqm/executor.hpp
}

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
  // Whether skip() seeks rather than reads or decodes (a regular Y4M or raw file): a front end may then
  // open an input several times and start each at a frame of its own cheaply.
  [[nodiscard]] virtual bool skips_by_seeking() const noexcept { return false; }

  // Reads the next frame into the caller's memory (a mapped upload buffer): `dst` holds format().frame_bytes()
  // bytes, the frame stored packed as a picture stores it (packed_view(format(), dst.data()) sees it), and
  // is only written (it may be write-combined or a GPU's BAR). The same frames and errors as read().
  // Readers of files (Y4M, raw) read in place; the default reads through a picture of its own and copies.
  virtual bool read_into(std::span<std::byte> dst) {
    check_destination(dst);
    if (!read(scratch_)) return false;
    if (scratch_.bytes().size() != dst.size())
      throw error(errc::bad_input, path() + ": frame " + std::to_string(frames_read()) + " changed size mid-stream");
    std::memcpy(dst.data(), scratch_.bytes().data(), dst.size());
    return true;
  }

  // Lets read_into split a frame of a regular file into parts read on `ex` (up to `width` at once, the
  // calling thread one of them); `ex` must outlive the reads. No-op for sources that cannot.
  virtual void read_in_parallel(executor* /*ex*/, unsigned /*width*/) {}

 protected:
  void check_destination(std::span<std::byte> dst) const {
    if (dst.size() != format().frame_bytes())
      throw error(errc::invalid_argument, "frame_source::read_into: " + std::to_string(dst.size()) + " bytes for a " +
                                              describe(format()) + " frame of " + std::to_string(format().frame_bytes()));
  }

 private:
  picture scratch_;  // the default read_into's
};

}  // namespace vqm::io
