// float_adm on the Cpu backend beyond tests/data/reference-vmaf (which has its default runs only): the
// options against libvmaf's own output (tests/data/float_adm_options.json, %.6f, made on AMD: adm_rcp=amd),
// the RCPSS tables (rcp), the sizes and options vqm refuses, the output names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "common/six_digit_runs.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

namespace {

picture_format luma_adm(std::uint32_t w, std::uint32_t h) {
  picture_format f;
  f.width = w;
  f.height = h;
  f.bit_depth = 8;
  return f;
}

float_adm_options adm_opts(const char* text) { return parse_options<float_adm_options>(option_map::parse(text)); }

std::string why_adm(std::uint32_t w, std::uint32_t h, const char* opts = "") {
  return float_adm_algorithm::unsupported(luma_adm(w, h), adm_opts(opts));
}

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

TEST(float_adm_cpu, options_match_libvmaf) {
  EXPECT_EQ(compare_six_digit_runs("float_adm", "float_adm_options.json", ":adm_rcp=amd"), 280u);
}

// The table lookup reproduces RCPSS's structure: sign, exponent scaling, specials, flush to zero; and on an
// x86 host the run-time table is the instruction itself.
TEST(float_adm_cpu, rcp_tables) {
  const auto& amd = tables::adm_rcp::amd;
  const auto& intel = tables::adm_rcp::intel;
  std::size_t differ = 0;
  for (std::size_t p = 0; p < 4096; ++p) differ += amd[p] != intel[p];
  EXPECT_EQ(differ, 2115u);
  EXPECT_EQ(bits_of(fadm::rcp(amd, 1.0f)), 0x3F7FF000u);
  EXPECT_EQ(bits_of(fadm::rcp(amd, 4.0f)), 0x3E7FF000u);      // exponent +2: result −2
  EXPECT_EQ(bits_of(fadm::rcp(amd, -0.5f)), 0xBFFFF000u);     // sign kept, exponent −1: result +1
  EXPECT_EQ(bits_of(fadm::rcp(amd, 1.0001f)), bits_of(fadm::rcp(amd, 1.0f)));  // the low 11 bits do not count
  EXPECT_TRUE(std::isinf(fadm::rcp(amd, 0.0f)) && !std::signbit(fadm::rcp(amd, 0.0f)));
  EXPECT_TRUE(std::isinf(fadm::rcp(amd, -0.0f)) && std::signbit(fadm::rcp(amd, -0.0f)));
  EXPECT_TRUE(std::isinf(fadm::rcp(amd, 1e-40f)));              // denormal input
  EXPECT_EQ(fadm::rcp(amd, __builtin_inff()), 0.0f);
  EXPECT_EQ(fadm::rcp(amd, 3e38f), 0.0f);                        // result below the normal range: flushed
  EXPECT_TRUE(std::isnan(fadm::rcp(amd, __builtin_nanf(""))));
  EXPECT_EQ(fadm::rcp(intel, 1e-30f), from_bits(0x7149E800u));   // 0x1.93dp+99, as the Xeon printed it
  EXPECT_EQ(fadm::rcp(amd, 1e-30f), from_bits(0x7149F800u));     // 0x1.93fp+99, as the EPYC printed it
  EXPECT_EQ(fadm::divs(nullptr, 1.0f, 3.0f), 1.0f / 3.0f);
#if VQM_HAVE_RCPSS
  const auto& host = fadm::host_table();
  for (float x : {1.0f, 1.5f, 3.25f, -7.0f, 1e-30f, 1e20f, 0.0f, 1e-40f, 3e38f})
    EXPECT_EQ(bits_of(fadm::rcp(host, x)), bits_of(_mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))))) << x;
#endif
}

TEST(float_adm_cpu, sizes_libvmaf_reads_outside_its_buffers_at_are_refused) {
  EXPECT_EQ(why_adm(17, 17), "");
  EXPECT_NE(why_adm(16, 17).find("at least 17x17"), std::string::npos) << why_adm(16, 17);
  EXPECT_NE(why_adm(17, 16), "");
  picture_format f = luma_adm(64, 64);
  f.bit_depth = 9;
  EXPECT_NE(float_adm_algorithm::unsupported(f, {}).find("not 9-bit"), std::string::npos);
}

TEST(float_adm_cpu, options_vqm_does_not_reproduce_or_libvmaf_refuses) {
  EXPECT_NE(why_adm(64, 64, "adm_csf_mode=2").find("adm_csf_mode 0 (Watson) and 1 (Barten), not 2"), std::string::npos);
  EXPECT_EQ(why_adm(64, 64, "adm_csf_mode=1"), "");
  EXPECT_EQ(why_adm(64, 64, "adm_p_norm=2"), "");
  EXPECT_THROW((void)adm_opts("adm_skip_aim_scale=-1"), error);  // libvmaf's range is [0, 3]
  EXPECT_THROW((void)adm_opts("adm_enhn_gain_limit=0.5"), error);
  EXPECT_THROW((void)adm_opts("adm_rcp=arm"), error);
  EXPECT_EQ(adm_opts("adm_rcp=intel").adm_rcp, "intel");
  EXPECT_EQ(adm_opts("").adm_rcp, "host");
  try {
    (void)adm_opts("adm_rcp=1");  // a choice is given by name, not by index
    ADD_FAILURE() << "adm_rcp=1 accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("expected one of host, amd, intel, exact"), std::string::npos) << e.what();
  }
  const auto d = describe_options<float_adm_options>().back();
  EXPECT_EQ(d.name, "adm_rcp");
  EXPECT_EQ(d.alias, "");  // never renames an output
  EXPECT_EQ(d.type, "string");
  EXPECT_EQ(d.default_value, "host");
  EXPECT_EQ(d.range, "host, amd, intel, exact");
  EXPECT_EQ(options_suffix(adm_opts("adm_rcp=amd")), "");
  EXPECT_EQ(options_suffix(adm_opts("adm_rcp=amd:adm_enhn_gain_limit=1")), "_egl_1");
}

TEST(float_adm_cpu, output_names_carry_libvmaf_suffixes_and_adm_rcp_none) {
  const float_adm_algorithm a(luma_adm(64, 64), adm_opts("debug=true:adm_enhn_gain_limit=1:adm_rcp=intel"));
  const std::vector<std::string> want{
      "adm2_egl_1",          "aim_egl_1",           "adm3_egl_1",          "adm_scale0_egl_1",
      "adm_scale1_egl_1",    "adm_scale2_egl_1",    "adm_scale3_egl_1",    "adm",
      "adm_num_egl_1",       "adm_den_egl_1",       "adm_num_scale0_egl_1", "adm_den_scale0_egl_1",
      "adm_num_scale1_egl_1", "adm_den_scale1_egl_1", "adm_num_scale2_egl_1", "adm_den_scale2_egl_1",
      "adm_num_scale3_egl_1", "adm_den_scale3_egl_1"};
  EXPECT_EQ(a.names(), want);
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
