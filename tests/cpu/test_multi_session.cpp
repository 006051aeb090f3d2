// multi_session on the Cpu backend: three distorted streams in one pass against one reference equal three
// separate sessions, every value (VMAF + psnr + float_ssim), inline and on a pool with frames in flight;
// rows streamed while pushing (session::on_frame, multi_session::on_frame) equal the tables.
#include <gtest/gtest.h>

#include <cstdio>

#include "common/multi_session_check.hpp"
#include "common/streaming_check.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm;

TEST(MultiSession, EqualsSeparateSessionsInline) {
  Cpu cpu;
  const auto n = test::check_multi_equals_separate(cpu, test::multi_config(3, 1, compat::none));
  std::printf("%zu values equal to separate sessions\n", n);
  EXPECT_GT(n, 0u);
}

TEST(MultiSession, EqualsSeparateSessionsOnAPoolWithSubsampleAndLibvmafCompat) {
  Cpu cpu(2);
  EXPECT_GT(test::check_multi_equals_separate(cpu, test::multi_config(2, 1, compat::libvmaf)), 0u);
  EXPECT_GT(test::check_multi_equals_separate(cpu, test::multi_config(3, 2, compat::none)), 0u);
}

TEST(MultiSession, RefusesNoStreamAndAWrongPictureCount) {
  Cpu cpu;
  test::check_multi_session_errors(cpu);
}

// Motion (reference-only) is computed once when other features remain, else by every session.
TEST(MultiSession, SharesMotionOnlyBesideOtherFeatures) {
  Cpu cpu;
  test::check_sharing_edges(cpu);
}

// Each reported frame's row once, in order, as soon as final, equal to finish()'s (temporal features
// included: integer_motion2, the five-frame window, float_motion).
TEST(Streaming, SessionRowsEqualFinishInlineAndOnAPool) {
  Cpu inline_cpu;
  const auto n = test::check_session_streaming(inline_cpu, 1);
  std::printf("%zu streamed values equal to finish()'s\n", n);
  EXPECT_GT(n, 0u);
  Cpu pool(2);
  EXPECT_GT(test::check_session_streaming(pool, 3), 0u);
}

TEST(Streaming, MultiSessionRowsEqualFinish) {
  Cpu cpu(2);
  EXPECT_GT(test::check_multi_session_streaming(cpu), 0u);
}

}  // namespace
