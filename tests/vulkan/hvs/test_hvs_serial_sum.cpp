// The binade-skipping serial sum (include/vqm/detail/serial_float_sum.hpp) against the naive binary32 loop,
// bit for bit: real PSNR-HVS term streams, adversarial streams and large random ones. CPU only.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "vqm/detail/serial_float_sum.hpp"
#include "vqm/io/y4m.hpp"
#include "hvs_test_util.hpp"

namespace {

using vqm::detail::binade_q;
using vqm::detail::hierarchical_sum;
using vqm::detail::walk_stats;

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

// Same float, NaNs of any payload counted equal.
::testing::AssertionResult same_float(float a, float b) {
  if (bits(a) == bits(b) || (std::isnan(a) && std::isnan(b))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hexfloat << a << " != " << b;
}

struct shape {
  std::size_t leaf, fan;
  int levels;
};
// The GPU's shape (64-term blocks, fan 16) plus odd ones that put run borders everywhere.
const std::vector<shape> shapes = {{64, 16, 1}, {64, 16, 3}, {64, 16, 5}, {1, 2, 6}, {7, 3, 4}, {256, 1, 1}, {1000, 4, 3}, {5, 5, 5}};

void expect_exact(const std::vector<float>& terms, const char* what) {
  const float naive = vqm::detail::naive_serial_sum(terms);
  for (const auto& sh : shapes)
    EXPECT_TRUE(same_float(hierarchical_sum(sh.leaf, sh.fan, sh.levels)(terms), naive))
        << what << ": leaf " << sh.leaf << " fan " << sh.fan << " levels " << sh.levels << ", " << terms.size() << " terms";
}

// The core lemma, one term at a time: the jump equals hardware fl(s + t) whenever it is taken.
TEST(HvsSerialSum, SingleTermJumpMatchesHardwareAdd) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<std::uint32_t> any(0, 0x7f7fffffu);
  std::uniform_int_distribution<int> small_shift(0, 30);
  std::size_t taken = 0;
  for (int i = 0; i < 2000000; ++i) {
    float s = std::bit_cast<float>(any(rng));
    // Bias t towards s's magnitude so ties and carries happen often.
    float t = i % 2 ? std::bit_cast<float>(any(rng))
                    : std::ldexp(static_cast<float>(rng() % 64), std::ilogb(s) - 23 - small_shift(rng) + 5);
    if (i % 7 == 0) t = std::ldexp(std::ldexp(1.0f, -1) * static_cast<float>(1 + 2 * (rng() % 8)), std::ilogb(s) - 23);
    vqm::detail::run_table r{};
    r.e_base = static_cast<int>((bits(s) >> 23) & 0xff) - 1;
    r.flags = vqm::detail::term_flags(bits(t));
    for (int c = 0; c < 3; ++c) r.q[c] = vqm::detail::term_binade_q(bits(t), r.e_base + c);
    float js = s;
    if (vqm::detail::try_jump(js, r)) {
      ++taken;
      ASSERT_TRUE(same_float(js, s + t)) << std::hexfloat << "s=" << s << " t=" << t;
    }
  }
  EXPECT_GT(taken, 500000u);  // the lemma was exercised, not skipped
}

// Composition is associative and agrees with the sequential run.
TEST(HvsSerialSum, CompositionEqualsSequentialRun) {
  std::mt19937_64 rng(2);
  for (int rep = 0; rep < 2000; ++rep) {
    const int e = 100 + static_cast<int>(rng() % 40);
    std::vector<float> terms(1 + rng() % 300);
    for (auto& t : terms) t = std::ldexp(static_cast<float>(rng() % 33), e - 150 - static_cast<int>(rng() % 8));
    // Tree composition of single-term tables (the GPU's reduction order) vs the left-to-right loop.
    std::vector<binade_q> level;
    for (const float t : terms) level.push_back(vqm::detail::term_binade_q(bits(t), e));
    while (level.size() > 1) {
      std::vector<binade_q> next;
      for (std::size_t i = 0; i < level.size(); i += 2)
        next.push_back(i + 1 < level.size() ? vqm::detail::compose(level[i], level[i + 1]) : level[i]);
      level = next;
    }
    ASSERT_EQ(level[0], vqm::detail::run_binade_q(terms, e));
  }
}

TEST(HvsSerialSum, AdversarialStreams) {
  const float u1 = std::ldexp(1.0f, -23);  // ulp of 1
  {
    std::vector<float> t = {1.0f};  // ties at half an ulp, s even: stays
    t.insert(t.end(), 5000, u1 / 2);
    expect_exact(t, "half-ulp ties from even");
  }
  {
    std::vector<float> t = {1.0f + u1};  // s odd: the first tie rounds up, then even
    t.insert(t.end(), 5000, u1 / 2);
    expect_exact(t, "half-ulp ties from odd");
  }
  {
    std::vector<float> t = {1.0f};  // 1.5-ulp ties alternate parity
    for (int i = 0; i < 20000; ++i) t.push_back(i % 3 ? 3 * u1 / 2 : u1 / 2);
    expect_exact(t, "mixed ties");
  }
  {
    std::vector<float> t = {2.0f - u1};  // ties that carry out of the binade
    t.insert(t.end(), 3000, u1 / 2);
    t.insert(t.end(), 3000, u1);
    expect_exact(t, "ties at the binade top");
  }
  {
    std::vector<float> t = {1e30f};  // huge first term: everything after vanishes
    for (int i = 0; i < 10000; ++i) t.push_back(static_cast<float>(i));
    expect_exact(t, "huge first term");
  }
  {
    std::vector<float> t;
    for (int i = 0; i < 10000; ++i) t.push_back(static_cast<float>(i % 97) * 0.37f);
    t[5000] = 1e25f;  // huge term in the middle
    expect_exact(t, "huge middle term");
  }
  {
    std::vector<float> t(200000, 0.0f);  // long zero runs, before and between values
    t[150000] = 3.0f;
    t[150001] = 1e-3f;
    t[199999] = 0.25f;
    expect_exact(t, "zero runs");
  }
  expect_exact(std::vector<float>(100000, 0.0f), "all zeros");
  {
    std::vector<float> t;  // every term larger than the sum so far
    float x = 1e-20f;
    for (int i = 0; i < 120; ++i, x *= 2.3f) t.push_back(x);
    expect_exact(t, "terms larger than s");
  }
  {
    std::vector<float> t(100000, 0.3f);  // crossings inside runs, all the way up
    expect_exact(t, "constant terms");
  }
  {
    std::vector<float> t;  // subnormal terms and a subnormal running sum
    for (int i = 0; i < 3000; ++i) t.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(1 + i % 5)));
    t.push_back(1e-38f);
    for (int i = 0; i < 3000; ++i) t.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(1 + i % 700)));
    expect_exact(t, "subnormals");
  }
  {
    std::vector<float> t(1000, 1.0f);  // overflow to inf, then NaN
    t.push_back(3e38f);
    t.push_back(3e38f);
    t.insert(t.end(), 500, 2.0f);
    expect_exact(t, "overflow");
    t.push_back(-std::numeric_limits<float>::infinity());
    t.insert(t.end(), 500, 2.0f);
    expect_exact(t, "nan");
  }
  {
    std::vector<float> t(1000, 0.5f);  // a negative term and -0 force the serial path
    t[10] = -0.0f;
    t[600] = -0.125f;
    expect_exact(t, "negative terms");
  }
}

TEST(HvsSerialSum, RandomStreams) {
  std::mt19937_64 rng(3);
  const std::size_t n = 1000000;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> t(n);
  // Log-uniform magnitudes over 60 binades, 10 % zeros.
  for (auto& x : t) x = rng() % 10 == 0 ? 0.0f : std::ldexp(1.0f + unit(rng), static_cast<int>(rng() % 60) - 40);
  expect_exact(t, "log-uniform");
  for (auto& x : t) x = unit(rng);
  expect_exact(t, "uniform");
  // Few mantissa bits: ties at half an ulp are frequent once s is large.
  for (auto& x : t) x = static_cast<float>(rng() % 16) * 0.25f;
  expect_exact(t, "quantised");
  // Heavy tail: mostly small, sometimes 1e6 times larger.
  for (auto& x : t) x = rng() % 1000 == 0 ? 1e6f * unit(rng) : unit(rng);
  expect_exact(t, "heavy tail");
  // Squares of e = err·csf like PSNR-HVS: integers times a table value.
  for (auto& x : t) {
    const float e = static_cast<float>(rng() % 200) * 0.3265091542f;
    x = e * e;
  }
  expect_exact(t, "hvs-like");
}

// Real streams: every plane of every frame of the fixtures psnr_hvs supports (libvmaf chroma sizes).
TEST(HvsSerialSum, FixtureTermStreams) {
  const auto pairs = vqm::test_hvs::psnr_hvs_pairs();
  ASSERT_GE(pairs.size(), 20u);
  std::size_t planes = 0, terms_total = 0, serial_total = 0;
  for (const auto& p : pairs) {
    vqm::io::y4m_reader ra(std::string(VQM_FIXTURE_DIR) + "/" + p.ref), rb(std::string(VQM_FIXTURE_DIR) + "/" + p.dis);
    vqm::picture a, b;
    while (ra.read(a) && rb.read(b)) {
      const auto va = vqm::with_chroma_rounding(a.view(), vqm::chroma_rounding::floor);
      const auto vb = vqm::with_chroma_rounding(b.view(), vqm::chroma_rounding::floor);
      for (int pl = 0; pl < 3; ++pl) {
        const auto terms = vqm::test_hvs::plane_terms(va.planes[pl], vb.planes[pl], a.format().bit_depth, pl);
        const float naive = vqm::detail::naive_serial_sum(terms);
        // The stream is the Cpu kernel's: its naive sum is psnr_hvs_plane.
        ASSERT_TRUE(same_float(naive, vqm::cpu::psnr_hvs_plane(va.planes[pl], vb.planes[pl], a.format().bit_depth, pl)))
            << p.name << " plane " << pl;
        expect_exact(terms, p.name.c_str());
        walk_stats st;
        EXPECT_TRUE(same_float(hierarchical_sum(64, 16, 4)(terms, &st), naive));
        ++planes;
        terms_total += terms.size();
        serial_total += st.serial_terms;
      }
    }
  }
  EXPECT_GT(planes, 200u);
  // Work check, not timing: the walk adds only a small part of the terms one by one.
  EXPECT_LT(serial_total * 10, terms_total) << serial_total << " of " << terms_total << " terms serial";
  std::printf("%zu planes, %zu terms, %zu added serially by the walk\n", planes, terms_total, serial_total);
}

}  // namespace
