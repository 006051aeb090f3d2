// Benchmark input shared by the metric benchmarks: the astronaut 576x324 fixture pair, and the same
// content mirror-tiled up to any size (1080p), so the benchmarks need nothing outside the build tree.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vqm/io/y4m.hpp"
#include "vqm/metrics/ssim_geometry.hpp"
#include "vqm/picture.hpp"

namespace vqm::bench {

struct frame_pair {
  picture ref;
  picture dis;
};

// The fixture pair used by every metric benchmark (VQM_FIXTURE_DIR is set by CMake).
inline std::string fixture_path(const std::string& name) { return std::string(VQM_FIXTURE_DIR) + "/" + name; }
inline const std::string bench_ref = "astronaut_576x324_420p8_ref.y4m";
inline const std::string bench_dis = "astronaut_576x324_420p8_x264crf35.y4m";

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

}  // namespace vqm::bench
