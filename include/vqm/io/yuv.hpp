// Raw .yuv reader: the geometry comes from the caller (libvmaf's -w -h -p -b). Planes are stored back to
// back as ffmpeg's rawvideo writes them: Y, Cb, Cr (planar), or Y and one interleaved CbCr/CrCb plane
// (semi-planar: nv12, nv21, nv16, nv24, p010, ...), chroma rounded up for odd sizes, 16-bit
// little-endian words above 8 bits (MSB-aligned for p010/p012). Frames are handed over as stored; the
// backends convert semi-planar and MSB-aligned samples themselves.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/io/file.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/io/read_frame.hpp"
#include "vqm/picture.hpp"

namespace vqm::io {

class yuv_reader final : public frame_source {
 public:
  yuv_reader(const std::string& path, const picture_format& f) : path_(path), file_(nullptr, &std::fclose), format_(f) {
    check_geometry(path, f);
    if (auto why = storage_problem(f); !why.empty()) throw error(errc::bad_input, path + ": " + why);
    auto opened = open_input(path);
    file_ = std::move(opened.file);
    if (!opened.regular)
      throw error(errc::bad_input, path + ": raw .yuv input must be a regular file (its size gives the frame count; "
                                          "pipes and devices are not read)");
    const std::uint64_t fb = f.frame_bytes();
    frames_total_ = static_cast<std::size_t>(opened.size / fb);
    if (const auto left = opened.size % fb; left != 0)
      throw error(errc::raw_format, path + ": file size " + std::to_string(opened.size) +
                                        " is not a multiple of the frame size " + std::to_string(fb) + " (" + describe(f) +
                                        "): " + std::to_string(frames_total_) + " frames and " + std::to_string(left) +
                                        " bytes left over; check the width, height, pixel format and bit depth given for it");
  }

  [[nodiscard]] const picture_format& format() const noexcept override { return format_; }
  [[nodiscard]] const std::string& path() const noexcept override { return path_; }
  [[nodiscard]] std::size_t frames_read() const noexcept override { return frames_; }
  [[nodiscard]] std::optional<std::size_t> frame_count_hint() const noexcept override { return frames_total_; }

  bool read(picture& pic) override {
    if (frames_ == frames_total_) return false;
    // A moved-from picture keeps its format but not its samples: check both.
    if (!(pic.format() == format_) || pic.bytes().size() != format_.frame_bytes()) pic.reset(format_);
    read_body(pic.bytes());
    return true;
  }

  // `dst` is only written (detail::read_frame); a frame with a sample out of range is read back once.
  bool read_into(std::span<std::byte> dst) override {
    check_destination(dst);
    if (frames_ == frames_total_) return false;
    const auto r = reader_.read(file_.get(), true, dst, format_);
    if (r.error) throw error(errc::io, path_ + ": frame " + std::to_string(frames_) + ": read error: " + std::strerror(r.error));
    if (r.bytes != dst.size()) throw short_read(r.bytes, dst.size());
    if (r.out_of_range) check_samples(dst);
    ++frames_;
    return true;
  }

  [[nodiscard]] bool skips_by_seeking() const noexcept override { return true; }

  bool skip() override {
    if (frames_ == frames_total_) return false;
    if (std::fseek(file_.get(), static_cast<long>(format_.frame_bytes()), SEEK_CUR) != 0)
      throw error(errc::io, path_ + ": frame " + std::to_string(frames_) + ": seek failed");
    ++frames_;
    return true;
  }

  void read_in_parallel(executor* ex, unsigned width) override { reader_.set_parallel({ex, width}); }

 private:
  void read_body(std::span<std::byte> bytes) {
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), file_.get());
    if (got != bytes.size()) throw short_read(got, bytes.size());
    check_samples(bytes);
    ++frames_;
  }
  // The file shrank while we read it.
  [[nodiscard]] error short_read(std::size_t got, std::size_t want) const {
    return error(errc::io, path_ + ": frame " + std::to_string(frames_) + ": short read (" + std::to_string(got) + " of " +
                               std::to_string(want) + " bytes)");
  }
  // The metrics assume every sample fits the bit depth given with -b.
  void check_samples(std::span<const std::byte> bytes) const {
    if (const auto bad = find_sample_out_of_range(packed_view(format_, bytes.data())))
      throw error(errc::bad_input, path_ + ": frame " + std::to_string(frames_) + ": " + describe(*bad, format_.bit_depth) +
                                       " (check the bit depth given for it, or the file is corrupt)");
  }

  std::string path_;
  file_ptr file_;
  picture_format format_;
  std::size_t frames_total_ = 0;
  std::size_t frames_ = 0;
  detail::frame_reader reader_;  // read_into's
};

}  // namespace vqm::io
