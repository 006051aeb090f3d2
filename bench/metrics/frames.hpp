// Benchmark input shared by the metric benchmarks: the astronaut 576x324 fixture pair, and the same
// content mirror-tiled up to any size (1080p), so the benchmarks need no other file; and their main().
//
// The fixture directory is found at run time, never compiled in, so an installed or copied benchmark
// binary still runs: `--fixtures DIR`, else $VQM_FIXTURE_DIR, else the build tree's own copy next to the
// program (<build>/test-data/fixtures for <build>/bench/metrics/<program>); else a clear error.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "vqm/io/y4m.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/picture.hpp"

namespace vqm::bench {

struct frame_pair {
  picture ref;
  picture dis;
};

// The fixture pair used by every metric benchmark, in the directory main() found (fixture_dir()).
inline const std::string bench_ref = "astronaut_576x324_420p8_ref.y4m";
inline const std::string bench_dis = "astronaut_576x324_420p8_x264crf35.y4m";
inline std::string& fixture_dir() {
  static std::string dir;
  return dir;
}
inline std::string fixture_path(const std::string& name) { return fixture_dir() + "/" + name; }

// The first `max_frames` frames of a Y4M pair.
inline std::vector<frame_pair> load_pair(const std::string& ref_path, const std::string& dis_path, std::size_t max_frames) {
  io::y4m_reader ref(ref_path), dis(dis_path);
  std::vector<frame_pair> out;
  for (std::size_t i = 0; i < max_frames; ++i) {
    frame_pair p;
    if (!ref.read(p.ref) || !dis.read(p.dis)) break;
    out.push_back(std::move(p));
  }
  if (out.empty()) throw error(errc::io, ref_path + ": no frame could be read for the benchmark");
  return out;
}

// `src` enlarged to width x height by mirror tiling (period 2n, so there are no seams: the content
// stays natural for every metric).
inline picture mirror_tile(const picture& src, std::uint32_t width, std::uint32_t height) {
  const picture_format sf = src.format();
  picture_format f = sf;
  f.width = width;
  f.height = height;
  picture out(f);
  const std::size_t bps = f.bytes_per_sample();
  const picture_view s = src.view();
  for (int p = 0; p < f.planes(); ++p) {
    const std::uint32_t sw = sf.plane_width(p), sh = sf.plane_height(p);
    for (std::uint32_t y = 0; y < f.plane_height(p); ++y) {
      const auto* srow = s.planes[p].row<std::byte>(static_cast<std::uint32_t>(mirror(y, sh)));
      auto* drow = out.row<std::byte>(p, y);
      for (std::uint32_t x = 0; x < f.plane_width(p); ++x)
        std::memcpy(drow + x * bps, srow + static_cast<std::size_t>(mirror(x, sw)) * bps, bps);
    }
  }
  return out;
}

// The benchmark frames at `width` x `height`: the fixture itself at 576x324, mirror-tiled otherwise.
inline std::vector<frame_pair> bench_frames(std::uint32_t width, std::uint32_t height, std::size_t max_frames = 4) {
  auto pairs = load_pair(fixture_path(bench_ref), fixture_path(bench_dis), max_frames);
  if (pairs.front().ref.format().width == width && pairs.front().ref.format().height == height) return pairs;
  for (auto& p : pairs) {
    p.ref = mirror_tile(p.ref, width, height);
    p.dis = mirror_tile(p.dis, width, height);
  }
  return pairs;
}

// A benchmark size: its name in benchmark names, and the frame size (the fixture mirror-tiled to it).
struct resolution {
  const char* name;
  std::uint32_t width, height;
};
inline constexpr resolution cpu_resolutions[] = {{"576x324", 576, 324}, {"1080p", 1920, 1080}};

// bench_frames() of a size, made once per program: the first `count` fixture frames at that size.
inline const std::vector<frame_pair>& cached_frames(const resolution& r, std::size_t count) {
  static std::map<std::string, std::vector<frame_pair>> cache;
  const std::string key = std::string(r.name) + "/" + std::to_string(count);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, bench_frames(r.width, r.height, count)).first;
  return it->second;
}

namespace detail {

inline const char* program = "benchmark";
inline const char* extra_help = "";

inline void print_help() {
  std::printf(
      "usage: %s [--fixtures DIR] [Google Benchmark flags]\n\n"
      "  --fixtures DIR       directory holding %s and %s\n"
      "                       (default: $VQM_FIXTURE_DIR, else <build>/test-data/fixtures when the program\n"
      "                       runs from its build tree; tests/data/fixtures.tar.xz unpacks to it)\n"
      "%s\n",
      program, bench_ref.c_str(), bench_dis.c_str(), extra_help);
  benchmark::PrintDefaultHelp();
}

inline bool has_pair(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / bench_ref, ec) && std::filesystem::is_regular_file(dir / bench_dis, ec);
}

}  // namespace detail

// The benchmarks' main(): takes --fixtures out of argv before Google Benchmark sees it, prints a help that
// names it (--help), finds the fixtures (or says how to point to them), then runs the benchmarks.
inline int main(int argc, char** argv, const char* program, const char* extra_help = "") {
  detail::program = program;
  detail::extra_help = extra_help;
  std::string dir;
  bool from_flag = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--fixtures" || a.starts_with("--fixtures=")) {
      if (a == "--fixtures" && i + 1 >= argc) {
        std::fprintf(stderr, "%s: --fixtures needs a directory (see --help)\n", program);
        return 2;
      }
      dir = a == "--fixtures" ? argv[++i] : std::string(a.substr(std::strlen("--fixtures=")));
      from_flag = true;
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  benchmark::Initialize(&argc, argv, detail::print_help);  // --help: print_help(), exit
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const char* env = std::getenv("VQM_FIXTURE_DIR");
  std::string tried;
  if (!from_flag && env && *env) dir = env;
  if (dir.empty()) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) dir = (self.parent_path() / ".." / ".." / "test-data" / "fixtures").lexically_normal().string();
  }
  if (dir.empty() || !detail::has_pair(dir)) {
    std::fprintf(stderr,
                 "%s: the benchmark input %s + %s is not in '%s' (%s).\n"
                 "Pass --fixtures DIR or set VQM_FIXTURE_DIR to the directory holding them: a build tree has it\n"
                 "at <build>/test-data/fixtures; elsewhere unpack tests/data/fixtures.tar.xz (tar xf) and use\n"
                 "its fixtures/ directory.\n",
                 program, bench_ref.c_str(), bench_dis.c_str(), dir.c_str(),
                 from_flag ? "--fixtures" : (env && *env ? "$VQM_FIXTURE_DIR" : "next to the program"));
    return 2;
  }
  fixture_dir() = dir;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace vqm::bench
