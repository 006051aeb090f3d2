// io::pool: libvmaf's min / max / mean / harmonic mean, including its inf and NaN behaviour; the opt-in
// statistics (population standard deviation, numpy's linear percentiles) and the --pool list parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "vqm/io/pooling.hpp"
#include "common/test_namespace.hpp"

namespace vqm::io {
namespace VQM_TEST_UNIT {

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

// ---------------------------------------------------------------------------------------------------
// The opt-in statistics: stddev and percentiles (expected values worked out by hand in the comments)

constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// pool(values, statistics of `list`), in the list's order.
std::vector<double> pooled(const std::vector<double>& v, std::string_view list) {
  const auto stats = parse_pool_statistics(list);
  return pool(v, stats);
}

TEST(pool_stddev, is_the_population_standard_deviation) {
  // Mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32: population sqrt(32/8) = 2; the sample one would be sqrt(32/7).
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_EQ(stddev(v), 2.0);
  EXPECT_NE(stddev(v), std::sqrt(32.0 / 7.0));
  // 1..4: mean 2.5, squared deviations 2.25+0.25+0.25+2.25 = 5: sqrt(5/4).
  EXPECT_DOUBLE_EQ(stddev(std::vector<double>{1, 2, 3, 4}), std::sqrt(5.0) / 2.0);
  // Two values: half their distance.
  EXPECT_DOUBLE_EQ(stddev(std::vector<double>{90.25, 80.75}), 4.75);
}

TEST(pool_stddev, order_and_a_shift_leave_it_alone) {
  const std::vector<double> v{9, 2, 5, 4, 7, 4, 5, 4};  // the series above, shuffled
  EXPECT_EQ(stddev(v), 2.0);
  std::vector<double> shifted;
  for (const double x : v) shifted.push_back(x + 1000.0);  // mean 1005, the same deviations
  EXPECT_EQ(stddev(shifted), 2.0);
}

TEST(pool_stddev, one_value_or_equal_values_give_zero) {
  EXPECT_EQ(stddev(std::vector<double>{42.5}), 0.0);
  EXPECT_EQ(stddev(std::vector<double>{0.75, 0.75, 0.75, 0.75}), 0.0);  // exact sums: the mean is 0.75
  // 0.1 ten times sums to 0.9999999999999999: the mean is an ulp off and so is every deviation.
  const std::vector<double> tenths(10, 0.1);
  EXPECT_GE(stddev(tenths), 0.0);
  EXPECT_LE(stddev(tenths), 1e-16);
}

TEST(pool_stddev, nan_infinite_or_no_values_give_nan) {
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{1, nan_v, 3})));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{nan_v})));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{1, inf, 3})));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{-inf, 1})));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{inf})));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{})));
}

// numpy.percentile's default ("linear") rule, written plainly: rank h = (n − 1)·p/100 in the sorted
// values, interpolated between x[⌊h⌋] and the next one.
double linear_percentile(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = static_cast<double>(x.size() - 1) * p / 100.0;
  const auto i = static_cast<std::size_t>(h);
  if (i + 1 >= x.size()) return x.back();
  const double t = h - static_cast<double>(i);
  return (1.0 - t) * x[i] + t * x[i + 1];
}

TEST(pool_percentile, five_values_by_hand) {
  // Sorted 10 20 30 40 50, rank h = 4·p/100: p0 -> 10, p25 (h 1) -> 20, p50 (h 2) -> 30, p100 -> 50,
  // p10 (h 0.4) -> 10 + 0.4·10 = 14, p90 (h 3.6) -> 40 + 0.6·10 = 46, p62.5 (h 2.5) -> 35.
  const std::vector<double> v{40, 10, 50, 30, 20};  // unsorted: pool sorts a copy
  const auto r = pooled(v, "p0,p25,p50,p100,p10,p90,p62.5");
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0], 10.0);
  EXPECT_EQ(r[1], 20.0);
  EXPECT_EQ(r[2], 30.0);
  EXPECT_EQ(r[3], 50.0);
  EXPECT_DOUBLE_EQ(r[4], 14.0);
  EXPECT_DOUBLE_EQ(r[5], 46.0);
  EXPECT_EQ(r[6], 35.0);
}

TEST(pool_percentile, the_median_of_an_even_count_is_the_mean_of_the_middle_two) {
  EXPECT_EQ(pooled({3, 1, 4, 2}, "p50")[0], 2.5);
  // Two values: p25 and p75 are a quarter of the way from either end.
  const auto r = pooled({3, 1}, "p25,p50,p75");
  EXPECT_EQ(r, (std::vector<double>{1.5, 2.0, 2.5}));
}

TEST(pool_percentile, one_value_or_equal_values_are_every_percentile) {
  const auto one = pooled({7.25}, "p0,p1,p50,p99.9,p100");
  EXPECT_EQ(one, std::vector<double>(5, 7.25));
  const auto same = pooled(std::vector<double>(6, 0.1), "p0,p13,p50,p77.7,p100");
  EXPECT_EQ(same, std::vector<double>(5, 0.1));  // exactly: no interpolation between equal values
}

TEST(pool_percentile, follows_the_linear_rule_on_a_longer_series) {
  std::vector<double> v;
  for (int k = 0; k < 17; ++k) v.push_back((k * 37 % 17) * 1.5 + 0.25 * (k % 3) - 4.0);  // unsorted, repeats
  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  double previous = -inf;
  for (int step = 0; step <= 400; ++step) {
    const double p = step * 0.25;
    const double got = percentile_of_sorted(sorted, p), want = linear_percentile(v, p);
    EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::abs(want))) << "p" << p;
    EXPECT_GE(got, previous) << "p" << p << ": percentiles never decrease with p";
    previous = got;
  }
  EXPECT_EQ(percentile_of_sorted(sorted, 0.0), sorted.front());
  EXPECT_EQ(percentile_of_sorted(sorted, 100.0), sorted.back());
}

TEST(pool_percentile, no_values_or_a_nan_value_give_nan) {
  EXPECT_TRUE(std::isnan(percentile_of_sorted(std::vector<double>{}, 50.0)));
  const auto r = pooled({1, nan_v, 3}, "p0,p50,p100,min,max");
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_TRUE(std::isnan(r[1]));
  EXPECT_TRUE(std::isnan(r[2]));
  EXPECT_EQ(r[3], 1.0);  // a NaN that is not the first value leaves libvmaf's min and max alone
  EXPECT_EQ(r[4], 3.0);
  const auto empty = pooled({}, "stddev,p50");
  EXPECT_TRUE(std::isnan(empty[0]));
  EXPECT_TRUE(std::isnan(empty[1]));
}

TEST(pool_percentile, infinite_values_sort_to_the_ends) {
  // Sorted 1 5 inf: p50 is rank 1 exactly, 5; p100 is inf.
  EXPECT_EQ(pooled({inf, 1, 5}, "p0,p50,p100"), (std::vector<double>{1, 5, inf}));
  // Sorted 1 inf inf, p75 at rank 1.5 between two infinities: inf itself, not inf − inf.
  EXPECT_EQ(pooled({inf, 1, inf}, "p75")[0], inf);
  // Sorted -inf 2 4: p25 (rank 0.5) is 2 − inf·0.5 = -inf; p75 (rank 1.5) is 3.
  EXPECT_EQ(pooled({4, -inf, 2}, "p25,p75"), (std::vector<double>{-inf, 3}));
}

TEST(pool_statistics, come_in_the_order_asked_and_agree_with_the_single_functions) {
  const std::vector<double> v{0.5, 4.0, 2.5, 1.0};
  const auto r = pooled(v, "max,stddev,p50,min,harmonic_mean,mean");
  const auto base = pool(v);
  // mean 2; squared deviations 2.25+4+0.25+1 = 7.5 -> sqrt(7.5/4); median of 0.5 1 2.5 4: 1.75;
  // harmonic mean 4 / (1/1.5 + 1/5 + 1/3.5 + 1/2) − 1.
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0], 4.0);
  EXPECT_DOUBLE_EQ(r[1], std::sqrt(7.5 / 4.0));
  EXPECT_EQ(r[2], 1.75);
  EXPECT_EQ(r[3], 0.5);
  EXPECT_DOUBLE_EQ(r[4], 4.0 / (1 / 1.5 + 1 / 5.0 + 1 / 3.5 + 1 / 2.0) - 1.0);
  EXPECT_EQ(r[5], 2.0);
  // The libvmaf four bit for bit as pool() gives them.
  EXPECT_EQ(r[0], base.max);
  EXPECT_EQ(r[3], base.min);
  EXPECT_EQ(r[4], base.harmonic_mean);
  EXPECT_EQ(r[5], base.mean);
}

// ---------------------------------------------------------------------------------------------------
// The --pool list

// The message of the error parse_pool_statistics(list) throws ("(no error)" if none), checking its code.
std::string parse_error(std::string_view list) {
  try {
    (void)parse_pool_statistics(list);
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << list;
    return e.what();
  }
  return "(no error)";
}

TEST(pool_statistics_parser, names_kinds_and_order) {
  using k = pool_statistic::kind;
  const auto s = parse_pool_statistics("mean,harmonic_mean,min,max,stddev,p1,p5,p50");
  ASSERT_EQ(s.size(), 8u);
  const std::vector<std::pair<k, std::string>> want{{k::mean, "mean"}, {k::harmonic_mean, "harmonic_mean"},
                                                    {k::min, "min"},   {k::max, "max"},
                                                    {k::stddev, "stddev"}, {k::percentile, "p1"},
                                                    {k::percentile, "p5"},  {k::percentile, "p50"}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(s[i].what, want[i].first) << i;
    EXPECT_EQ(s[i].name, want[i].second) << i;
  }
  EXPECT_EQ(s[5].p, 1.0);
  EXPECT_EQ(s[6].p, 5.0);
  EXPECT_EQ(s[7].p, 50.0);
  // One name alone; libvmaf's four in its order are libvmaf_pool_statistics().
  EXPECT_EQ(parse_pool_statistics("stddev").size(), 1u);
  EXPECT_EQ(parse_pool_statistics("min,max,mean,harmonic_mean"), libvmaf_pool_statistics());
}

TEST(pool_statistics_parser, percentile_names_drop_redundant_zeros_and_never_use_an_exponent) {
  const std::vector<std::tuple<const char*, const char*, double>> cases{
      {"p05", "p5", 5.0},           {"p5.0", "p5", 5.0},         {"p5.50", "p5.5", 5.5},
      {"p.5", "p0.5", 0.5},         {"p00.5", "p0.5", 0.5},      {"p007.25", "p7.25", 7.25},
      {"p00", "p0", 0.0},           {"p0.0", "p0", 0.0},         {"p.0", "p0", 0.0},
      {"p100.000", "p100", 100.0},  {"p99.9", "p99.9", 99.9},    {"p0.00001", "p0.00001", 0.00001},
      {"p10", "p10", 10.0},         {"p100", "p100", 100.0}};
  for (const auto& [item, name, p] : cases) {
    const auto s = parse_pool_statistics(item);
    ASSERT_EQ(s.size(), 1u) << item;
    EXPECT_EQ(s[0].what, pool_statistic::kind::percentile) << item;
    EXPECT_EQ(s[0].name, name) << item;
    EXPECT_EQ(s[0].p, p) << item;
  }
}

TEST(pool_statistics_parser, percentiles_must_be_from_p0_to_p100) {
  EXPECT_EQ(parse_pool_statistics("p0,p100")[1].p, 100.0);
  for (const char* bad : {"p101", "p100.5", "p100.001", "p1000", "p200"}) {
    const auto msg = parse_error(std::string("mean,") + bad);
    EXPECT_NE(msg.find(std::string("'") + bad + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("p0 to p100"), std::string::npos) << msg;
  }
  // A sign is not part of a percentile's name: an unknown statistic.
  EXPECT_NE(parse_error("p-1").find("unknown statistic 'p-1'"), std::string::npos);
}

TEST(pool_statistics_parser, unknown_names_are_named_with_the_known_ones) {
  for (const char* bad : {"median", "Mean", "MAX", "std", "p", "pp5", "p5.", "p1.2.3", "p1e1", "p5%", " mean", "mean ",
                          "percentile", "harmonic"}) {
    const auto msg = parse_error(std::string("min,") + bad + ",max");
    EXPECT_NE(msg.find(std::string("unknown statistic '") + bad + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("stddev"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pN"), std::string::npos) << msg;
  }
}

TEST(pool_statistics_parser, empty_items_are_refused) {
  for (const char* list : {"", ",", "mean,", ",mean", "mean,,max"})
    EXPECT_NE(parse_error(list).find("empty item in the statistics list (an extra comma?"), std::string::npos)
        << "'" << list << "'";
}

TEST(pool_statistics_parser, a_statistic_listed_twice_is_refused) {
  const std::vector<std::pair<const char*, const char*>> cases{{"mean,mean", "'mean'"},
                                                               {"min,max,min", "'min'"},
                                                               {"stddev,p1,stddev", "'stddev'"},
                                                               {"p5,p05", "'p5'"},
                                                               {"p50,p50.0", "'p50'"}};
  for (const auto& [list, name] : cases) {
    const auto msg = parse_error(list);
    EXPECT_NE(msg.find(std::string("statistic ") + name + " is listed twice"), std::string::npos) << list << ": " << msg;
  }
  // Different percentiles are different statistics.
  EXPECT_EQ(parse_pool_statistics("p5,p50,p5.5,p0.5").size(), 4u);
}

}  // namespace
}  // namespace vqm::io
