// Integer VIF's tables (SPEC-vmaf Part I §9): the log2 table (check values, sum, SHA-256) and the filters.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "vqm/cpu/reference/vif.hpp"
#include "vqm/tables/vif.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

// A compact SHA-256 (FIPS 180-4) for the table check.
std::string sha256(const std::vector<std::uint8_t>& msg) {
  static constexpr std::array<std::uint32_t, 64> k{
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
      0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
      0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
      0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
      0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
      0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::array<std::uint32_t, 8> hs{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto m = msg;
  const std::uint64_t bitlen = static_cast<std::uint64_t>(msg.size()) * 8;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<std::uint8_t>(bitlen >> (8 * i)));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t off = 0; off < m.size(); off += 64) {
    std::array<std::uint32_t, 64> wv{};
    for (int i = 0; i < 16; ++i)
      wv[i] = std::uint32_t{m[off + 4 * i]} << 24 | std::uint32_t{m[off + 4 * i + 1]} << 16 |
              std::uint32_t{m[off + 4 * i + 2]} << 8 | std::uint32_t{m[off + 4 * i + 3]};
    for (int i = 16; i < 64; ++i) {
      const auto s0 = rotr(wv[i - 15], 7) ^ rotr(wv[i - 15], 18) ^ (wv[i - 15] >> 3);
      const auto s1 = rotr(wv[i - 2], 17) ^ rotr(wv[i - 2], 19) ^ (wv[i - 2] >> 10);
      wv[i] = wv[i - 16] + s0 + wv[i - 7] + s1;
    }
    auto v = hs;
    for (int i = 0; i < 64; ++i) {
      const auto S1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      const auto ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      const auto t1 = v[7] + S1 + ch + k[i] + wv[i];
      const auto S0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      const auto maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      const auto t2 = S0 + maj;
      v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
    }
    for (int i = 0; i < 8; ++i) hs[i] += v[i];
  }
  std::string out;
  char buf[9];
  for (auto h : hs) {
    std::snprintf(buf, sizeof buf, "%08x", h);
    out += buf;
  }
  return out;
}

TEST(VifTables, Sha256SelfCheck) {
  EXPECT_EQ(sha256({'a', 'b', 'c'}), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(VifTables, LogTableCheckValues) {
  const auto& t = vqm::tables::vif_log2_table();
  EXPECT_EQ(t[32767], 30720);
  EXPECT_EQ(t[32768], 30720);
  EXPECT_EQ(t[33108], 30751);
  EXPECT_EQ(t[38620], 31206);
  EXPECT_EQ(t[40000], 31309);
  EXPECT_EQ(t[46341], 31744);
  EXPECT_EQ(t[49152], 31918);
  EXPECT_EQ(t[57344], 32373);
  EXPECT_EQ(t[65535], 32768);
  std::uint64_t sum = 0;
  for (std::size_t i = 32768; i < 65536; ++i) sum += t[i];
  EXPECT_EQ(sum, 1044032097u);
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 32767; i < 65536; ++i) {
    bytes.push_back(static_cast<std::uint8_t>(t[i] & 0xff));
    bytes.push_back(static_cast<std::uint8_t>(t[i] >> 8));
  }
  EXPECT_EQ(sha256(bytes), "85cacfb90b4ffb298e9e758af211b7f3d534b44c95a26e54d6c86f7dc378b305");
}

TEST(VifTables, LogExamplesAndFilters) {
  using vqm::cpu::reference::vif_detail::log2_q11;
  EXPECT_EQ(log2_q11(131072), 34816);
  EXPECT_EQ(log2_q11(262144), 36864);
  EXPECT_EQ(log2_q11(131073), 34816);
  EXPECT_EQ(log2_q11(1060921), 40995);
  EXPECT_EQ(log2_q11(1000000000), 61230);
  for (int s = 0; s < 4; ++s) {
    const auto f = vqm::tables::vif_filter_of(s);
    std::uint32_t sum = 0;
    for (int k = 0; k <= 2 * f.half; ++k) {
      sum += f.taps[k];
      EXPECT_EQ(f.taps[k], f.taps[2 * f.half - k]) << "scale " << s;
    }
    EXPECT_EQ(sum, 65536u) << "scale " << s;
  }
}

}  // namespace VQM_TEST_UNIT
