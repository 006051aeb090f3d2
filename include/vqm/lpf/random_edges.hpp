// Deterministic random edges for tests and benchmarks (SPEC §9.2). Own PRNG and range mapping, so the
// vectors are the same with every standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/lpf/edge.hpp"

namespace vqm::lpf {

// SplitMix64 (Steele, Lea, Flood 2014).
class splitmix64 {
 public:
  explicit constexpr splitmix64(std::uint64_t seed) : s_(seed) {}
  constexpr std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform-enough integer in [lo, hi] (modulo bias is irrelevant here).
  constexpr int range(int lo, int hi) { return lo + static_cast<int>(next() % std::uint64_t(hi - lo + 1)); }
  // Uniform in [-d, d].
  constexpr int spread(int d) { return d <= 0 ? 0 : range(-d, d); }
  constexpr bool chance(int percent) { return range(0, 99) < percent; }

 private:
  std::uint64_t s_;
};

// A plane full of edges that never interact: h tiles are 16 px x 8 rows, v tiles 8 px x 16 rows (SPEC §10),
// `columns` tiles per tile row, plus random padding at the end of each row.
template <class Pixel>
struct random_batch {
  kind k;
  int bit_depth = 8;
  std::size_t stride = 0;
  std::vector<Pixel> pixels;
  std::vector<edge> edges;
  [[nodiscard]] plane<Pixel> view() { return {pixels.data(), pixels.size(), stride, bit_depth}; }
};

namespace detail {

// Thresholds of one edge: mostly realistic (L, S) pairs, plus the corners of the kernel domain.
inline thresholds random_thresholds(splitmix64& g) {
  const int m = g.range(0, 99);
  int L = 0, S = 0;
  if (m < 40) {  // realistic: L weighted to 8..40, S mostly 0
    L = g.chance(80) ? g.range(8, 40) : g.range(1, 63);
    S = g.chance(90) ? 0 : g.range(1, 7);
  } else if (m < 65) {  // high levels: the only ones that reach the signed clamps (E >= 62)
    L = g.range(40, 63);
  } else if (m < 80) {  // low levels: H = 0, hev fires on any step
    L = g.range(1, 15);
    S = g.range(0, 7);
  } else if (m < 95) {
    L = g.range(1, 63);
    S = g.range(0, 7);
  } else {  // kernel-domain corners (not realisable by VP9, legal for the kernel)
    const int c = g.range(0, 3);
    const auto E = static_cast<std::uint8_t>(c == 0 ? 0 : c == 1 ? max_E : g.range(0, max_E));
    const auto I = static_cast<std::uint8_t>(g.chance(30) ? 0 : g.range(0, 255));
    const auto H = static_cast<std::uint8_t>(g.chance(30) ? 0 : g.range(0, 255));
    return {E, I, H};
  }
  return thresholds_from_level(L, S);
}

// One line of 16 taps (index k + 8 for offset k), unclipped; classes and weights of SPEC §9.2 item 3.
inline void random_line(splitmix64& g, int bd, thresholds t, int* v) {
  const int s = bd - 8, pmax = (1 << bd) - 1, F = 1 << s;
  const int E = t.E << s, I = t.I << s, H = t.H << s;
  auto rnd = [&] { return g.range(0, pmax); };
  for (int i = 0; i < 16; ++i) v[i] = rnd();
  int& q0 = v[8];
  int& p0 = v[7];
  const int cls = g.range(0, 99);
  if (cls < 30) {  // flat16 (0..14) / flat8 (15..29)
    const int n = cls < 15 ? 8 : 4;
    p0 = q0 + g.spread(E / 4);
    for (int i = 1; i < n; ++i) {
      v[8 + i] = q0 + g.spread(F);
      v[7 - i] = p0 + g.spread(F);
    }
  } else if (cls < 75) {  // smooth (30..59) / forced-hev (60..74)
    p0 = q0 + g.spread(E / 4);
    for (int i = 1; i < 4; ++i) {
      v[8 + i] = v[7 + i] + g.spread(I);
      v[7 - i] = v[8 - i] + g.spread(I);
    }
    if (cls >= 60) {  // |q1 - q0| in [H+1, I], pointing away from the nearer rail
      const int dir = q0 > pmax / 2 ? -1 : 1;
      const int mag = I > H ? g.range(H + 1, I) : H + 1;
      v[9] = q0 + dir * mag;
      v[10] = v[9] + g.spread(I);
      v[11] = v[10] + g.spread(I);
    }
  } else if (cls < 80) {  // clamp-stress: p0 at a rail, q0 toward mid-range by [E/4, E/2]
    const bool low = g.chance(50);
    p0 = low ? g.range(0, 4 * F) : pmax - g.range(0, 4 * F);
    const int d = g.range(E / 4, E / 2 > E / 4 ? E / 2 : E / 4);
    q0 = low ? p0 + d : p0 - d;
    for (int i = 1; i < 4; ++i) {
      v[8 + i] = v[7 + i] + g.spread(I);
      v[7 - i] = v[8 - i] + g.spread(I);
    }
  } else if (cls < 90) {  // step: two flat sides at random levels
    const int a = rnd(), b = rnd();
    for (int i = 0; i < 8; ++i) {
      v[7 - i] = a + g.spread(F);
      v[8 + i] = b + g.spread(F);
    }
  }  // else off: fully random
}

}  // namespace detail

// n edges of kind k at bit depth bd (8 for uint8_t; 8, 10 or 12 for uint16_t), from seed.
template <class Pixel>
random_batch<Pixel> make_random_batch(kind k, int bd, std::size_t n, std::uint64_t seed, std::size_t columns = 64) {
  splitmix64 g(seed ^ (std::uint64_t(k.wd) << 40) ^ (std::uint64_t(k.dir) << 48) ^ (std::uint64_t(bd) << 52));
  random_batch<Pixel> b;
  b.k = k;
  b.bit_depth = bd;
  const bool h = k.dir == direction::h;
  const std::size_t tw = h ? 16 : 8, th = h ? 8 : 16;
  if (columns == 0) columns = 1;
  const std::size_t rows = (n + columns - 1) / columns;
  b.stride = columns * tw + static_cast<std::size_t>(g.range(0, 7));
  b.pixels.resize(b.stride * rows * th);
  const int pmax = (1 << bd) - 1;
  for (Pixel& p : b.pixels) p = static_cast<Pixel>(g.range(0, pmax));
  b.edges.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = i / columns, c = i % columns;
    const std::size_t q0 = h ? r * th * b.stride + c * tw + 8 : (r * th + 8) * b.stride + c * tw;
    const thresholds t = detail::random_thresholds(g);
    b.edges[i] = {static_cast<std::uint32_t>(q0), t.E, t.I, t.H, 0};
    for (int l = 0; l < 8; ++l) {
      int v[16];
      detail::random_line(g, bd, t, v);
      for (int j = 0; j < 16; ++j) {
        const int x = v[j] < 0 ? 0 : v[j] > pmax ? pmax : v[j];  // store clipped, the walk went on unclipped
        const std::ptrdiff_t at = h ? std::ptrdiff_t(q0 + l * b.stride) + (j - 8)
                                    : std::ptrdiff_t(q0 + l) + (j - 8) * std::ptrdiff_t(b.stride);
        b.pixels[static_cast<std::size_t>(at)] = static_cast<Pixel>(x);
      }
    }
  }
  return b;
}

}  // namespace vqm::lpf
