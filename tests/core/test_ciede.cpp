// ciede: what --compat libvmaf refuses (libvmaf reads chroma past its picture), and the plain default
// mode (nearest-neighbour chroma) against libvmaf's reading where the two agree and where they differ.
// The values themselves are checked against libvmaf by backend_reference and the CLI sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

picture_format fmt(std::uint32_t w, std::uint32_t h, chroma_format c, std::uint32_t bpc = 8) {
  return {w, h, c, bpc};
}

TEST(ciede, libvmaf_compat_refuses_reads_past_the_picture) {
  const auto refused = [](const picture_format& f) { return !ciede_algorithm::unsupported(f, {}, compat::libvmaf).empty(); };
  EXPECT_TRUE(refused(fmt(177, 99, chroma_format::yuv420)));
  EXPECT_TRUE(refused(fmt(645, 643, chroma_format::yuv420, 10)));
  EXPECT_TRUE(refused(fmt(1, 8, chroma_format::yuv420)));
  EXPECT_TRUE(refused(fmt(16, 9, chroma_format::yuv400)));  // gray is fed as 4:2:0
  EXPECT_FALSE(refused(fmt(177, 98, chroma_format::yuv420)));
  EXPECT_FALSE(refused(fmt(321, 199, chroma_format::yuv422, 10)));
  EXPECT_FALSE(refused(fmt(177, 99, chroma_format::yuv444)));
  EXPECT_FALSE(refused(fmt(8, 8, chroma_format::yuv420)));
  EXPECT_TRUE(ciede_algorithm::unsupported(fmt(177, 99, chroma_format::yuv420)).empty());  // default mode
  EXPECT_FALSE(ciede_algorithm::unsupported(fmt(16, 16, chroma_format::yuv420, 9)).empty());
  EXPECT_THROW((void)make_metric<Cpu>("ciede", {}, fmt(177, 99, chroma_format::yuv420), compat::libvmaf), error);
}

// A picture with a smooth, coloured pattern (deterministic).
picture pattern(const picture_format& f, unsigned seed) {
  picture p(f);
  for (int k = 0; k < f.planes(); ++k)
    for (std::uint32_t y = 0; y < f.plane_height(k); ++y)
      for (std::uint32_t x = 0; x < f.plane_width(k); ++x) {
        const unsigned v = (x * (3 + k) + y * (5 + 2 * k) + seed * (x ^ y)) % 200 + 20;
        if (f.bit_depth > 8) p.row<std::uint16_t>(k, y)[x] = static_cast<std::uint16_t>(v << (f.bit_depth - 8));
        else p.row<std::uint8_t>(k, y)[x] = static_cast<std::uint8_t>(v);
      }
  return p;
}

double score(const picture& r, const picture& d, compat c) {
  Cpu cpu;
  std::vector<any_metric<Cpu>> m;
  m.push_back(make_metric<Cpu>("ciede", {}, r.format(), c));
  scorer<Cpu> sc(cpu, std::move(m), c, 1);
  auto out = sc.push(r, d);
  if (!out) out = sc.pop();
  EXPECT_TRUE(out);
  return out ? out->values[0] : std::nan("");
}

TEST(ciede, default_mode_is_libvmaf_where_libvmaf_upsamples_plainly) {
  for (auto c : {chroma_format::yuv420, chroma_format::yuv444})
    for (std::uint32_t bpc : {8u, 10u}) {
      const auto f = fmt(40, 24, c, bpc);
      const auto r = pattern(f, 1), d = pattern(f, 2);
      EXPECT_EQ(score(r, d, compat::none), score(r, d, compat::libvmaf)) << to_string(c) << " " << bpc;
      EXPECT_EQ(score(r, r, compat::none), INFINITY);
    }
  // 4:2:2: libvmaf reads chroma row ⌊i/2⌋, column j; the default mode reads row i, column ⌊j/2⌋.
  const auto f = fmt(40, 24, chroma_format::yuv422);
  const auto r = pattern(f, 1), d = pattern(f, 2);
  EXPECT_NE(score(r, d, compat::none), score(r, d, compat::libvmaf));
  // Odd sizes in the default mode: every pixel, the last chroma row/column of the ceil-sized planes.
  const auto odd = fmt(17, 9, chroma_format::yuv420);
  EXPECT_TRUE(std::isfinite(score(pattern(odd, 1), pattern(odd, 2), compat::none)));
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
