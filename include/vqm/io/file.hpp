// Opening input files with errors that say what is wrong (missing, a directory, no permission).
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include <sys/stat.h>

#include "vqm/error.hpp"

namespace vqm::io {

using file_ptr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

struct opened_file {
  file_ptr file;
  std::uint64_t size;    // 0 when not a regular file
  bool regular = false;  // a regular file: `size` is what the file holds (pipes and devices: unknown)
};

// Why opening or stat'ing an input failed, with the fix: one clause for the errno.
[[nodiscard]] inline std::string open_error_text(int e) {
  switch (e) {
    case ENOENT: return "no such file (check the path)";
    case ENOTDIR: return "a part of the path is not a folder (check the path)";
    case ENAMETOOLONG: return "the path is too long for the file system (shorten it, or cd closer to the file)";
    case ELOOP: return "too many symbolic links in the path (a link loop?)";
    case EACCES:
    case EPERM: return std::string("cannot open file: ") + std::strerror(e) + " (check the permissions)";
    case EMFILE:
    case ENFILE: return "too many files open (raise the limit: ulimit -n)";
    case ENOMEM:
    case EAGAIN: return std::string("cannot open file: ") + std::strerror(e) + " (out of memory: check ulimit -v)";
    default: return std::string("cannot open file: ") + std::strerror(e);
  }
}

// Opens `path` for binary reading; throws errc::io with a one-line reason and fix.
[[nodiscard]] inline opened_file open_input(const std::string& path) {
  if (path.empty()) throw error(errc::io, "empty input path (give a .y4m or .yuv file)");
  struct ::stat st {};
  if (::stat(path.c_str(), &st) != 0) throw error(errc::io, path + ": " + open_error_text(errno));
  if (S_ISDIR(st.st_mode)) throw error(errc::io, path + ": is a directory, not a video file");
  file_ptr f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw error(errc::io, path + ": " + open_error_text(errno));
  // The size of what was opened (fstat), not of whatever the path names a moment later.
  struct ::stat st_open {};
  if (::fstat(::fileno(f.get()), &st_open) == 0 && S_ISREG(st_open.st_mode))
    return {std::move(f), static_cast<std::uint64_t>(st_open.st_size), true};
  return {std::move(f), 0, false};
}

}  // namespace vqm::io
