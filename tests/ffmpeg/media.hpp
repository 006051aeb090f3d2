// Encoded test files made at test time with the `ffmpeg` tool (VQM_FFMPEG_TOOL) into the build tree's work
// folder (VQM_FFMPEG_WORK_DIR), shared by the vqm::ffmpeg test files.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "common/process.hpp"

namespace vqm::test {

inline const std::filesystem::path work = VQM_FFMPEG_WORK_DIR;

// An encoded file made once with the ffmpeg tool (`args` between the input and the output), written to
// a temporary name and renamed, so concurrent test processes never see half a file.
inline std::string media(const std::string& name, const std::string& args) {
  const auto dir = work / "media";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  if (std::filesystem::exists(path)) return path.string();
  const auto tmp = dir / (".tmp." + std::to_string(::getpid()) + "." + name);
  const std::string cmd = quote(VQM_FFMPEG_TOOL) + " -hide_banner -loglevel error -nostdin -y " + args + " " +
                          quote(tmp.string());
  const auto r = bash(cmd, dir);
  if (r.rc != 0) throw std::runtime_error("ffmpeg failed: " + cmd + ": " + r.err);
  std::filesystem::rename(tmp, path);
  return path.string();
}

}  // namespace vqm::test
