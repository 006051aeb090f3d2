// Semi-planar and MSB-aligned pictures on the Cpu backend: every registry metric gives exactly the values
// of the planar equivalent (same samples, planar and LSB-aligned), for every named semi-planar format,
// odd sizes, compat::libvmaf's floor chroma, frames in flight on a pool; the scratch is reused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/semi_planar.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

const char* const semi_planar_formats[] = {"nv12", "nv21", "nv16", "nv24", "nv42", "nv20", "p010", "p012",
                                           "p016", "p210", "p212", "p216", "p410", "p412", "p416"};

void check_format(Cpu& cpu, const std::string& name, std::uint32_t w, std::uint32_t h, compat c, std::size_t depth) {
  const picture_format f = make_format(*find_pixel_format(name), w, h);
  const picture_format planar = planar_equivalent(f);
  const auto features = supported<Cpu>(all_features, planar, c);
  const stream s = planar_stream(planar, 4);
  const stream packed = repacked(s, f);
  const auto want = score_stream(cpu, features, planar, s.ref, s.dis, c, depth);
  const auto got = score_stream(cpu, features, f, packed.ref, packed.dis, c, depth);
  expect_same(got, want, name + " " + std::to_string(w) + "x" + std::to_string(h));
  ASSERT_FALSE(want.values.empty());
}

TEST(semi_planar_cpu, every_metric_equals_the_planar_equivalent) {
  Cpu cpu;
  for (const char* name : semi_planar_formats) check_format(cpu, name, 181, 177, compat::none, 1);
}

TEST(semi_planar_cpu, odd_and_small_sizes_and_libvmaf_floor_chroma) {
  Cpu cpu;
  for (const char* name : {"nv12", "nv21", "p010", "nv16", "p216"})
    for (auto [w, h] : {std::pair{35u, 37u}, std::pair{64u, 33u}}) {
      check_format(cpu, name, w, h, compat::none, 1);
      check_format(cpu, name, w, h, compat::libvmaf, 1);
    }
}

TEST(semi_planar_cpu, frames_in_flight_on_a_pool_reuse_their_scratch) {
  Cpu cpu(3);
  check_format(cpu, "p010", 181, 177, compat::none, 3);
  const std::size_t made = cpu.scratch_buffers();
  EXPECT_LE(made, 5u);  // depth + the frame being recorded + the one being returned
  check_format(cpu, "nv12", 181, 177, compat::none, 3);
  EXPECT_EQ(cpu.scratch_buffers(), made);  // warmed up: nothing new for the next stream
}

TEST(semi_planar_cpu, a_planar_reference_with_a_semi_planar_distorted) {
  Cpu cpu;
  const picture_format f = make_format(*find_pixel_format("p010"), 77, 45);
  const picture_format planar = planar_equivalent(f);
  const auto features = supported<Cpu>(all_features, planar, compat::none);
  const stream s = planar_stream(planar, 3);
  const stream packed = repacked(s, f);
  expect_same(score_stream(cpu, features, planar, s.ref, packed.dis, compat::none, 1),
              score_stream(cpu, features, planar, s.ref, s.dis, compat::none, 1), "planar ref, p010 dis");
}

TEST(semi_planar_cpu, views_describe_the_interleaved_plane) {
  const picture p(make_format(*find_pixel_format("nv12"), 5, 3));
  const picture_view v = p.view();
  EXPECT_EQ(v.planes[1].width, 3u);  // chroma positions; the row holds 6 samples
  EXPECT_EQ(v.planes[1].height, 2u);
  EXPECT_EQ(v.planes[1].stride, 6);
  EXPECT_EQ(v.planes[2].data, nullptr);
  EXPECT_EQ(p.bytes().size(), p.format().frame_bytes());
  EXPECT_EQ(p.format().frame_bytes(), planar_equivalent(p.format()).frame_bytes());
  EXPECT_EQ(describe(p.format()), "5x3 4:2:0 8-bit nv12");
  EXPECT_EQ(describe(make_format(*find_pixel_format("p010le"), 5, 3)), "5x3 4:2:0 10-bit p010");
  EXPECT_EQ(describe(planar_equivalent(p.format())), "5x3 4:2:0 8-bit");
}

TEST(semi_planar_cpu, inconsistent_storage_is_refused) {
  picture_format gray{8, 8, chroma_format::yuv400, 8, chroma_layout::uv};
  EXPECT_THROW(picture{gray}, error);
  picture_format shifted{8, 8, chroma_format::yuv420, 8, chroma_layout::uv, 6};
  EXPECT_THROW(picture{shifted}, error);
  const picture a(make_format(*find_pixel_format("nv12"), 8, 8)), b(make_format(*find_pixel_format("nv12"), 8, 6));
  Cpu cpu;
  EXPECT_THROW((void)cpu.begin_frame(a, b), error);
}

TEST(semi_planar_cpu, out_of_range_samples_are_found_in_the_interleaved_plane) {
  picture p(make_format(*find_pixel_format("nv20"), 4, 2));  // 10-bit, LSB-aligned: 1024 does not fit
  put(p, 1, 3, 1, 1024);  // the second pair's Cr
  const auto bad = find_sample_out_of_range(p.view());
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->plane, 2);
  EXPECT_EQ(bad->x, 1u);
  EXPECT_EQ(bad->y, 1u);
  EXPECT_EQ(bad->value, 1024u);
  picture q(make_format(*find_pixel_format("p010"), 4, 2));  // every 16-bit word fits once shifted
  put(q, 1, 3, 0, 0xFFFF);  // 4:2:0, 2 rows: one chroma row
  EXPECT_FALSE(find_sample_out_of_range(q.view()).has_value());
}

}  // namespace
}  // namespace vqm::test
