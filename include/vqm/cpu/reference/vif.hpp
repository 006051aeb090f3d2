// Reference kernel (scalar, the oracle of the tests): libvmaf's integer VIF sums, straight from
// SPEC-vmaf Part I §4–§9. Whole images in int64, index folding on both axes; clear rather than fast.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vqm/concepts/vif_kernel.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/vif.hpp"

namespace vqm::cpu::reference {

namespace vif_detail {

// One rounded double operation: the asm barrier keeps the compiler from fusing it with the next one
// into an FMA, whatever the build flags (SPEC §8: no contraction).
inline double rounded(double v) noexcept {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(v));
#endif
  return v;
}

struct image {
  std::int64_t w = 0, h = 0;
  std::vector<std::int64_t> v;
  image() = default;
  image(std::int64_t w_, std::int64_t h_) : w(w_), h(h_), v(static_cast<std::size_t>(w_ * h_), 0) {}
  [[nodiscard]] std::int64_t& at(std::int64_t i, std::int64_t j) { return v[static_cast<std::size_t>(i * w + j)]; }
  [[nodiscard]] std::int64_t at(std::int64_t i, std::int64_t j) const { return v[static_cast<std::size_t>(i * w + j)]; }
};

// §4.1: reflect-101, folded again as often as needed (period 2(n−1)); n = 1 folds everything to 0.
[[nodiscard]] inline std::int64_t fold(std::int64_t p, std::int64_t n) noexcept {
  if (n <= 1) return 0;
  const std::int64_t period = 2 * (n - 1);
  std::int64_t m = p % period;
  if (m < 0) m += period;
  return m <= n - 1 ? m : period - m;
}

// rs(v, n): (v + 2^(n−1)) >> n, or v when n = 0 (v ≥ 0).
[[nodiscard]] inline std::int64_t rs(std::int64_t v, int n) noexcept { return n > 0 ? (v + (std::int64_t{1} << (n - 1))) >> n : v; }

// §9: LOG(x) = T[x >> k] + 2048·k, k = bit length − 16, for x ≥ 2^17.
[[nodiscard]] inline std::int64_t log2_q11(std::int64_t x) {
  const int k = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(x))) - 16;
  return tables::vif_log2_table()[static_cast<std::size_t>(x >> k)] + 2048 * std::int64_t{k};
}

// What a scale leaves behind for the one-pixel rules of §4.3.
struct leftover {
  bool has_line = false;
  int half = 0;
  std::array<std::vector<std::int64_t>, 5> line;  // padded vertical-pass line of the last row, index p + half
  bool has_row1 = false;
  std::vector<std::int64_t> row1_ref, row1_dis;  // row 1 of the scale's images
};

inline image load(const plane_view& p, unsigned bpc) {
  image im(p.width, p.height);
  for (std::int64_t i = 0; i < im.h; ++i)
    for (std::int64_t j = 0; j < im.w; ++j) {
      if (bpc > 8) {
        std::uint16_t s;
        std::memcpy(&s, p.data + i * p.stride + j * 2, 2);
        im.at(i, j) = s;
      } else {
        im.at(i, j) = static_cast<std::int64_t>(std::to_integer<std::uint8_t>(p.data[i * p.stride + j]));
      }
    }
  return im;
}

// §6: scale s → s+1 with F(s+1); vertical shift b at s = 0, 16 above; horizontal shift 16; keep even
// rows and columns.
inline image downsample(const image& in, int s, unsigned bpc) {
  const auto f = tables::vif_filter_of(s + 1);
  const int shift = s == 0 ? static_cast<int>(bpc) : 16;
  image out(in.w / 2, in.h / 2);
  if (out.w == 0 || out.h == 0) return out;
  std::vector<std::int64_t> vline(static_cast<std::size_t>(in.w));
  for (std::int64_t oi = 0; oi < out.h; ++oi) {
    const std::int64_t i = 2 * oi;
    for (std::int64_t j = 0; j < in.w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k <= 2 * f.half; ++k) acc += std::int64_t{f.taps[k]} * in.at(fold(i - f.half + k, in.h), j);
      vline[static_cast<std::size_t>(j)] = rs(acc, shift);
    }
    for (std::int64_t oj = 0; oj < out.w; ++oj) {
      const std::int64_t j = 2 * oj;
      std::int64_t acc = 0;
      for (int k = 0; k <= 2 * f.half; ++k)
        acc += std::int64_t{f.taps[k]} * vline[static_cast<std::size_t>(fold(j - f.half + k, in.w))];
      out.at(oi, oj) = rs(acc, 16);
    }
  }
  return out;
}

// §7, §8: one scale's sums; `prev` is what the previous scale left, `next` receives what this one leaves.
inline vif_scale_sums statistics(const image& x, const image& y, int s, unsigned bpc, double limit,
                                 const leftover& prev, leftover& next) {
  const auto f = tables::vif_filter_of(s);
  const int H = f.half;
  const std::int64_t w = x.w, h = x.h;
  const int sh_mean = s == 0 ? static_cast<int>(bpc) : 16;
  const int sh_sq = s == 0 ? 2 * (static_cast<int>(bpc) - 8) : 16;

  // Row r of the mirrored image at column j (§4.1; one-row images read row 1 of the previous scale, §4.3).
  auto sample = [&](const image& im, const std::vector<std::int64_t>& row1, std::int64_t r, std::int64_t j) {
    if (h >= 2) return im.at(fold(r, h), j);
    if (r == 0) return im.at(0, j);
    return prev.has_row1 ? row1[static_cast<std::size_t>(j)] : std::int64_t{0};
  };

  // §7.1: five vertical lines per row.
  std::array<image, 5> vt;
  for (auto& v : vt) v = image(w, h);
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t j = 0; j < w; ++j) {
      std::int64_t am = 0, an = 0, axx = 0, ayy = 0, axy = 0;
      for (int k = 0; k <= 2 * H; ++k) {
        const std::int64_t c = f.taps[k];
        const std::int64_t a = sample(x, prev.row1_ref, i - H + k, j);
        const std::int64_t b = sample(y, prev.row1_dis, i - H + k, j);
        am += c * a;
        an += c * b;
        axx += c * a * a;
        ayy += c * b * b;
        axy += c * a * b;
      }
      vt[0].at(i, j) = rs(am, sh_mean);
      vt[1].at(i, j) = rs(an, sh_mean);
      vt[2].at(i, j) = rs(axx, sh_sq);
      vt[3].at(i, j) = rs(ayy, sh_sq);
      vt[4].at(i, j) = rs(axy, sh_sq);
    }

  // §4: the padded line of row i, position p in −H … w−1+H (one-column images: stale values, §4.3).
  auto padded = [&](int q, std::int64_t i, std::int64_t p) {
    if (w >= 2 || p == 0) return vt[q].at(i, fold(p, w));
    const std::int64_t fpos = p < 0 ? -p : p;
    return prev.has_line ? prev.line[q][static_cast<std::size_t>(prev.half + fpos)] : std::int64_t{0};
  };

  next = leftover{};
  next.has_line = true;
  next.half = H;
  for (int q = 0; q < 5; ++q)
    for (std::int64_t p = -H; p < w + H; ++p) next.line[q].push_back(padded(q, h - 1, p));
  if (h >= 2) {
    next.has_row1 = true;
    for (std::int64_t j = 0; j < w; ++j) {
      next.row1_ref.push_back(x.at(1, j));
      next.row1_dis.push_back(y.at(1, j));
    }
  }

  vif_scale_sums out;
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t j = 0; j < w; ++j) {
      // §7.2
      std::array<std::int64_t, 5> acc{};
      for (int k = 0; k <= 2 * H; ++k)
        for (int q = 0; q < 5; ++q) acc[q] += std::int64_t{f.taps[k]} * padded(q, i, j - H + k);
      const auto mu1 = static_cast<std::uint64_t>(acc[0]), mu2 = static_cast<std::uint64_t>(acc[1]);
      const std::int64_t xx = rs(acc[2], 16), yy = rs(acc[3], 16), xy = rs(acc[4], 16);
      // §7.3
      const auto mu1_sq = static_cast<std::int64_t>((mu1 * mu1 + (std::uint64_t{1} << 31)) >> 32);
      const auto mu2_sq = static_cast<std::int64_t>((mu2 * mu2 + (std::uint64_t{1} << 31)) >> 32);
      const auto mu1_mu2 = static_cast<std::int64_t>((mu1 * mu2 + (std::uint64_t{1} << 31)) >> 32);
      auto wrap32 = [](std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); };
      const std::int32_t s1 = wrap32(xx - mu1_sq);
      std::int32_t s2 = wrap32(yy - mu2_sq);
      const std::int32_t s12 = wrap32(xy - mu1_mu2);
      if (s2 < 0) s2 = 0;
      // §8
      if (s1 >= tables::vif_sigma_nsq) {
        out.den_log += log2_q11(tables::vif_sigma_nsq + s1) - 17 * 2048;
        if (s12 > 0 && s2 > 0) {
          double g = static_cast<double>(s12) / rounded(static_cast<double>(s1) + tables::vif_eps);
          // trunc_to_int32; the value is in range on valid input (the clamp only keeps invalid input defined)
          const double t = static_cast<double>(s2) - rounded(g * static_cast<double>(s12));
          std::int32_t sv = static_cast<std::int32_t>(t < -2147483648.0 ? -2147483648.0 : t);
          if (sv < 0) sv = 0;
          g = g < limit ? g : limit;
          const std::int64_t n1 = std::int64_t{sv} + tables::vif_sigma_nsq;
          const std::int64_t n1t = static_cast<std::int64_t>(rounded(rounded(g * g) * static_cast<double>(s1))) + n1;
          out.num_log += log2_q11(n1t) - log2_q11(n1);
        }
      } else {
        out.num_non_log += s2;
        out.den_non_log += 1;
      }
    }
  return out;
}

}  // namespace vif_detail

// The sums of every scale (SPEC §5). Input: the luma planes (uint8 samples at bpc 8, uint16 above).
// Defined for w ≥ 2, h ≥ 8 (and w ≥ 4 with skip_scale0); outside that it returns something, no crash.
[[nodiscard]] inline vif_partials vif(const plane_view& ref, const plane_view& dis, unsigned bpc,
                                      const vif_request& q) {
  using namespace vif_detail;
  vif_partials out;
  image x = load(ref, bpc), y = load(dis, bpc);
  leftover prev, next;
  for (int s = 0; s < 4; ++s) {
    if (s > 0) {
      x = downsample(x, s - 1, bpc);
      y = downsample(y, s - 1, bpc);
    }
    if (x.w == 0 || x.h == 0) break;  // this and every later scale are empty: zeros (NaN scores)
    if (s == 0 && q.skip_scale0) continue;
    out.scale[static_cast<std::size_t>(s)] = statistics(x, y, s, bpc, q.gain_limit, prev, next);
    prev = std::move(next);
  }
  return out;
}

}  // namespace vqm::cpu::reference
