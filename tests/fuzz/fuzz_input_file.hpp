// The readers take a path: each fuzz input is written to one memfd (a regular file in memory) that the
// reader opens through /proc/self/fd, so no disk is touched and the size checks see a real file size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace vqm::fuzz {

inline const std::string& input_path(const std::uint8_t* data, std::size_t size) {
  static const int fd = ::memfd_create("vqm-fuzz", MFD_CLOEXEC);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ::ftruncate(fd, 0) != 0) std::abort();
  for (std::size_t done = 0; done < size;) {
    const ::ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
  return path;
}

}  // namespace vqm::fuzz
