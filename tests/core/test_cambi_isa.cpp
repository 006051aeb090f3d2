// cambi's Cpu kernel at every instruction-set level this machine runs (cpu::available_isas()): the AVX2 and
// AVX-512 paths (x86/cambi.hpp) give the portable path's scores exactly, on banded random planes of 8 to 16
// bits and odd sizes, over each option that changes the kernel's work (window, contrasts, visibility
// threshold, eotf, hrs, full_ref, anti-dithering).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {
using cpu::isa;

// Smooth ramps quantised into bands (what cambi detects) with noisy blocks and single-sample dots (what the
// mask and the c-value bounds must skip), in [0, 2^bpc).
picture banded(std::uint32_t w, std::uint32_t h, std::uint32_t bpc, std::mt19937& rng) {
  picture p({w, h, chroma_format::yuv420, bpc});
  const std::uint32_t top = (1u << bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, top), coin(0, 63);
  const double gx = std::uniform_real_distribution<double>(0.2, 1.5)(rng), gy = gx / 3;
  const std::uint32_t band = 1u << (bpc > 6 ? bpc - 6 : 0);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const bool noisy = ((x / 37 + y / 29) % 5) == 0;
      auto v = static_cast<std::uint32_t>((x * gx + y * gy) * band / 4) / band * band + (band << 4);
      if (noisy || coin(rng) == 0) v = any(rng);
      v = v > top ? top : v;
      if (bpc == 8) p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
      else p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
    }
  return p;
}

cambi_partials at(isa level, const picture& ref, const picture& dis, const cambi_request& q) {
  cpu::set_max_isa(level);
  return cpu::cambi(ref.view(), dis.view(), q);
}

TEST(cambi_isa, every_level_gives_the_portable_scores) {
  struct run {
    std::uint32_t w, h, bpc;
    std::string opts;
  };
  const run runs[] = {
      {333, 241, 8, ""},
      {480, 271, 10, "window_size=15"},
      {217, 301, 12, "max_log_contrast=0:tvi_threshold=0.5"},
      {401, 233, 16, "max_log_contrast=5:cambi_vis_lum_threshold=5"},
      {355, 245, 10, "enc_bitdepth=8:eotf=pq:max_log_contrast=3"},
      {512, 288, 9, "full_ref=true:src_width=480:src_height=270:cambi_vis_lum_threshold=0.06"},
      {1921, 1081, 8, "cambi_high_res_speedup=1080:window_size=127"},
  };
  const isa cap = cpu::max_isa();
  std::mt19937 rng(18);
  bool some_banding = false;
  for (const auto& r : runs) {
    SCOPED_TRACE(std::to_string(r.w) + "x" + std::to_string(r.h) + " " + std::to_string(r.bpc) + "-bit " + r.opts);
    const picture_format f{r.w, r.h, chroma_format::yuv420, r.bpc};
    const auto opts = parse_options<cambi_options>(option_map::parse(r.opts));
    ASSERT_EQ(cambi_algorithm::unsupported(f, opts), "");
    const cambi_algorithm alg(f, opts);
    const picture ref = banded(r.w, r.h, r.bpc, rng), dis = banded(r.w, r.h, r.bpc, rng);
    const cambi_partials want = at(isa::baseline, ref, dis, alg.request());
    some_banding |= want.dis > 0;
    for (const isa level : cpu::available_isas()) {
      SCOPED_TRACE(std::string(cpu::isa_name(level)));
      const cambi_partials got = at(level, ref, dis, alg.request());
      EXPECT_EQ(got.dis, want.dis);
      EXPECT_EQ(got.src, want.src);
    }
  }
  cpu::set_max_isa(cap);
  EXPECT_TRUE(some_banding) << "the planes must give c-values for the comparison to cover them";
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
