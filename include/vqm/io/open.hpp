// open_frame_source(): Y4M when the file says so, raw .yuv when the caller gives its geometry.
#pragma once

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "vqm/error.hpp"
#include "vqm/io/file.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"

namespace vqm::io {

// True when the file starts with the Y4M signature (the extension is not trusted).
[[nodiscard]] inline bool looks_like_y4m(const std::string& path) {
  auto f = open_input(path);
  char sig[9] = {};
  return std::fread(sig, 1, sizeof sig, f.file.get()) == sizeof sig && std::memcmp(sig, "YUV4MPEG2", 9) == 0;
}

// `raw`: the geometry of a headerless file; ignored for Y4M files, which carry their own.
[[nodiscard]] inline std::unique_ptr<frame_source> open_frame_source(const std::string& path,
                                                                     const std::optional<picture_format>& raw) {
  if (looks_like_y4m(path)) return std::make_unique<y4m_reader>(path);
  if (!raw) {
    const bool named_y4m = path.size() >= 4 && path.compare(path.size() - 4, 4, ".y4m") == 0;
    throw error(errc::bad_input,
                path + (named_y4m ? ": not a Y4M file (missing 'YUV4MPEG2' signature)"
                                  : ": no Y4M header; for raw .yuv input give -w, -h, -p and -b"));
  }
  return std::make_unique<yuv_reader>(path, *raw);
}

}  // namespace vqm::io
