// Opening input files with errors that say what is wrong (missing, a directory, no permission).
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <sys/stat.h>

#include "vqm/error.hpp"

namespace vqm::io {

using file_ptr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

struct opened_file {
  file_ptr file;
  std::uint64_t size;    // 0 when not a regular file
  bool regular = false;  // a regular file: `size` is what the file holds (pipes and devices: unknown)
};

// Opens `path` for binary reading; throws errc::io with a one-line reason and fix.
[[nodiscard]] inline opened_file open_input(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (path.empty()) throw error(errc::io, "empty input path (give a .y4m or .yuv file)");
  if (!fs::exists(st)) throw error(errc::io, path + ": no such file (check the path)");
  if (fs::is_directory(st)) throw error(errc::io, path + ": is a directory, not a video file");
  file_ptr f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    const int e = errno;
    throw error(errc::io, path + ": cannot open file: " + std::strerror(e) + " (check the permissions)");
  }
  // The size of what was opened (fstat), not of whatever the path names a moment later.
  struct ::stat st_open {};
  if (::fstat(::fileno(f.get()), &st_open) == 0 && S_ISREG(st_open.st_mode))
    return {std::move(f), static_cast<std::uint64_t>(st_open.st_size), true};
  return {std::move(f), 0, false};
}

}  // namespace vqm::io
