// Semi-planar and MSB-aligned pictures on the Vulkan backend (uploaded as they are, made planar by
// shaders/unpack.comp in the frame's submission): every registry metric gives exactly the values of the
// planar equivalent on the same backend, for every named semi-planar format, odd sizes, compat::libvmaf's
// floor chroma, luma-only frames, mixed pairs and format changes between streams; under the validation layer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/semi_planar.hpp"
#include "vk_test_util.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

void check_format(Vulkan& gpu, const std::string& name, std::uint32_t w, std::uint32_t h, compat c,
                  const std::vector<std::string>& names = all_features) {
  const picture_format f = make_format(*find_pixel_format(name), w, h);
  const picture_format planar = planar_equivalent(f);
  const auto features = supported<Vulkan>(names, planar, c);
  const stream s = planar_stream(planar, 4);
  const stream packed = repacked(s, f);
  const auto want = score_stream(gpu, features, planar, s.ref, s.dis, c, gpu.frames_in_flight());
  const auto got = score_stream(gpu, features, f, packed.ref, packed.dis, c, gpu.frames_in_flight());
  expect_same(got, want, name + " " + std::to_string(w) + "x" + std::to_string(h));
  ASSERT_FALSE(want.values.empty());
}

TEST(semi_planar_vulkan, every_metric_equals_the_planar_equivalent) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"nv12", "nv21", "nv16", "nv24", "nv42", "p010", "p012", "p016", "p210", "p416"})
    check_format(gpu, name, 181, 177, compat::none);
}

TEST(semi_planar_vulkan, odd_and_small_sizes_and_libvmaf_floor_chroma) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"nv12", "nv21", "p010", "nv16", "p216"})
    for (auto [w, h] : {std::pair{35u, 37u}, std::pair{67u, 33u}}) {
      check_format(gpu, name, w, h, compat::none);
      check_format(gpu, name, w, h, compat::libvmaf);
    }
}

TEST(semi_planar_vulkan, luma_only_frames_unpack_the_luma_alone) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"nv12", "p010", "p012"}) check_format(gpu, name, 99, 61, compat::none, luma_features);
}

TEST(semi_planar_vulkan, a_planar_reference_with_a_semi_planar_distorted) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan gpu(ctx);
  for (const char* name : {"nv21", "p010"}) {
    const picture_format f = make_format(*find_pixel_format(name), 77, 45);
    const picture_format planar = planar_equivalent(f);
    const auto features = supported<Vulkan>(all_features, planar, compat::none);
    const stream s = planar_stream(planar, 3);
    const stream packed = repacked(s, f);
    expect_same(score_stream(gpu, features, planar, s.ref, packed.dis, compat::none, 2),
                score_stream(gpu, features, planar, s.ref, s.dis, compat::none, 2), std::string("planar ref, dis ") + name);
    expect_same(score_stream(gpu, features, planar, packed.ref, s.dis, compat::none, 2),
                score_stream(gpu, features, planar, s.ref, s.dis, compat::none, 2), std::string("ref ") + name + ", planar dis");
  }
}

// The Khronos validation layer watches the unpack dispatch (its descriptor sets, barriers, both upload
// paths) with every metric: any validation error fails the test.
TEST(semi_planar_vulkan, runs_without_validation_errors) {
  VQM_REQUIRE_VULKAN(probe);
  auto ctx = std::make_shared<vulkan::context>(vulkan::context_options{-1, true, false});
  {
    Vulkan gpu(ctx);
    check_format(gpu, "nv21", 67, 33, compat::libvmaf);
    check_format(gpu, "p010", 181, 177, compat::none);
    check_format(gpu, "p012", 40, 36, compat::none, luma_features);
  }
  EXPECT_EQ(ctx->validation_errors(), 0u) << [&] {
    std::string all;
    for (const auto& m : ctx->validation_messages()) all += m + "\n";
    return all;
  }();
}

}  // namespace
}  // namespace vqm::test
