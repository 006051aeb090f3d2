// multi_session on the Vulkan backend: three distorted streams in one pass against one reference, all on
// one backend (its slots shared) or spread over several, equal three separate sessions, every value (VMAF +
// psnr + float_ssim);
// the reference goes host → device once per frame (the backend's count of host bytes uploaded), also
// semi-planar / MSB-aligned ones; rows streamed while pushing (on_frame) equal the tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "common/multi_session_check.hpp"
#include "common/semi_planar.hpp"
#include "common/streaming_check.hpp"
#include "vk_test_util.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm;

TEST(VulkanMultiSession, EqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  const auto n = test::check_multi_equals_separate(v, test::multi_config(v.frames_in_flight(), 1, compat::none));
  std::printf("%zu values equal to separate sessions\n", n);
  EXPECT_GT(n, 0u);
  EXPECT_GT(test::check_multi_equals_separate(v, test::multi_config(2, 2, compat::libvmaf)), 0u);
}

// Several backends (devices): the distorted spread over them in groups (0 and 1 on the first, sharing its
// reference ring; 2 alone on the second, the host reference), every value equal to separate sessions; and
// one distorted per backend. A second context on the same device stands for a second device (the CLI's
// test runs two lavapipe devices).
TEST(VulkanMultiSession, SpreadOverTwoBackendsEqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan a(ctx), b(vulkan::context_options{});
  Vulkan* const two[] = {&a, &b};
  EXPECT_GT(test::check_multi_equals_separate(std::span<Vulkan* const>(two), test::multi_config(2, 1, compat::none)), 0u);
  Vulkan c(vulkan::context_options{});
  Vulkan* const three[] = {&a, &b, &c};
  EXPECT_GT(test::check_multi_equals_separate(std::span<Vulkan* const>(three), test::multi_config(2, 1, compat::none)), 0u);
  Vulkan* const none[] = {&a, nullptr};
  EXPECT_THROW(multi_session<Vulkan>(std::span<Vulkan* const>(none), picture_format{}, {}, 2), error);
}

// A device without timeline semaphores: the shared upload is ordered by submission order instead.
TEST(VulkanMultiSession, WithoutTimelineSemaphoresEqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto lent = test::without_timeline_semaphores(*ctx);
  ASSERT_FALSE(lent->features().timeline_semaphore);
  Vulkan v(lent);
  EXPECT_GT(test::check_multi_equals_separate(v, test::multi_config(v.frames_in_flight(), 1, compat::none)), 0u);
}

TEST(VulkanMultiSession, RefusesNoStreamAndAWrongPictureCount) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  test::check_multi_session_errors(v);
}

// Motion (reference-only) is computed once when other features remain, else by every session.
TEST(VulkanMultiSession, SharesMotionOnlyBesideOtherFeatures) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  test::check_sharing_edges(v);
}

// Host bytes uploaded per frame: a separate run uploads its reference and its distorted (the planes its
// metrics read); one pass with three distorted uploads the reference once (every plane) and each
// distorted. Three uploads of the reference would fail both counts.
TEST(VulkanMultiSession, UploadsTheReferenceOncePerFrame) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = test::read_all(test::fixture("rocket_177x99_420p8_ref.y4m"));
  const auto dis = test::read_all(test::fixture("rocket_177x99_420p8_x264crf35.y4m"));
  const auto& f = refs.front().format();
  const std::uint64_t frames = refs.size(), luma = std::uint64_t{f.width} * f.height, all = f.frame_bytes();
  for (const auto& [feature, read] : {std::pair{"psnr", all}, std::pair{"float_ssim", luma}}) {
    SCOPED_TRACE(feature);
    const session_config cfg{{}, {parse_feature_request(feature)}, compat::none, 2, 1};
    Vulkan v(ctx);
    session<Vulkan> one(v, f, cfg);
    for (std::size_t i = 0; i < frames; ++i) one.push(refs[i].view(), dis[i].view());
    (void)one.finish();
    EXPECT_EQ(v.host_bytes_uploaded(), frames * 2 * read);

    const std::uint64_t before = v.host_bytes_uploaded();
    multi_session<Vulkan> m(v, f, cfg, 3);
    for (std::size_t i = 0; i < frames; ++i) {
      const picture_view three[] = {dis[i].view(), dis[i].view(), dis[i].view()};
      m.push(refs[i].view(), three);
      EXPECT_EQ(v.host_bytes_uploaded() - before, (i + 1) * (all + 3 * read)) << "frame " << i;
    }
    (void)m.finish();
  }
}

// A semi-planar / MSB-aligned reference through the shared upload (its own row padding, the unpack in
// each distorted's frame) equals separate sessions given the same pictures (host uploads).
TEST(VulkanMultiSession, SemiPlanarReferenceEqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  const auto rocket = test::read_all(test::fixture("rocket_177x99_420p8_ref.y4m"));
  const auto noisy = test::read_all(test::fixture("rocket_177x99_420p8_noise10.y4m"));
  for (const char* name : {"nv12", "p010"}) {
    SCOPED_TRACE(name);
    const bool eight = std::string(name) == "nv12";
    const picture_format f = make_format(*find_pixel_format(name), eight ? 177 : 64, eight ? 99 : 36);
    std::vector<picture> ref, a, b;
    for (int i = 0; i < 5; ++i) {
      const picture planar_ref = eight ? test::repack(rocket[i], planar_equivalent(f)) : test::synthetic(f, i, false);
      ref.push_back(test::repack(planar_ref, f));
      a.push_back(eight ? test::repack(noisy[i], planar_equivalent(f)) : test::synthetic(f, i, true));
      b.push_back(test::repack(eight ? rocket[(i + 1) % 5] : test::synthetic(f, i + 1, true), f));  // semi-planar too
    }
    const auto cfg = test::multi_config(2, 1, eight ? compat::libvmaf : compat::none);
    multi_session<Vulkan> m(v, f, cfg, 2);
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const picture_view two[] = {a[i].view(), b[i].view()};
      m.push(ref[i].view(), two);
    }
    const auto got = m.finish();
    ASSERT_EQ(got.size(), 2u);
    for (const auto* d : {&a, &b}) {
      session<Vulkan> s(v, f, cfg);
      for (std::size_t i = 0; i < ref.size(); ++i) s.push(ref[i].view(), (*d)[i].view());
      test::expect_same_table(got[d == &a ? 0 : 1], s.finish(), std::string(name) + (d == &a ? " a" : " b"));
    }
  }
}

// session::on_frame and multi_session::on_frame on the GPU: each reported frame's row once, in order, as
// soon as final, equal to finish()'s (integer_motion2, the five-frame window, float_motion).
TEST(VulkanStreaming, RowsEqualFinish) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  EXPECT_GT(test::check_session_streaming(v, v.frames_in_flight()), 0u);
  EXPECT_GT(test::check_multi_session_streaming(v), 0u);
}

}  // namespace
