// The optimised Cpu kernels against the scalar reference kernels, bit for bit, on random planes of odd
// sizes with strides wider than the rows, at every bit depth, on every instruction-set path.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/random_planes.hpp"
#include "vqm/cpu/float_motion.hpp"
#include "vqm/cpu/float_sse.hpp"
#include "vqm/cpu/float_vif.hpp"
#include "vqm/cpu/ms_ssim.hpp"
#include "vqm/cpu/psnr_hvs.hpp"
#include "vqm/cpu/reference/float_motion.hpp"
#include "vqm/cpu/reference/float_sse.hpp"
#include "vqm/cpu/reference/float_vif.hpp"
#include "vqm/cpu/reference/ms_ssim.hpp"
#include "vqm/cpu/reference/psnr_hvs.hpp"
#include "vqm/cpu/reference/sse.hpp"
#include "vqm/cpu/reference/ssim.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/cpu/sse.hpp"
#include "vqm/cpu/ssim.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using vqm::cpu::isa;
using vqm::test::content;

template <class T>
std::string bits(T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g (0x%llx)", static_cast<double>(v), static_cast<unsigned long long>(u));
  return buf;
}

// Every instruction-set path this machine can run; the cap is restored afterwards.
std::vector<isa> paths() {
  return vqm::cpu::available_isas();
}
struct isa_guard {
  explicit isa_guard(isa i) : before(vqm::cpu::max_isa()) { vqm::cpu::set_max_isa(i); }
  ~isa_guard() { vqm::cpu::set_max_isa(before); }
  isa before;
};
const char* name(isa i) { return vqm::cpu::isa_name(i).data(); }

struct pair_case {
  vqm::test::random_plane ref, dis;
  std::string what;
};

// Odd sizes 1..40 (and a few larger ones for decimation), strides wider than the row, three kinds
// of content, reproducible.
std::vector<pair_case> cases(std::uint32_t bit_depth, std::uint32_t min_size, std::uint32_t max_size, int count,
                             unsigned seed) {
  std::mt19937 rng(seed + bit_depth);
  std::uniform_int_distribution<std::uint32_t> size(min_size, max_size), pad(1, 37);
  std::vector<pair_case> out;
  for (int i = 0; i < count; ++i) {
    const std::uint32_t w = i < 40 && min_size <= 1 ? static_cast<std::uint32_t>(i + 1) : size(rng);
    const std::uint32_t h = size(rng);
    const auto kind = static_cast<content>(i % 3);
    auto ref = vqm::test::make_plane(w, h, bit_depth, pad(rng), kind, rng);
    auto dis = i % 7 == 6 ? ref : vqm::test::distort(ref, bit_depth, 1 + i % 20 * (1 << (bit_depth - 8)), rng);
    dis.view.data = dis.storage.data();
    out.push_back({std::move(ref), std::move(dis),
                   std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bit_depth) + "-bit kind " +
                       std::to_string(i % 3) + (i % 7 == 6 ? " identical" : "")});
  }
  return out;
}

void expect_same(const vqm::ssim_partials& a, const vqm::ssim_partials& b, const std::string& what) {
  EXPECT_EQ(bits(a.ssim), bits(b.ssim)) << what;
  EXPECT_EQ(bits(a.l), bits(b.l)) << what;
  EXPECT_EQ(bits(a.c), bits(b.c)) << what;
  EXPECT_EQ(bits(a.s), bits(b.s)) << what;
}

constexpr std::uint32_t all_depths[] = {8, 10, 12, 16};

// The level names round-trip (VQM_CPU_ISA takes them), anything else is refused, and the levels this
// machine runs are a prefix of the order (a cap between two levels is meaningful).
TEST(CpuIsa, NamesRoundTripAndLevelsAreOrdered) {
  for (const isa i : vqm::cpu::all_isas) {
    isa back = isa::baseline;
    ASSERT_TRUE(vqm::cpu::parse_isa(vqm::cpu::isa_name(i), back)) << name(i);
    EXPECT_EQ(back, i) << name(i);
  }
  isa out = isa::avx2;
  EXPECT_FALSE(vqm::cpu::parse_isa("avx512_vnni", out));
  EXPECT_FALSE(vqm::cpu::parse_isa("", out));
  EXPECT_EQ(out, isa::avx2);
  const auto levels = paths();
  ASSERT_FALSE(levels.empty());
  for (std::size_t k = 0; k < levels.size(); ++k) EXPECT_EQ(static_cast<std::size_t>(levels[k]), k);
  EXPECT_EQ(levels.back(), vqm::cpu::detected_isa());
}

TEST(CpuKernels, SseMatchesReference) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : {8u, 9u, 10u, 12u, 15u, 16u})
      for (auto& c : cases(bpc, 1, 80, 60, 1)) {
        EXPECT_EQ(vqm::cpu::sse_plane(c.ref.view, c.dis.view, bpc), vqm::cpu::reference::sse_plane(c.ref.view, c.dis.view, bpc))
            << c.what << " on " << name(path);
      }
  }
}

TEST(CpuKernels, SseOfExtremesIsExact) {
  // Every sample at maximum distance: the 32-bit lane sums must be widened in time.
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : {8u, 12u, 16u}) {
      const std::uint32_t w = 4099, h = 3, maxv = (1u << bpc) - 1;
      std::mt19937 rng(7);
      auto a = vqm::test::make_plane(w, h, bpc, 5, content::flat, rng);
      auto b = a;
      const std::size_t bps = bpc > 8 ? 2 : 1;
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          std::byte* pa = a.storage.data() + y * a.view.stride + x * bps;
          std::byte* pb = b.storage.data() + y * b.view.stride + x * bps;
          const std::uint16_t va = static_cast<std::uint16_t>((x + y) % 2 ? maxv : 0), vb = static_cast<std::uint16_t>(maxv - va);
          if (bps == 2) {
            std::memcpy(pa, &va, 2);
            std::memcpy(pb, &vb, 2);
          } else {
            *pa = static_cast<std::byte>(va);
            *pb = static_cast<std::byte>(vb);
          }
        }
      b.view.data = b.storage.data();
      EXPECT_EQ(vqm::cpu::sse_plane(a.view, b.view, bpc), std::uint64_t{maxv} * maxv * w * h) << bpc << " on " << name(path);
    }
  }
}

TEST(CpuKernels, FloatSseMatchesReference) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : all_depths)
      for (auto& c : cases(bpc, 1, 60, 40, 2))
        EXPECT_EQ(bits(vqm::cpu::float_sse(c.ref.view, c.dis.view, bpc)),
                  bits(vqm::cpu::reference::float_sse(c.ref.view, c.dis.view, bpc)))
            << c.what << " on " << name(path);
  }
}

TEST(CpuKernels, SsimMatchesReferenceAtScaleOne) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : all_depths)
      for (auto& c : cases(bpc, 1, 40, 60, 3))
        expect_same(vqm::cpu::ssim(c.ref.view, c.dis.view, bpc, 1), vqm::cpu::reference::ssim(c.ref.view, c.dis.view, bpc, 1),
                    c.what + " on " + name(path));
  }
}

TEST(CpuKernels, SsimMatchesReferenceWithBoxDecimation) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : all_depths)
      for (std::uint32_t scale = 2; scale <= 7; ++scale)
        for (auto& c : cases(bpc, 11 * scale - 2, 11 * scale + 60, 8, 4 + scale))
          expect_same(vqm::cpu::ssim(c.ref.view, c.dis.view, bpc, scale),
                      vqm::cpu::reference::ssim(c.ref.view, c.dis.view, bpc, scale),
                      c.what + " scale " + std::to_string(scale) + " on " + name(path));
  }
}

TEST(CpuKernels, MsSsimMatchesReference) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : all_depths) {
      auto small = cases(bpc, 1, 40, 45, 5);
      auto large = cases(bpc, 170, 230, 3, 6);  // all five levels have a valid map
      for (auto* set : {&small, &large})
        for (auto& c : *set) {
          const auto got = vqm::cpu::ms_ssim(c.ref.view, c.dis.view, bpc);
          const auto want = vqm::cpu::reference::ms_ssim(c.ref.view, c.dis.view, bpc);
          for (int k = 0; k < vqm::ms_ssim_scales; ++k)
            expect_same(got.level[k], want.level[k], c.what + " level " + std::to_string(k) + " on " + name(path));
        }
    }
  }
}

TEST(CpuKernels, PsnrHvsMatchesReference) {
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : {8u, 9u, 10u, 11u, 12u})
      for (auto& c : cases(bpc, 1, 90, 70, 7))
        for (int plane = 0; plane < 3; ++plane)
          EXPECT_EQ(bits(vqm::cpu::psnr_hvs_plane(c.ref.view, c.dis.view, bpc, plane)),
                    bits(vqm::cpu::reference::psnr_hvs_plane(c.ref.view, c.dis.view, bpc, plane)))
              << c.what << " plane " << plane << " on " << name(path);
  }
}

TEST(CpuKernels, FloatVifMatchesReference) {
  // Kernel scales with other filter widths (0.5: 9/5/3/3 taps, 1.5: 27/15/9/5, 3: 51/27/15/9), the
  // statistic's options, skip_scale0; sizes from the smallest accepted, odd widths, every lane tail.
  struct opt {
    vqm::float_vif_request q;
    std::uint32_t min_size;
  };
  std::vector<opt> opts(5);
  opts[0].min_size = 16;
  opts[1].q.kernelscale = 0.5f, opts[1].min_size = 16;
  opts[2].q.kernelscale = 1.5f, opts[2].q.gain_limit = 1.0, opts[2].min_size = 24;
  opts[3].q.kernelscale = 3.0f, opts[3].q.sigma_nsq = 0.3, opts[3].min_size = 40;
  opts[4].q.skip_scale0 = true, opts[4].q.sigma_nsq = 5.0, opts[4].min_size = 16;
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : {8u, 10u, 12u, 16u})
      for (std::size_t o = 0; o < opts.size(); ++o)
        for (auto& c : cases(bpc, opts[o].min_size, opts[o].min_size + 70, 6, 9 + static_cast<unsigned>(o))) {
          const auto got = vqm::cpu::float_vif(c.ref.view, c.dis.view, bpc, opts[o].q);
          const auto want = vqm::cpu::reference::float_vif(c.ref.view, c.dis.view, bpc, opts[o].q);
          for (int s = 0; s < 4; ++s) {
            EXPECT_EQ(bits(got.num[s]), bits(want.num[s])) << c.what << " options " << o << " scale " << s << " on " << name(path);
            EXPECT_EQ(bits(got.den[s]), bits(want.den[s])) << c.what << " options " << o << " scale " << s << " on " << name(path);
          }
        }
  }
}

TEST(CpuKernels, FloatMotionMatchesReference) {
  // Each case is a stream of four frames (ref, then distorted copies as the next frames): frames 1..3 in
  // order reuse the cached blur; a second stream interleaved, a repeated frame and a skipped one must not.
  for (auto path : paths()) {
    isa_guard g(path);
    for (auto bpc : all_depths)
      for (auto& c : cases(bpc, 3, 70, 12, 11)) {
        std::mt19937 rng(bpc);
        std::vector<vqm::test::random_plane> f;
        f.push_back(c.ref);
        f.push_back(c.dis);
        for (int k = 0; k < 2; ++k) f.push_back(vqm::test::distort(f.back(), bpc, 1 << (bpc - 8), rng));
        for (auto& p : f) p.view.data = p.storage.data();
        const auto s1 = vqm::cpu::detail::fmotion_new_stream(), s2 = vqm::cpu::detail::fmotion_new_stream();
        struct call {
          std::uint64_t stream;
          std::size_t prev, cur;
        };
        for (const call& k : {call{s1, 0, 1}, call{s1, 1, 2}, call{s1, 2, 3}, call{s2, 3, 1}, call{s1, 0, 3},
                              call{s1, 2, 3}, call{s1, 1, 2}, call{0, 2, 1}}) {
          const float want = vqm::cpu::reference::float_motion_sad(f[k.prev].view, f[k.cur].view, bpc);
          // The frame number is cur's index, except that {s1, 0, 3} claims to be frame 1 (prev 0) of s1.
          const std::size_t frame = k.prev == 0 && k.cur == 3 ? 1 : k.cur;
          EXPECT_EQ(bits(vqm::cpu::float_motion_sad(f[k.prev].view, f[k.cur].view, bpc, k.stream, frame)), bits(want))
              << c.what << " frames " << k.prev << "," << k.cur << " on " << name(path);
        }
      }
  }
}

}  // namespace
