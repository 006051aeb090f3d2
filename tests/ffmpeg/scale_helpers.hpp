// Helpers of the scaling tests: files scaled by the `ffmpeg` tool (the independent side of every
// comparison), made once into the build tree, and a Y4M writer for synthetic inputs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "vqm/io/ffmpeg_scale.hpp"
#include "vqm/io/open.hpp"

namespace scale_test {

namespace fs = std::filesystem;

inline const fs::path work = VQM_SCALE_WORK_DIR;

inline std::string fixture(const std::string& name) { return std::string(VQM_FIXTURE_DIR) + "/" + name; }

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  q += '\'';
  return q;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the ffmpeg tool with `args` between its global flags and `out`, written to a temporary name and
// renamed (concurrent test processes never see half a file); kept for later runs.
inline std::string ffmpeg_output(const std::string& name, const std::string& args) {
  const auto dir = work / "media";
  fs::create_directories(dir);
  const auto path = dir / name;
  if (fs::exists(path)) return path.string();
  const auto tmp = dir / (".tmp." + std::to_string(::getpid()) + "." + name);
  const auto err = dir / (".err." + std::to_string(::getpid()) + "." + name);
  std::string cmd = quote(VQM_FFMPEG_TOOL);
  cmd += " -hide_banner -loglevel error -nostdin -y ";
  cmd += args;
  cmd += ' ';
  cmd += quote(tmp.string());
  cmd += " </dev/null 2>";
  cmd += quote(err.string());
  const int status = std::system(cmd.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string why = "ffmpeg failed: ";
    why += cmd;
    why += ": ";
    why += slurp(err);
    throw std::runtime_error(why);
  }
  fs::remove(err);
  fs::rename(tmp, path);
  return path.string();
}

// `input` scaled by `ffmpeg -vf <vqm's documented filter>`, as Y4M (or raw samples when `raw`).
inline std::string ffmpeg_scaled(const std::string& input, std::uint32_t w, std::uint32_t h, vqm::io::scale_mode m,
                                 bool raw = false) {
  const std::string filter = vqm::io::ffmpeg_scale_filter(w, h, m);
  std::string name = fs::path(input).stem().string();
  name += '_';
  name += std::to_string(w) + "x" + std::to_string(h);
  name += '_';
  name += vqm::io::to_string(m);
  name += raw ? ".yuv" : ".y4m";
  std::string args = "-i ";
  args += quote(input);
  args += " -vf ";
  args += quote(filter);
  args += raw ? " -f rawvideo" : " -strict -1 -f yuv4mpegpipe";
  return ffmpeg_output(name, args);
}

// A Y4M file of `frames` frames of uniform random samples, with runs of 0 and of the maximum (the
// filters' overshoot must clip the same way). `tag`: the colorspace tag (C420p10, C444, Cmono, ...).
inline std::string random_y4m(const std::string& name, const vqm::picture_format& f, const std::string& tag,
                              int frames) {
  const auto dir = work / "media";
  fs::create_directories(dir);
  const auto path = dir / name;
  const auto tmp = dir / (".tmp." + std::to_string(::getpid()) + "." + name);
  {
    std::ofstream out(tmp, std::ios::binary);
    out << "YUV4MPEG2 W" << f.width << " H" << f.height << " F25:1 Ip A1:1 " << tag << "\n";
    std::mt19937 rng(f.width * 7919u + f.height);
    const std::uint32_t max = (1u << f.bit_depth) - 1;
    for (int i = 0; i < frames; ++i) {
      vqm::picture pic(f);
      for (int p = 0; p < f.planes(); ++p)
        for (std::uint32_t y = 0; y < f.plane_height(p); ++y)
          for (std::uint32_t x = 0; x < f.plane_width(p); ++x) {
            const std::uint32_t r = rng();
            const std::uint32_t v = (y / 4 + x / 8) % 3 == 0 ? ((x / 3 + y) % 2 ? max : 0) : r % (max + 1);
            if (f.bit_depth > 8) pic.row<std::uint16_t>(p, y)[x] = static_cast<std::uint16_t>(v);
            else pic.row<std::uint8_t>(p, y)[x] = static_cast<std::uint8_t>(v);
          }
      out << "FRAME\n";
      out.write(reinterpret_cast<const char*>(pic.bytes().data()), static_cast<std::streamsize>(pic.bytes().size()));
    }
  }
  fs::rename(tmp, path);
  return path.string();
}

// Every frame of `a` equals the frame of `b` with the same index, sample for sample, and both have as many.
inline void expect_same_frames(vqm::io::frame_source& a, vqm::io::frame_source& b) {
  ASSERT_EQ(a.format(), b.format()) << describe(a.format()) << " vs " << describe(b.format());
  vqm::picture pa, pb;
  for (std::size_t n = 0;; ++n) {
    const bool ha = a.read(pa), hb = b.read(pb);
    ASSERT_EQ(ha, hb) << "frame " << n;
    if (!ha) {
      EXPECT_GT(n, 0u) << "no frames";
      return;
    }
    ASSERT_EQ(pa.bytes().size(), pb.bytes().size());
    ASSERT_EQ(std::memcmp(pa.bytes().data(), pb.bytes().data(), pa.bytes().size()), 0)
        << "frame " << n << " differs";
  }
}

}  // namespace scale_test
