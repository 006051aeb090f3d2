// Shared by the semi-planar tests (Cpu, Vulkan): synthetic planar frames, the same samples stored as a
// named pixel format (interleaved chroma, MSB-aligned words), and every registry metric run over a stream
// of pairs on a backend, so that a semi-planar run can be compared with its planar equivalent (==).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vqm/metric_set.hpp"
#include "vqm/picture.hpp"
#include "vqm/registry.hpp"
#include "vqm/scorer.hpp"

namespace vqm::test {

// Every feature of the registry.
inline std::vector<std::string> registry_features() {
  std::vector<std::string> out;
  registry::all::for_each([&]<class E>() { out.emplace_back(E::algorithm::feature_name); });
  return out;
}
inline const std::vector<std::string> all_features = registry_features();
// The luma-only ones: the Vulkan backend then uploads and unpacks the luma alone.
inline const std::vector<std::string> luma_features = {"float_psnr", "float_ssim", "adm", "vif", "motion"};

inline std::uint32_t get(const picture& p, int plane, std::uint32_t x, std::uint32_t y) {
  const std::byte* row = p.plane_data(plane) + static_cast<std::ptrdiff_t>(y) * p.stride(plane);
  if (p.format().bytes_per_sample() == 1) return static_cast<std::uint32_t>(row[x]);
  std::uint16_t v;
  std::memcpy(&v, row + 2 * x, 2);
  return v;
}
inline void put(picture& p, int plane, std::uint32_t x, std::uint32_t y, std::uint32_t v) {
  std::byte* row = p.plane_data(plane) + static_cast<std::ptrdiff_t>(y) * p.stride(plane);
  if (p.format().bytes_per_sample() == 1) {
    row[x] = static_cast<std::byte>(v);
  } else {
    const auto s = static_cast<std::uint16_t>(v);
    std::memcpy(row + 2 * x, &s, 2);
  }
}

// Frame `index` of a planar stream: a moving gradient with noise (ref), or it plus bounded noise (dis).
inline picture synthetic(const picture_format& f, int index, bool distorted) {
  picture p(planar_equivalent(f));
  std::mt19937 rng(static_cast<unsigned>(index * 2 + (distorted ? 1 : 0)) + 7u * f.width + f.bit_depth);
  const std::uint32_t maxv = (1u << f.bit_depth) - 1, up = f.bit_depth - 8;
  std::uniform_int_distribution<int> noise(-3, 3);
  for (int pl = 0; pl < f.planes(); ++pl)
    for (std::uint32_t y = 0; y < f.plane_height(pl); ++y)
      for (std::uint32_t x = 0; x < f.plane_width(pl); ++x) {
        int v = static_cast<int>(((x * (5 + pl) + y * 3 + static_cast<std::uint32_t>(index) * 4) % 220 + 16) << up);
        v += noise(rng) << up;
        if (distorted) v += (noise(rng) * 3) << up;
        put(p, pl, x, y, static_cast<std::uint32_t>(std::clamp(v, 0, static_cast<int>(maxv))));
      }
  return p;
}

// The samples of planar `src` stored as `to` (same size, chroma format and depth).
inline picture repack(const picture& src, const picture_format& to) {
  picture p(to);
  const std::uint32_t s = to.msb_shift;
  for (std::uint32_t y = 0; y < to.height; ++y)
    for (std::uint32_t x = 0; x < to.width; ++x) put(p, 0, x, y, get(src, 0, x, y) << s);
  if (to.planes() == 1) return p;
  for (std::uint32_t y = 0; y < to.plane_height(1); ++y)
    for (std::uint32_t x = 0; x < to.plane_width(1); ++x) {
      const std::uint32_t cb = get(src, 1, x, y) << s, cr = get(src, 2, x, y) << s;
      if (!to.semi_planar()) {
        put(p, 1, x, y, cb);
        put(p, 2, x, y, cr);
      } else {
        const bool vu = to.layout == chroma_layout::vu;
        put(p, 1, 2 * x, y, vu ? cr : cb);
        put(p, 1, 2 * x + 1, y, vu ? cb : cr);
      }
    }
  return p;
}

// The features of `names` that can measure `f` (float_ms_ssim needs 176x176, psnr_hvs at most 12 bits,
// ...: the metric's own probe) on backend B; a registered feature whose engine B lacks (B refuses it at run
// time, an interim state while a feature is being ported) is left out.
template <Backend B>
std::vector<feature_request> supported(const std::vector<std::string>& names, const picture_format& f, compat c) {
  std::vector<feature_request> out;
  registry::all::for_each([&]<class E>() {
    using A = typename E::algorithm;
    if (std::find(names.begin(), names.end(), A::feature_name) == names.end()) return;
    if (!E::template runs_on<B>) return;
    if (A::unsupported(f, typename A::options{}, c).empty()) out.push_back({A::feature_name, {}});
  });
  return out;
}

// Every value a scorer returns for a stream (per frame, end-of-stream series, aggregates), in order.
// A stream of frame pairs: synthetic planar frames, and the same samples stored as `f`.
struct stream {
  std::vector<picture> ref, dis;
};
inline stream planar_stream(const picture_format& f, int frames) {
  stream s;
  for (int i = 0; i < frames; ++i) {
    s.ref.push_back(synthetic(f, i, false));
    s.dis.push_back(synthetic(f, i, true));
  }
  return s;
}
inline stream repacked(const stream& s, const picture_format& f) {
  stream out;
  for (std::size_t i = 0; i < s.ref.size(); ++i) {
    out.ref.push_back(repack(s.ref[i], f));
    out.dis.push_back(repack(s.dis[i], f));
  }
  return out;
}

struct run_values {
  std::vector<std::string> names;
  std::vector<double> values;
};

// R and D: picture, or anything else the backend's begin_frame takes (a GPU-resident picture).
template <Backend B, class R = picture, class D = picture>
run_values score_stream(B& backend, const std::vector<feature_request>& features, const picture_format& metric_format,
                        const std::vector<R>& refs, const std::vector<D>& dis, compat c, std::size_t depth) {
  scorer<B> s(backend, make_metrics<B>(features, metric_format, c), c, depth);
  run_values out;
  auto take = [&](const frame_result& r) {
    for (std::size_t k = 0; k < r.values.size(); ++k) {
      out.names.push_back(s.names()[k] + " frame " + std::to_string(r.index));
      out.values.push_back(r.values[k]);
    }
  };
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (auto r = s.push(refs[i], dis[i])) take(*r);
  while (auto r = s.pop()) take(*r);
  for (const auto& [name, series] : s.finish())
    for (std::size_t i = 0; i < series.size(); ++i) {
      out.names.push_back(name + " frame " + std::to_string(i));
      out.values.push_back(series[i]);
    }
  for (const auto& [name, v] : s.aggregate()) {
    out.names.push_back(name);
    out.values.push_back(v);
  }
  return out;
}

// Identical doubles (NaN equal to NaN: degenerate frames in compat mode).
inline void expect_same(const run_values& got, const run_values& want, const std::string& what) {
  ASSERT_EQ(got.names, want.names) << what;
  for (std::size_t i = 0; i < got.values.size(); ++i) {
    const double a = got.values[i], b = want.values[i];
    EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << what << ": " << got.names[i] << " is " << a << ", planar " << b;
  }
}

}  // namespace vqm::test
