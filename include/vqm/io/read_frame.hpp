// read_frame: one frame's bytes from a FILE into memory the reader must not read back (write-combined
// upload memory, a GPU's BAR window: reads there cross PCIe uncached). Above 8 bits the samples are checked
// against the bit depth on the way, in small cached bounce buffers, so the destination is only written.
// From a regular file with an executor the frame is read in parts on several threads (pread at the
// FILE's position, which is then moved past what was read): one thread's copy into PCIe-mapped memory is
// slower than the frame rate a GPU scores at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include <sys/types.h>

#include "vqm/io/compiled.hpp"
#include "vqm/picture.hpp"

namespace vqm {
class executor;
}

namespace vqm::io::detail {

struct frame_read {
  std::size_t bytes = 0;      // read; below dst.size() at the end of the file (or on an error)
  bool out_of_range = false;  // some sample is above f's bit depth (find_sample_out_of_range says where)
  int error = 0;              // errno of a failed read
};

// Where a reader may split its frames: `ex` runs the parts (null: one thread), `width` of them at once.
struct parallel_reads {
  executor* ex = nullptr;
  unsigned width = 1;
};

class frame_reader {
 public:
  // `regular`: `file` is a regular file (positioned reads); pipes are read on the calling thread.
  frame_read read(std::FILE* file, bool regular, std::span<std::byte> dst, const picture_format& f);

  void set_parallel(parallel_reads p) noexcept { par_ = p; }

 private:
  struct part {
    std::size_t bytes = 0;
    unsigned acc = 0;  // OR of the 16-bit samples read
    int error = 0;
  };

  // `dst` from `file` (at its position) or from `fd` at `offset`; through bounce buffer `b` when checking.
  part read_part(std::FILE* file, off_t offset, std::span<std::byte> dst, std::size_t b, int fd = -1);

  parallel_reads par_;
  bool check_ = false;
  std::vector<part> parts_;
  std::vector<std::vector<std::byte>> bounces_;  // one per part: checked above 8 bits
};

}  // namespace vqm::io::detail

#if VQM_IO_BODIES
#include <algorithm>
#include <cerrno>
#include <cstring>

#include <unistd.h>

#include "vqm/executor.hpp"

namespace vqm::io::detail {

VQM_IO_INLINE frame_read frame_reader::read(std::FILE* file, bool regular, std::span<std::byte> dst,
                                          const picture_format& f) {
  const std::uint32_t top = f.bit_depth + f.msb_shift;
  check_ = f.bit_depth > 8 && top < 16;
  constexpr std::size_t min_part = std::size_t{1} << 20;
  const unsigned parts = static_cast<unsigned>(std::min<std::size_t>(par_.width, dst.size() / min_part));
  const long at = regular && par_.ex && parts > 1 ? std::ftell(file) : -1;
  if (at < 0) {
    part p = read_part(file, -1, dst, 0);
    return {p.bytes, p.acc >> top != 0, p.error};
  }
  parts_.resize(parts);
  bounces_.resize(parts);
  const std::size_t piece = (dst.size() / parts + 4095) / 4096 * 4096;  // page-aligned file offsets
  const int fd = fileno(file);
  parallel_for(par_.ex, parts, par_.width, [&](std::size_t i) {
    const std::size_t begin = std::min(dst.size(), i * piece), end = std::min(dst.size(), begin + piece);
    parts_[i] = read_part(nullptr, static_cast<off_t>(at) + static_cast<off_t>(begin), dst.subspan(begin, end - begin), i, fd);
  });
  frame_read r;
  unsigned acc = 0;
  for (std::size_t i = 0; i < parts; ++i) {
    const std::size_t begin = std::min(dst.size(), i * piece), want = std::min(dst.size(), begin + piece) - begin;
    r.bytes += parts_[i].bytes;
    acc |= parts_[i].acc;
    if (parts_[i].bytes != want || parts_[i].error) {
      r.error = parts_[i].error;
      break;  // what follows a short part is not contiguous
    }
  }
  r.out_of_range = acc >> top != 0;
  if (std::fseek(file, at + static_cast<long>(r.bytes), SEEK_SET) != 0 && !r.error) r.error = errno;
  return r;
}

VQM_IO_INLINE frame_reader::part frame_reader::read_part(std::FILE* file, off_t offset, std::span<std::byte> dst,
                                                      std::size_t b, int fd) {
  part p;
  const auto raw = [&](std::byte* to, std::size_t n) -> std::size_t {
    if (file) {
      const std::size_t got = std::fread(to, 1, n, file);
      if (got != n && std::ferror(file)) p.error = errno ? errno : EIO;
      return got;
    }
    std::size_t got = 0;
    while (got < n) {
      const ssize_t k = ::pread(fd, to + got, n - got, offset + static_cast<off_t>(p.bytes + got));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) p.error = errno;
      if (k <= 0) break;
      got += static_cast<std::size_t>(k);
    }
    return got;
  };
  if (!check_) {
    p.bytes = raw(dst.data(), dst.size());
    return p;
  }
  constexpr std::size_t chunk = std::size_t{256} << 10;  // stays in L2 between the read, the check and the copy
  if (bounces_.size() <= b) bounces_.resize(b + 1);
  auto& bounce = bounces_[b];
  bounce.resize(chunk);
  while (p.bytes < dst.size()) {
    const std::size_t want = std::min(chunk, dst.size() - p.bytes);
    const std::size_t got = raw(bounce.data(), want);
    for (std::size_t i = 0; i + 1 < got; i += 2) p.acc |= unsigned(bounce[i]) | unsigned(bounce[i + 1]) << 8;
    std::memcpy(dst.data() + p.bytes, bounce.data(), got);
    p.bytes += got;
    if (got != want) break;
  }
  return p;
}

}  // namespace vqm::io::detail
#endif
