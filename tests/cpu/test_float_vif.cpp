// float_vif on the Cpu backend beyond tests/data/reference-vmaf (which has its default runs only): the
// options against libvmaf's own output (tests/data/float_vif_options.json, libvmaf's %.6f writer, which
// pins the binary32 per-scale num/den exactly), the sizes and options vqm refuses, the output names.
#include <gtest/gtest.h>

#include <cstdio>
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

picture_format luma(std::uint32_t w, std::uint32_t h) {
  picture_format f;
  f.width = w;
  f.height = h;
  f.bit_depth = 8;
  return f;
}

std::string why(std::uint32_t w, std::uint32_t h, const char* opts = "") {
  return float_vif_algorithm::unsupported(luma(w, h), parse_options<float_vif_options>(option_map::parse(opts)));
}

}  // namespace

TEST(float_vif_cpu, options_match_libvmaf) {
  EXPECT_EQ(compare_six_digit_runs("float_vif", "float_vif_options.json"), 210u);
}

TEST(float_vif_cpu, sizes_libvmaf_reads_outside_the_picture_at_are_refused) {
  EXPECT_EQ(why(16, 16), "");
  EXPECT_NE(why(15, 16).find("at least 16x16"), std::string::npos) << why(15, 16);
  EXPECT_NE(why(16, 15), "");
  EXPECT_EQ(why(24, 24, "vif_kernelscale=1.06667"), "");  // widths 19, 11, 7, 5: scale 3 needs 3 samples
  EXPECT_NE(why(23, 40, "vif_kernelscale=1.06667").find("at least 24x24"), std::string::npos);
  EXPECT_EQ(why(40, 40, "vif_kernelscale=3"), "");  // widths 51, 27, 15, 9
  EXPECT_NE(why(39, 40, "vif_kernelscale=3"), "");
}

TEST(float_vif_cpu, options_libvmaf_refuses_or_vqm_does_not_reproduce_are_refused) {
  EXPECT_NE(why(64, 64, "vif_kernelscale=0.7").find("invalid vif_kernelscale 0.7"), std::string::npos);
  EXPECT_EQ(why(64, 64, "vif_kernelscale=1.5005"), "");  // within libvmaf's 1e-3 of 1.5: taken as given
  EXPECT_NE(why(64, 64, "vif_prescale=2").find("vif_prescale=1 only"), std::string::npos);
  EXPECT_THROW((void)parse_options<float_vif_options>(option_map::parse("vif_prescale_method=nearest")), error);
  EXPECT_THROW((void)parse_options<float_vif_options>(option_map::parse("vif_sigma_nsq=5.5")), error);
}

TEST(float_vif_cpu, output_names_carry_libvmaf_suffixes) {
  const float_vif_algorithm a(luma(64, 64), parse_options<float_vif_options>(option_map::parse(
                                                 "vif_skip_scale0=true:vif_enhn_gain_limit=1:vif_kernelscale=0.5")));
  EXPECT_EQ(a.names(), (std::vector<std::string>{"vif_scale0_egl_1_ks_0.5_ssclz", "vif_scale1_egl_1_ks_0.5_ssclz",
                                                 "vif_scale2_egl_1_ks_0.5_ssclz", "vif_scale3_egl_1_ks_0.5_ssclz"}));
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
