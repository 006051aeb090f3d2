// Random test planes for the Cpu kernel tests: owning storage with a stride wider than the row.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "vqm/picture.hpp"

namespace vqm::test {

struct random_plane {
  std::vector<std::byte> storage;
  plane_view view;
};

enum class content { uniform, smooth, flat };

// A width×height plane of `bit_depth` samples, stride = width + pad samples (pad filled with garbage
// so an out-of-row read would show). `smooth` is a gradient plus small noise, closer to video.
inline random_plane make_plane(std::uint32_t width, std::uint32_t height, std::uint32_t bit_depth, std::uint32_t pad,
                               content kind, std::mt19937& rng) {
  const std::size_t bps = bit_depth > 8 ? 2 : 1;
  const std::uint32_t maxv = (1u << bit_depth) - 1;
  const std::size_t stride = (width + pad) * bps;
  random_plane p;
  p.storage.resize(stride * height + 64);
  std::uniform_int_distribution<std::uint32_t> any(0, maxv), noise(0, 6);
  const std::uint32_t flat_value = any(rng);
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width + pad; ++x) {
      std::uint32_t v = any(rng);
      if (x < width && kind == content::smooth) {
        const std::uint32_t base = ((x * 7 + y * 5) % 200) << (bit_depth - 8);
        v = std::min(maxv, base + (noise(rng) << (bit_depth - 8)));
      } else if (x < width && kind == content::flat) {
        v = flat_value;
      }
      std::byte* dst = p.storage.data() + y * stride + x * bps;
      if (bps == 2) {
        const auto s = static_cast<std::uint16_t>(v);
        std::memcpy(dst, &s, 2);
      } else {
        *dst = static_cast<std::byte>(v);
      }
    }
  p.view = plane_view{p.storage.data(), static_cast<std::ptrdiff_t>(stride), width, height};
  return p;
}

// A distorted copy: `ref` plus bounded noise, clamped, same stride.
inline random_plane distort(const random_plane& ref, std::uint32_t bit_depth, int amplitude, std::mt19937& rng) {
  random_plane d = ref;
  d.view.data = d.storage.data();
  const std::size_t bps = bit_depth > 8 ? 2 : 1;
  const int maxv = static_cast<int>((1u << bit_depth) - 1);
  std::uniform_int_distribution<int> n(-amplitude, amplitude);
  for (std::uint32_t y = 0; y < ref.view.height; ++y)
    for (std::uint32_t x = 0; x < ref.view.width; ++x) {
      std::byte* p = d.storage.data() + y * d.view.stride + x * bps;
      int v;
      if (bps == 2) {
        std::uint16_t s;
        std::memcpy(&s, p, 2);
        v = s;
      } else {
        v = static_cast<int>(*p);
      }
      v = std::clamp(v + n(rng), 0, maxv);
      if (bps == 2) {
        const auto s = static_cast<std::uint16_t>(v);
        std::memcpy(p, &s, 2);
      } else {
        *p = static_cast<std::byte>(v);
      }
    }
  return d;
}

}  // namespace vqm::test
