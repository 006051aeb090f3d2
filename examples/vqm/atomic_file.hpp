// Writes a whole output file or nothing: a temp file next to the target, renamed on success, so a
// failed run never leaves a complete-looking partial file.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

#include "vqm/error.hpp"

namespace vqm::cli {

// Fails early (before any work) when the target's folder is missing or the target is a folder.
inline void check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  const auto dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw error(errc::io, path + ": cannot write output: folder '" + dir.string() + "' does not exist");
  if (fs::is_directory(p, ec)) throw error(errc::io, path + ": cannot write output: it is a folder");
}

inline void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    const int e = errno;
    throw error(errc::io, path + ": cannot write output: " + std::strerror(e));
  }
  const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const int e = errno;
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw error(errc::io, path + ": cannot write output: " + std::strerror(e));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw error(errc::io, path + ": cannot write output: " + ec.message());
  }
}

}  // namespace vqm::cli
