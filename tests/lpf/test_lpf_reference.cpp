// Scalar reference: golden traces, E/I/H derivation, trace-reader errors, §9.2 coverage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "lpf/lpf_test_util.hpp"
#include "vqm/lpf/trace.hpp"

using namespace vqm::lpf;
using vqm::lpf::test::trace_path;

TEST(LpfReference, ThresholdsFromLevel) {
  auto eq = [](thresholds t, int E, int I, int H) { return t.E == E && t.I == I && t.H == H; };
  EXPECT_TRUE(eq(thresholds_from_level(1, 0), 7, 1, 0));
  EXPECT_TRUE(eq(thresholds_from_level(1, 5), 7, 1, 0));
  EXPECT_TRUE(eq(thresholds_from_level(16, 0), 52, 16, 1));
  EXPECT_TRUE(eq(thresholds_from_level(16, 5), 40, 4, 1));
  EXPECT_TRUE(eq(thresholds_from_level(32, 0), 100, 32, 2));
  EXPECT_TRUE(eq(thresholds_from_level(32, 5), 72, 4, 2));
  EXPECT_TRUE(eq(thresholds_from_level(63, 0), 193, 63, 3));
  EXPECT_TRUE(eq(thresholds_from_level(63, 5), 134, 4, 3));
}

TEST(LpfReference, GoldenTracesReplayBitExact) {
  for (const char* f : test::trace_files) {
    const auto recs = read_trace(trace_path(f));
    ASSERT_EQ(recs.size(), 6u * 2048u) << f;
    for (kind k : all_kinds) {
      trace_batch b = layout_trace(recs, k);
      ASSERT_EQ(b.edges.size(), 2048u);
      reference::filter(k, plane<std::uint8_t>{b.pixels.data(), b.pixels.size(), b.stride, 8}, b.edges);
      EXPECT_EQ(test::count_mismatches(b.pixels, b.expected), 0u) << f << " " << name(k);
    }
  }
}

namespace {
std::vector<unsigned char> slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
void expect_bad(const std::vector<unsigned char>& bytes, const std::string& needle) {
  try {
    parse_trace(bytes, "x.bin");
    ADD_FAILURE() << "no error for " << needle;
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::bad_input);
    const std::string m = e.what();
    EXPECT_NE(m.find("x.bin"), std::string::npos) << m;
    EXPECT_NE(m.find(needle), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}
}  // namespace

TEST(LpfTrace, BadFilesGiveOneLineErrors) {
  const auto good = slurp(trace_path(test::trace_files[0]));
  ASSERT_GT(good.size(), 16u + 264u);
  EXPECT_NO_THROW(parse_trace(good, "x.bin"));
  expect_bad({}, "truncated header");
  auto magic = good;
  magic[0] = 'X';
  expect_bad(magic, "wrong magic");
  auto rsize = good;
  rsize[12] = 200;
  expect_bad(rsize, "record size");
  auto cut = good;
  cut.resize(cut.size() - 100);
  expect_bad(cut, "truncated");
  auto extra = good;
  extra.push_back(0);
  expect_bad(extra, "trailing");
  auto wd = good;
  wd[16 + 1] = 5;
  expect_bad(wd, "wd 5");
  auto dir = good;
  dir[16] = 2;
  expect_bad(dir, "dir 2");
  try {
    read_trace("/nonexistent/dir/none.bin");
    ADD_FAILURE();
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::io);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/none.bin"), std::string::npos);
  }
}

// SPEC §9.2 item 4: every branch of every (dir, wd, bd) is exercised by the random batches.
TEST(LpfRandom, CoverageOfEveryBranch) {
  for (kind k : all_kinds)
    for (int bd : {8, 10, 12}) {
      SCOPED_TRACE(std::string(name(k)) + " bd " + std::to_string(bd));
      auto b = make_random_batch<std::uint16_t>(k, bd, test::random_edges_per_batch, 1234);
      const int pmax = (1 << bd) - 1;
      EXPECT_TRUE(std::count(b.pixels.begin(), b.pixels.end(), 0) > 0);
      EXPECT_TRUE(std::count(b.pixels.begin(), b.pixels.end(), pmax) > 0);
      auto has = [&](auto pred) { return std::any_of(b.edges.begin(), b.edges.end(), pred); };
      EXPECT_TRUE(has([](const edge& e) { return e.E == 0; }));
      EXPECT_TRUE(has([](const edge& e) { return e.I == 0; }));
      EXPECT_TRUE(has([](const edge& e) { return e.H == 0; }));
      EXPECT_TRUE(has([](const edge& e) { return e.E == max_E; }));
      counters c;
      test::reference_result(b, &c);
      ASSERT_GE(c.lines, 100000u);
      const auto pct = [&](std::uint64_t x) { return 100.0 * double(x) / double(c.lines); };
      EXPECT_EQ(c.skip + c.f16 + c.f8 + c.f4_2px + c.f4_4px, c.lines);
      EXPECT_GE(pct(c.skip), 1.0);
      EXPECT_GE(pct(c.f4_2px), 1.0);
      EXPECT_GE(pct(c.f4_4px), 1.0);
      if (k.wd >= 8) EXPECT_GE(pct(c.f8), 1.0);
      else EXPECT_EQ(c.f8, 0u);
      if (k.wd == 16) EXPECT_GE(pct(c.f16), 1.0);
      else EXPECT_EQ(c.f16, 0u);
      EXPECT_GT(c.clamp_a, 0u);
      EXPECT_GT(c.clamp_f, 0u);
      EXPECT_GT(c.clamp_f4, 0u);
      EXPECT_GT(c.clamp_px, 0u);
    }
}

// The generator is a pure function of its seed (no std distributions): same seed, same batch.
TEST(LpfRandom, Deterministic) {
  auto a = make_random_batch<std::uint8_t>(lpf_h_8_8_kind, 8, 100, 7);
  auto b = make_random_batch<std::uint8_t>(lpf_h_8_8_kind, 8, 100, 7);
  auto c = make_random_batch<std::uint8_t>(lpf_h_8_8_kind, 8, 100, 8);
  EXPECT_EQ(a.pixels, b.pixels);
  EXPECT_NE(a.pixels, c.pixels);
  splitmix64 g(0);
  EXPECT_EQ(g.next(), 0xE220A8397B1DCDAFull);  // SplitMix64's published first output for seed 0
}
