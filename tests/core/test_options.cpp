// option_map: libvmaf's "k=v:k=v" syntax, typed getters and the errors for bad options.
#include <gtest/gtest.h>

#include "vqm/cpu.hpp"
#include "vqm/options.hpp"
#include "common/test_namespace.hpp"

namespace vqm {
namespace VQM_TEST_UNIT {

TEST(option_map, parses_pairs_in_order) {
  const auto m = option_map::parse("enable_mse=true:min_sse=0.5:scale=2");
  ASSERT_EQ(m.items().size(), 3u);
  EXPECT_EQ(m.items()[0], (std::pair<std::string, std::string>{"enable_mse", "true"}));
  EXPECT_EQ(m.items()[2], (std::pair<std::string, std::string>{"scale", "2"}));
  EXPECT_TRUE(option_map::parse("").empty());
}

TEST(option_map, typed_getters) {
  const auto m = option_map::parse("a=true:b=0:c=0.25:d=7:a=false");
  bool a = true, b = true;
  double c = 0;
  std::uint32_t d = 0;
  m.get("a", a);  // the last one wins, as on libvmaf's command line
  m.get("b", b);
  m.get("c", c);
  m.get("d", d);
  EXPECT_FALSE(a);
  EXPECT_FALSE(b);
  EXPECT_EQ(c, 0.25);
  EXPECT_EQ(d, 7u);
  bool untouched = true;
  m.get("missing", untouched);
  EXPECT_TRUE(untouched);
}

TEST(option_map, bad_syntax_and_values_throw_invalid_argument) {
  for (const char* bad : {"novalue", "=1", "a=1:b"}) {
    try {
      (void)option_map::parse(bad);
      FAIL() << bad;
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
    }
  }
  bool b = false;
  double x = 0;
  std::uint32_t u = 0;
  EXPECT_THROW(option_map::parse("b=yes").get("b", b), error);
  EXPECT_THROW(option_map::parse("x=1.5z").get("x", x), error);
  EXPECT_THROW(option_map::parse("u=-1").get("u", u), error);
}

TEST(option_map, unknown_keys_name_the_feature_and_the_known_keys) {
  try {
    (void)psnr_options::parse(option_map::parse("enable_msee=true"));
    FAIL();
  } catch (const error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("enable_msee"), std::string::npos) << msg;
    EXPECT_NE(msg.find("psnr"), std::string::npos) << msg;
    EXPECT_NE(msg.find("enable_mse"), std::string::npos) << msg;
  }
}

TEST(metric_factory, unknown_feature_lists_the_known_ones) {
  try {
    (void)make_metric<Cpu>("vmaf", {}, picture_format{64, 64});
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("float_ms_ssim"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vqm
