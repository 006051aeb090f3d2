// io::pool: libvmaf's min / max / mean / harmonic mean, including its inf and NaN behaviour.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "vqm/io/pooling.hpp"

namespace vqm::io {
namespace {

TEST(pooling, plain_values) {
  const std::vector<double> v{1.0, 2.0, 3.0};
  const auto p = pool(v);
  EXPECT_EQ(p.min, 1.0);
  EXPECT_EQ(p.max, 3.0);
  EXPECT_EQ(p.mean, 2.0);
  // 3 / (1/2 + 1/3 + 1/4) − 1 = 23/13
  EXPECT_DOUBLE_EQ(p.harmonic_mean, 23.0 / 13.0);
}

TEST(pooling, single_value_is_its_own_statistics) {
  const std::vector<double> v{0.5};
  const auto p = pool(v);
  EXPECT_EQ(p.min, 0.5);
  EXPECT_EQ(p.max, 0.5);
  EXPECT_EQ(p.mean, 0.5);
  EXPECT_DOUBLE_EQ(p.harmonic_mean, 0.5);
}

TEST(pooling, infinity_makes_the_mean_infinite_and_leaves_the_harmonic_mean_finite) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> v{1.0, inf, 3.0};
  const auto p = pool(v);
  EXPECT_EQ(p.max, inf);
  EXPECT_EQ(p.min, 1.0);
  EXPECT_EQ(p.mean, inf);
  EXPECT_DOUBLE_EQ(p.harmonic_mean, 3.0 / (0.5 + 0.25) - 1.0);
}

TEST(pooling, nan_first_value_sticks_in_min_and_max_later_nan_does_not) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto first = pool(std::vector<double>{nan, 1.0, 2.0});
  EXPECT_TRUE(std::isnan(first.min));
  EXPECT_TRUE(std::isnan(first.max));
  EXPECT_TRUE(std::isnan(first.mean));
  const auto later = pool(std::vector<double>{1.0, nan, 2.0});
  EXPECT_EQ(later.min, 1.0);
  EXPECT_EQ(later.max, 2.0);
  EXPECT_TRUE(std::isnan(later.harmonic_mean));
}

TEST(pooling, serial_sum_order) {
  // 1e16 + 1 + 1 ... in order loses the ones; a pairwise sum would not. libvmaf sums serially.
  const std::vector<double> v{1e16, 1.0, 1.0, 1.0, 1.0};
  EXPECT_EQ(pool(v).mean, (((1e16 + 1.0) + 1.0) + 1.0 + 1.0) / 5.0);
  EXPECT_EQ(pool(v).mean, 1e16 / 5.0);
}

}  // namespace
}  // namespace vqm::io
