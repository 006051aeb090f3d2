// option_map: libvmaf's "k=v:k=v" syntax; option tables: typed values, ranges, suffixes, help and the errors
// for bad options.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <span>
#include <sstream>
#include <string_view>
#include <string>

#include "vqm/cpu.hpp"
#include "vqm/feature/options.hpp"
#include "vqm/feature_reference.hpp"
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

// A table with every kind of option.
struct sample_options {
  static constexpr const char* feature = "sample";
  bool a = true;
  bool b = true;
  double c = 0;
  std::uint32_t d = 3;
  int e = -1;
  static constexpr auto table() {
    return std::tuple{flag("a", &sample_options::a, "a flag", "aa"), flag("b", &sample_options::b, "b flag"),
                      number("c", &sample_options::c, 0.0, 1.0, "a number", "cc"),
                      number("d", &sample_options::d, 0u, 10u, "an unsigned", "dd"),
                      number("e", &sample_options::e, -5, 5, "an integer")};
  }
};

TEST(option_table, typed_values_last_one_wins) {
  const auto o = parse_options<sample_options>(option_map::parse("a=true:b=false:c=0.25:d=7:a=false:e=-3"));
  EXPECT_FALSE(o.a);  // the last one wins, as on libvmaf's command line
  EXPECT_FALSE(o.b);
  EXPECT_EQ(o.c, 0.25);
  EXPECT_EQ(o.d, 7u);
  EXPECT_EQ(o.e, -3);
  const auto untouched = parse_options<sample_options>(option_map::parse("c=1"));
  EXPECT_TRUE(untouched.a);
  EXPECT_EQ(untouched.d, 3u);
}

TEST(option_table, suffix_and_description_come_from_the_table) {
  // Feature parameters (with an alias) that differ from the default, ordered by option name.
  EXPECT_EQ(options_suffix(parse_options<sample_options>(option_map::parse("d=4:c=0.5:a=false:b=false:e=2"))),
            "_aa_cc_0.5_dd_4");
  EXPECT_EQ(options_suffix(sample_options{}), "");
  const auto info = describe_options<sample_options>();
  ASSERT_EQ(info.size(), 5u);
  EXPECT_EQ(info[2].name, "c");
  EXPECT_EQ(info[2].type, "double");
  EXPECT_EQ(info[2].default_value, "0");
  EXPECT_EQ(info[2].range, "[0, 1]");
  EXPECT_EQ(info[3].type, "int");
  EXPECT_EQ(info[0].default_value, "true");
  EXPECT_EQ(info[0].alias, "aa");
}

// A choice option (libvmaf's string options with a fixed set of values): a named enum, parsed by name only,
// printed by name in the suffix and the help.
enum class shade : std::uint8_t { light, dark, grey };
constexpr std::string_view shade_names[] = {"light", "dark", "grey"};
constexpr std::span<const std::string_view> option_names(shade) { return shade_names; }
struct choice_options {
  static constexpr const char* feature = "choosy";
  shade s = shade::light;
  double x = 1.0;
  static constexpr auto table() {
    return std::tuple{choice("s_shade", &choice_options::s, "a choice", "sh"),
                      number("r_x", &choice_options::x, 0.0, 2.0, "a number", "x")};
  }
};

TEST(option_table, choice_options_take_their_names_only) {
  EXPECT_EQ(parse_options<choice_options>(option_map::parse("s_shade=grey")).s, shade::grey);
  EXPECT_EQ(options_suffix(parse_options<choice_options>(option_map::parse("s_shade=dark:r_x=0.5"))), "_x_0.5_sh_dark");
  EXPECT_EQ(options_suffix(parse_options<choice_options>(option_map::parse("s_shade=light"))), "");
  for (const char* bad : {"s_shade=Dark", "s_shade=", "s_shade=1", "s_shade=dark "}) {
    try {
      (void)parse_options<choice_options>(option_map::parse(bad));
      ADD_FAILURE() << bad;
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("expected one of light, dark, grey"), std::string::npos) << e.what();
    }
  }
  const auto d = describe_options<choice_options>();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].type, "string");
  EXPECT_EQ(d[0].default_value, "light");
  EXPECT_EQ(d[0].range, "light, dark, grey");
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
  for (const char* bad : {"a=yes", "a=1", "c=1.5z", "c=2", "c=nan", "d=-1", "d=11", "e=1.5", "e=x"}) {
    try {
      (void)parse_options<sample_options>(option_map::parse(bad));
      FAIL() << bad;
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(std::string("sample option ") + bad), std::string::npos) << e.what();
    }
  }
}

TEST(option_map, unknown_keys_name_the_feature_and_the_known_keys) {
  try {
    (void)parse_options<psnr_options>(option_map::parse("enable_msee=true"));
    FAIL();
  } catch (const error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("enable_msee"), std::string::npos) << msg;
    EXPECT_NE(msg.find("psnr"), std::string::npos) << msg;
    EXPECT_NE(msg.find("enable_mse"), std::string::npos) << msg;
  }
}

TEST(option_table, a_feature_without_a_table_takes_no_options) {
  EXPECT_TRUE(describe_options<float_psnr_options>().empty());
  EXPECT_EQ(options_suffix(float_psnr_options{}), "");
  try {
    (void)parse_options<float_psnr_options>(option_map::parse("x=1"));
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "unknown option 'x' for feature float_psnr (it takes no options)");
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

// docs/features.md is the Markdown the option tables give; VQM_UPDATE_DOCS=1 rewrites it.
TEST(option_table, docs_features_md_is_what_the_tables_say) {
  const std::string path = std::string(VQM_TEST_DATA_DIR) + "/../../docs/features.md";
  const std::string want = "# Features and their options\n\n"
                           "Generated from the metrics' option tables (`tests/core/test_options.cpp` checks it; "
                           "`VQM_UPDATE_DOCS=1` rewrites it). A feature parameter with a non-default value renames "
                           "the feature's outputs: libvmaf's suffix, e.g. `integer_adm2_egl_1`.\n\n" +
                           feature_reference(true);
  if (const char* u = std::getenv("VQM_UPDATE_DOCS"); u && std::string(u) == "1") std::ofstream(path) << want;
  std::ifstream in(path);
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), want) << path << " is out of date: run this test with VQM_UPDATE_DOCS=1";
}

TEST(option_table, text_reference_lists_every_feature_and_option) {
  const auto text = feature_reference();
  for (const char* s : {"psnr: psnr_y", "adm_enhn_gain_limit", "(renames outputs: _egl)", "float_ms_ssim:", "min_sse"})
    EXPECT_NE(text.find(s), std::string::npos) << s;
}

}  // namespace
}  // namespace vqm
