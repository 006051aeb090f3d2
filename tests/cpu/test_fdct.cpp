// The integer 8-point DCT (SPEC §6.4): the kernel's fdct8 against a direct transcription of the SPEC's
// step table, on scalars and on SIMD lanes, plus the known properties (constant input -> DC only).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "vqm/cpu/psnr_hvs.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

// SPEC §6.4, written out from the table: H rounds toward zero, M rounds half up with a floor shift.
std::int32_t H(std::int32_t v) { return v < 0 ? -((-v) / 2) : v / 2; }
std::int32_t M(std::int32_t v, std::int32_t k, int s) {
  const std::int64_t p = std::int64_t{v} * k + (std::int64_t{1} << (s - 1));
  return static_cast<std::int32_t>(p >= 0 ? p >> s : -((-p + (std::int64_t{1} << s) - 1) >> s));  // floor
}
void spec_fdct8(const std::int32_t* x, std::int32_t* y) {
  std::int32_t t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  t1 = t0 - t1; const std::int32_t h1 = H(t1); t0 = t0 - h1;                    // 1
  t4 = t4 + t5; const std::int32_t h4 = H(t4); t5 = t5 - h4;                    // 2
  t3 = t2 - t3; t2 = t2 - H(t3);                                                // 3
  t6 = t6 + t7; const std::int32_t h6 = H(t6); t7 = h6 - t7;                    // 4
  t0 = t0 + h6; t6 = t0 - t6; t2 = h4 - t2; t4 = t2 - t4;                       // 5
  t0 -= M(t4, 13573, 15); t4 += M(t0, 11585, 14); t0 -= M(t4, 13573, 15);       // 6
  t6 -= M(t2, 21895, 15); t2 += M(t6, 15137, 14); t6 -= M(t2, 21895, 15);       // 7
  t3 += M(t5, 19195, 15); t5 += M(t3, 11585, 14); t3 -= M(t5, 7489, 13);        // 8
  t7 = H(t5) - t7; t5 = t5 - t7; t3 = h1 - t3; t1 = t1 - t3;                    // 9
  t7 += M(t1, 3227, 15); t1 -= M(t7, 6393, 15); t7 += M(t1, 3227, 15);          // 10
  t5 += M(t3, 2485, 13); t3 -= M(t5, 18205, 15); t5 += M(t3, 2485, 13);         // 11
  y[0] = t0; y[1] = t1; y[2] = t2; y[3] = t3; y[4] = t4; y[5] = t5; y[6] = t6; y[7] = t7;
}

TEST(CpuFdct, MatchesSpecTranscription) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::int32_t> v(-40000, 40000);
  for (int n = 0; n < 100000; ++n) {
    std::int32_t x[8], got[8], want[8];
    for (auto& e : x) e = v(rng);
    vqm::cpu::detail::fdct8(x, got);
    spec_fdct8(x, want);
    for (int k = 0; k < 8; ++k) ASSERT_EQ(got[k], want[k]) << "input #" << n << " coefficient " << k;
  }
}

TEST(CpuFdct, LanesMatchScalar) {
  std::mt19937 rng(12);
  std::uniform_int_distribution<std::int32_t> v(0, 4095);
  for (int n = 0; n < 2000; ++n) {
    std::int32_t block[8][64];  // 8 blocks
    vqm::cpu::simd::i8 lanes[64], out[64];
    for (int k = 0; k < 64; ++k)
      for (int l = 0; l < 8; ++l) lanes[k][l] = block[l][k] = v(rng);
    vqm::cpu::detail::fdct8x8(lanes, out);
    for (int l = 0; l < 8; ++l) {
      std::int32_t want[64];
      vqm::cpu::detail::fdct8x8(block[l], want);
      for (int k = 0; k < 64; ++k) ASSERT_EQ(out[k][l], want[k]) << "lane " << l << " coefficient " << k;
    }
  }
}

TEST(CpuFdct, ConstantInputGivesOnlyDc) {
  for (std::int32_t c : {0, 1, 7, 128, 255, 1023, 4095, -300}) {
    std::int32_t x[8], y[8];
    for (auto& e : x) e = c;
    vqm::cpu::detail::fdct8(x, y);
    EXPECT_NEAR(y[0], 2.0 * std::sqrt(2.0) * c, 2.0) << c;
    for (int k = 1; k < 8; ++k) EXPECT_EQ(y[k], 0) << c << " coefficient " << k;
    std::int32_t b[64], d[64];
    for (auto& e : b) e = c;
    vqm::cpu::detail::fdct8x8(b, d);
    EXPECT_NEAR(d[0], 8.0 * c, 4.0) << c;  // DC ≈ 8 × block mean
    for (int k = 1; k < 64; ++k) EXPECT_EQ(d[k], 0) << c << " coefficient " << k;
  }
}

TEST(CpuFdct, IsLinearEnoughForAnImpulse) {
  // A single impulse spreads over every frequency with DC ≈ 2√2/8·v: a sanity check of the ordering.
  std::int32_t x[8] = {4000, 0, 0, 0, 0, 0, 0, 0}, y[8];
  vqm::cpu::detail::fdct8(x, y);
  EXPECT_NEAR(y[0], 4000 * 2.0 * std::sqrt(2.0) / 8.0, 2.0);
  for (int k = 1; k < 8; ++k) EXPECT_NE(y[k], 0) << k;
}

}  // namespace
