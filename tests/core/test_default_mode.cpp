// compat::none on odd sizes: chroma uses the full (ceil-sized) planes files store. The values must equal
// an independent computation over those planes, and differ from libvmaf's floor-sized reading.
#include <gtest/gtest.h>

#include <cmath>

#include "common/reference_data.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

// Σ (r − d)² over the whole plane, straight from the owning picture.
std::uint64_t plane_sse(const picture& r, const picture& d, int p) {
  const auto& f = r.format();
  std::uint64_t sse = 0;
  for (std::uint32_t y = 0; y < f.plane_height(p); ++y)
    for (std::uint32_t x = 0; x < f.plane_width(p); ++x) {
      const std::int64_t a = f.bit_depth > 8 ? std::int64_t{const_cast<picture&>(r).row<std::uint16_t>(p, y)[x]}
                                             : std::int64_t{const_cast<picture&>(r).row<std::uint8_t>(p, y)[x]};
      const std::int64_t b = f.bit_depth > 8 ? std::int64_t{const_cast<picture&>(d).row<std::uint16_t>(p, y)[x]}
                                             : std::int64_t{const_cast<picture&>(d).row<std::uint8_t>(p, y)[x]};
      sse += static_cast<std::uint64_t>((a - b) * (a - b));
    }
  return sse;
}

double independent_psnr(const picture& r, const picture& d, int p) {
  const auto& f = r.format();
  const double peak = static_cast<double>((1u << f.bit_depth) - 1u);
  const double n = static_cast<double>(std::uint64_t{f.plane_width(p)} * f.plane_height(p));
  const double mse = static_cast<double>(plane_sse(r, d, p)) / n;
  return std::min(10.0 * std::log10(peak * peak / std::max(mse, 1e-16)), 6.0 * f.bit_depth + 12.0);
}

class odd_size_default_mode : public testing::TestWithParam<std::string> {};

TEST_P(odd_size_default_mode, chroma_uses_ceil_planes) {
  const auto j = load_json(reference_dir() + "/" + GetParam() + ".json");
  const auto ref = read_all(fixture(j.at("reference").at("file").get<std::string>()));
  const auto dis = read_all(fixture(j.at("distorted").at("file").get<std::string>()));
  ASSERT_FALSE(ref.empty());
  const auto f = ref.front().format();
  ASSERT_TRUE(f.width % 2 == 1 || f.height % 2 == 1) << "not an odd-size pair";
  ASSERT_NE(f.plane_width(1), f.plane_width(1, chroma_rounding::floor) + (f.chroma == chroma_format::yuv444 ? 1 : 0))
      << "chroma plane of this pair is not rounded";

  Cpu cpu;
  const Psnr<Cpu> psnr(f);
  const auto& json = j.at("features").at("psnr").at("metrics");
  bool differs_from_libvmaf = false;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const auto v = compute(cpu, psnr, ref[i], dis[i]);  // compat::none
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0], to_double(json.at("psnr_y")[i])) << "luma is the same in both modes, frame " << i;
    for (int p = 1; p < 3; ++p) {
      EXPECT_EQ(v[p], independent_psnr(ref[i], dis[i], p)) << "plane " << p << " frame " << i;
      differs_from_libvmaf |= v[p] != to_double(json.at(p == 1 ? "psnr_cb" : "psnr_cr")[i]);
    }
  }
  EXPECT_TRUE(differs_from_libvmaf) << "ceil chroma should not reproduce libvmaf's floor reading";
}

INSTANTIATE_TEST_SUITE_P(odd, odd_size_default_mode,
                         testing::Values("rocket_177x99_420p8_x264crf35", "motorcycle_183x177_420p8_vp9crf40",
                                         "rocket_321x199_422p10_x264crf33", "motorcycle_771x433_420p8_x264crf30",
                                         "coffee_645x643_420p8_x264crf33"));

// Tiny frames: libvmaf's degenerate values are a compat-mode thing; the default refuses them.
TEST(default_mode, tiny_frames_are_rejected_not_degenerate) {
  const picture_format f{8, 8, chroma_format::yuv420, 8};
  EXPECT_THROW((void)make_metric<Cpu>("float_ssim", {}, f, compat::none), error);
  EXPECT_THROW((void)make_metric<Cpu>("psnr_hvs", {}, f, compat::none), error);  // 4x4 chroma
  EXPECT_NO_THROW((void)make_metric<Cpu>("float_ssim", {}, f, compat::libvmaf));
  EXPECT_NO_THROW((void)make_metric<Cpu>("psnr_hvs", {}, f, compat::libvmaf));
}

// A metric asked for by name on a backend without its kernel: a vqm::error whose message reads well whether
// or not the backend has a name.
struct nameless_backend {
  struct frame {};
  frame begin_frame(const picture_view&, const picture_view&) { return {}; }
  void submit(frame&) {}
  void wait(frame&) {}
};
TEST(metric_factory, backend_without_the_kernel_is_refused_by_name) {
  const picture_format f{64, 48, chroma_format::yuv420, 8};
  try {
    (void)make_metric<nameless_backend>("float_ssim", {}, f);
    ADD_FAILURE() << "accepted";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "this backend does not implement float_ssim");
  }
}

}  // namespace
}  // namespace vqm::test
