// Contract violations (SPEC §7, §11) are vqm::error(invalid_argument) before any pixel changes.
#include <gtest/gtest.h>

#include "lpf/lpf_test_util.hpp"
#include "vqm/lpf/contract.hpp"
#include "vqm/lpf/cpu.hpp"

using namespace vqm::lpf;

namespace {
template <class Pixel>
void expect_violation(kind k, plane<Pixel> p, std::vector<edge> edges, const std::string& needle) {
  std::vector<Pixel> before(p.data, p.data + p.size);
  cpu_backend cpu({.threads = 2});
  try {
    cpu.filter(k, p, edges);
    ADD_FAILURE() << "accepted: " << needle;
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::invalid_argument);
    const std::string m = e.what();
    EXPECT_NE(m.find(needle), std::string::npos) << m;
    if (valid_wd(k.wd)) {
      EXPECT_NE(m.find(std::string(name(k))), std::string::npos) << m;
    }
  }
  EXPECT_TRUE(std::equal(before.begin(), before.end(), p.data)) << "pixels changed before the check";
}
}  // namespace

TEST(LpfContract, Violations) {
  std::vector<std::uint8_t> buf(64 * 64, 128);
  const plane<std::uint8_t> p{buf.data(), buf.size(), 64, 8};
  const std::uint32_t mid = 32 * 64 + 32;
  expect_violation(lpf_h_4_8_kind, p, {{mid, 255, 10, 1}}, "E = 255");
  expect_violation(lpf_h_4_8_kind, p, {{mid, 20, 10, 1}, {mid, 255, 10, 1}}, "edge 1");
  expect_violation(lpf_h_4_8_kind, p, {{3, 20, 10, 1}}, "offset 3 is below 4");
  expect_violation(lpf_h_16_8_kind, p, {{7, 20, 10, 1}}, "below 8");
  expect_violation(lpf_v_4_8_kind, p, {{64 * 3, 20, 10, 1}}, "below 256");
  expect_violation(lpf_h_4_8_kind, p, {{64 * 60, 20, 10, 1}}, "past the end");
  expect_violation(lpf_v_16_8_kind, p, {{64 * 60, 20, 10, 1}}, "past the end");
  expect_violation(lpf_h_4_8_kind, plane<std::uint8_t>{buf.data(), buf.size(), 5, 8}, {{40, 20, 10, 1}}, "stride 5");
  expect_violation(lpf_h_16_8_kind, plane<std::uint8_t>{buf.data(), buf.size(), 14, 8}, {{40, 20, 10, 1}}, "stride 14");
  expect_violation(lpf_v_4_8_kind, plane<std::uint8_t>{buf.data(), buf.size(), 7, 8}, {{40, 20, 10, 1}}, "stride 7");
  expect_violation(lpf_h_4_8_kind, plane<std::uint8_t>{buf.data(), buf.size(), 64, 10}, {}, "bit depth 10");
  expect_violation(kind{direction::h, 6}, p, {{mid, 20, 10, 1}}, "wd = 6");
  expect_violation(lpf_h_4_8_kind, plane<std::uint8_t>{nullptr, 0, 64, 8}, {{mid, 20, 10, 1}}, "null");
  std::vector<std::uint16_t> b16(64 * 64, 100);
  expect_violation(lpf_h_4_8_kind, plane<std::uint16_t>{b16.data(), b16.size(), 64, 9}, {{mid, 20, 10, 1}}, "bit depth 9");
}

TEST(LpfContract, OverlappingEdges) {
  std::vector<std::uint8_t> buf(64 * 64, 128);
  const plane<std::uint8_t> p{buf.data(), buf.size(), 64, 8};
  const std::uint32_t mid = 32 * 64 + 32;
  // Same offset twice, 5 px apart (wd4 needs 6), in any order, and lines of another row block.
  expect_violation(lpf_h_4_8_kind, p, {{mid, 20, 10, 1}, {mid, 20, 10, 1}}, "overlap");
  expect_violation(lpf_h_4_8_kind, p, {{mid + 5, 20, 10, 1}, {mid, 20, 10, 1}}, "edges 0");
  expect_violation(lpf_h_4_8_kind, p, {{mid, 20, 10, 1}, {mid + 7 * 64 - 5, 20, 10, 1}}, "overlap");
  expect_violation(lpf_h_16_8_kind, p, {{mid, 20, 10, 1}, {mid + 8, 20, 10, 1}}, "overlap");
  expect_violation(lpf_v_8_8_kind, p, {{mid, 20, 10, 1}, {mid + 6 * 64 + 7, 20, 10, 1}}, "overlap");
  // Legal neighbours pass: 6 px (wd4), 8 rows below (h), 8 columns right (v), 15 rows (v wd16).
  cpu_backend cpu;
  EXPECT_NO_THROW(cpu.filter(lpf_h_4_8_kind, p, std::vector<edge>{{mid, 20, 10, 1}, {mid + 6, 20, 10, 1}}));
  EXPECT_NO_THROW(cpu.filter(lpf_h_16_8_kind, p, std::vector<edge>{{mid, 20, 10, 1}, {mid + 8 * 64, 20, 10, 1}}));
  EXPECT_NO_THROW(cpu.filter(lpf_v_4_8_kind, p, std::vector<edge>{{mid, 20, 10, 1}, {mid + 8, 20, 10, 1}}));
  EXPECT_NO_THROW(cpu.filter(lpf_v_16_8_kind, p, std::vector<edge>{{mid - 16 * 64, 20, 10, 1}, {mid - 64, 20, 10, 1}}));
  // check_level::bounds skips the pairwise test (the caller vouches for independence).
  cpu_backend trusting({.checks = check_level::bounds});
  EXPECT_NO_THROW(trusting.filter(lpf_h_4_8_kind, p, std::vector<edge>{{mid, 20, 10, 1}, {mid, 20, 10, 1}}));
}

TEST(LpfContract, RandomBatchesAreIndependent) {
  for (kind k : all_kinds) {
    auto b = make_random_batch<std::uint8_t>(k, 8, 3000, 1);
    EXPECT_NO_THROW(check_contract(k, b.view(), b.edges));
    std::vector<edge> shuffled(b.edges.rbegin(), b.edges.rend());  // unsorted path
    EXPECT_NO_THROW(check_contract(k, b.view(), shuffled));
  }
}
