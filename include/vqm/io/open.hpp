// open_frame_source(): Y4M when the input says so, raw .yuv when the caller gives its geometry, and
// anything else through FFmpeg's libraries when built with the vqm::ffmpeg component (which defines
// VQM_WITH_FFMPEG). Every input is opened once and read front to back: `-` (standard input), pipes,
// /dev/stdin and process substitution work, because the format is sniffed from the bytes read, which
// are then handed to the reader, not read again.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vqm/error.hpp"
#include "vqm/io/file.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"
#if defined(VQM_WITH_FFMPEG)
#include "vqm/io/ffmpeg_reader.hpp"
#endif

namespace vqm::io {

// True when this build decodes containers and codecs through FFmpeg (the vqm::ffmpeg component).
#if defined(VQM_WITH_FFMPEG)
inline constexpr bool have_ffmpeg = true;
#else
inline constexpr bool have_ffmpeg = false;
#endif

// How encoded inputs are decoded (ignored for Y4M and raw files, and without FFmpeg).
struct decode_options {
  int threads = 0;              // libavcodec threads per input (0: FFmpeg's choice)
  bool conceal_errors = false;  // accept frames the decoder concealed damage in (default: an error)
};

// What open_frame_source()'s errors say about a headerless input that may be raw samples: the library's
// fix. Those errors are errc::raw_format, so a front end that has its own way to give the format (the vqm
// CLI: -w, -h, -p and -b) adds its own words by the code.
inline constexpr std::string_view raw_format_needed = "raw .yuv input needs its picture format (open_frame_source's `raw`)";

// True when the file starts with the Y4M signature (the extension is not trusted). Opens the file:
// not for pipes (open_frame_source sniffs them without reading twice).
[[nodiscard]] inline bool looks_like_y4m(const std::string& path) {
  auto f = open_input(path);
  char sig[9] = {};
  return std::fread(sig, 1, sizeof sig, f.file.get()) == sizeof sig && std::memcmp(sig, "YUV4MPEG2", 9) == 0;
}

// Opens `path`, or standard input for "-" (a duplicate of descriptor 0, so closing it leaves stdin be).
[[nodiscard]] inline opened_file open_input_or_stdin(const std::string& path) {
  if (path != "-") return open_input(path);
  const int fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  std::FILE* f = fd >= 0 ? ::fdopen(fd, "rb") : nullptr;
  if (!f) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    throw error(errc::io, std::string("-: cannot read standard input: ") + std::strerror(e));
  }
  struct ::stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t pos = ::lseek(fd, 0, SEEK_CUR);  // a redirected file: what is left of it
    return {file_ptr(f, &std::fclose), static_cast<std::uint64_t>(st.st_size - (pos > 0 ? pos : 0)), pos == 0};
  }
  return {file_ptr(f, &std::fclose), 0, false};
}

// "scheme://..." or "scheme:..." with a scheme of two or more letters: a URL for libavformat (http,
// rtmp, pipe:0, ...), not a local path.
[[nodiscard]] inline bool looks_like_url(const std::string& path) {
  const auto colon = path.find(':');
  if (colon == std::string::npos || colon < 2) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = path[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
      return false;
  }
  return true;
}

// Up to `n` bytes from the start of the input, read with read(2) so that no stdio buffer holds more.
[[nodiscard]] inline std::string read_signature(const opened_file& f, const std::string& path, std::size_t n = 9) {
  std::string s(n, '\0');
  std::size_t got = 0;
  const int fd = ::fileno(f.file.get());
  while (got < n) {
    const ssize_t r = ::read(fd, s.data() + got, n - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      throw error(errc::io, path + ": read error: " + std::strerror(e));
    }
    got += static_cast<std::size_t>(r);
  }
  s.resize(got);
  return s;
}

// `raw`: the geometry of a headerless file; ignored for Y4M inputs, which carry their own.
[[nodiscard]] inline std::unique_ptr<frame_source> open_frame_source(const std::string& path,
                                                                     const std::optional<picture_format>& raw,
                                                                     [[maybe_unused]] const decode_options& dec = {}) {
#if defined(VQM_WITH_FFMPEG)
  const ffmpeg_options fo{dec.threads, 3, dec.conceal_errors};
  // A URL libavformat opens itself (unless a local file has that name).
  if (!raw && path != "-" && looks_like_url(path) && ::access(path.c_str(), F_OK) != 0)
    return std::make_unique<ffmpeg_reader>(path, fo);
#endif
  auto opened = open_input_or_stdin(path);
  std::string sig = read_signature(opened, path);
  if (sig == "YUV4MPEG2") return std::make_unique<y4m_reader>(path, std::move(opened), sig);
  if (raw) {
    if (!opened.regular)
      throw error(errc::bad_input, path + ": raw .yuv input must be a regular file (its size gives the frame count); "
                                          "send Y4M through a pipe instead (ffmpeg ... -f yuv4mpegpipe -)");
    opened.file.reset();
    return std::make_unique<yuv_reader>(path, *raw);
  }
  if (sig.empty()) throw error(errc::bad_input, path + ": empty input (no data to read)");
  auto named = [&](const char* ext) {
    const std::size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
  };
  if (named(".y4m")) throw error(errc::bad_input, path + ": not a Y4M file (missing 'YUV4MPEG2' signature)");
  if (named(".yuv") || named(".raw"))  // FFmpeg would guess its own geometry for these
    throw error(errc::raw_format, path + ": no Y4M header; " + std::string(raw_format_needed));
#if defined(VQM_WITH_FFMPEG)
  const bool regular = opened.regular;
  try {
    return std::make_unique<ffmpeg_reader>(path, std::move(opened), std::move(sig), fo);
  } catch (const unrecognised_input& e) {
    // Neither Y4M nor anything FFmpeg knows: perhaps raw samples under another name.
    if (!regular) throw;
    std::string m = e.what();
    m += "; ";
    m += raw_format_needed;
    throw error(errc::raw_format, m);
  }
#else
  throw error(errc::raw_format, path + ": no Y4M header; " + std::string(raw_format_needed) +
                                    "; containers and encoded video such as MP4, MKV or WebM need vqm built with FFmpeg "
                                    "(-DVQM_FFMPEG=ON)");
#endif
}

}  // namespace vqm::io
