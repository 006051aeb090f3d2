// The JSON parser the model loader reads libvmaf's model files with (vqm/detail/json.hpp): values, and
// malformed input refused with its position.
#include <gtest/gtest.h>

#include <string>

#include "vqm/detail/json.hpp"
#include "vqm/error.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

TEST(VmafJson, ParsesValues) {
  const auto v = vqm::json::parse(
      R"( {"a": [1, -0.5e2, 0, 1E+2, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "a": {}} )");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.members().size(), 3u);
  EXPECT_EQ(v.members()[0].first, "a");
  const auto& a = v.members()[0].second;
  ASSERT_EQ(a.items().size(), 7u);
  EXPECT_EQ(a.items()[1].number(), -50.0);
  EXPECT_EQ(a.items()[1].text(), "-0.5e2");
  EXPECT_EQ(a.items()[3].number(), 100.0);
  EXPECT_TRUE(a.items()[4].boolean());
  EXPECT_TRUE(a.items()[6].is_null());
  EXPECT_EQ(v.find("s")->text(), "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(v.find("a")->is_object());  // the last duplicate wins
  EXPECT_EQ(vqm::json::parse("0.1").number(), 0.1);
  EXPECT_EQ(vqm::json::parse("1.7976931348623157e308").number(), 1.7976931348623157e308);
  EXPECT_EQ(vqm::json::parse("4.9406564584124654e-324").number(), 4.9406564584124654e-324);
  EXPECT_EQ(vqm::json::parse("\"\xc3\xa9\"").text(), "\xc3\xa9");
}

TEST(VmafJson, RejectsMalformedInputWithPosition) {
  const char* bad[] = {"",        "{",        "[1,]",      "{\"a\":1,}", "01",        "1.",      ".5",      "-",
                       "+1",      "1e",       "tru",       "nul",        "\"abc",     "\"\\x\"", "\"\t\"",  "[1 2]",
                       "{1:2}",   "{\"a\" 1}", "1 2",      "\"\\ud800\"", "\"\\udc00\"", "\"\\u12\"", "1e400", "NaN",
                       "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "[[[[", "}",   "\"\\ud800\\u0041\""};
  for (const char* b : bad) {
    try {
      (void)vqm::json::parse(b, "t.json");
      ADD_FAILURE() << "accepted: " << b;
    } catch (const vqm::error& e) {
      EXPECT_EQ(e.code(), vqm::errc::bad_input);
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("t.json:1:", 0), 0u) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
  try {
    (void)vqm::json::parse("{\n  \"a\": [1,\n   x]}", "f");
    ADD_FAILURE();
  } catch (const vqm::error& e) {
    EXPECT_EQ(std::string(e.what()), "f:3:4: invalid JSON: unexpected character");
  }
  std::string deep(100000, '[');
  EXPECT_THROW((void)vqm::json::parse(deep), vqm::error);
  std::string ok(100, '[');
  ok += std::string(100, ']');
  EXPECT_NO_THROW((void)vqm::json::parse(ok));
}

}  // namespace VQM_TEST_UNIT
