// float_ansnr beyond the fixture pairs (their values: test_vulkan_metrics.cpp, every_float_ansnr_value_matches):
// libvmaf's values of small synthetic pictures (tests/data/reference-ansnr/small: 3x3 up, where the 5x5
// filter's mirrored rows and columns overlap, every depth, extreme samples, zero signal and zero noise) on
// Cpu and Vulkan, and the refusal of sizes where libvmaf's filter reads outside its picture.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

template <class B>
B* ansnr_backend(std::string* why);
template <>
Cpu* ansnr_backend<Cpu>(std::string*) {
  static Cpu c;
  return &c;
}
template <>
Vulkan* ansnr_backend<Vulkan>(std::string* why) {
  auto ctx = vk_context(why);
  if (!ctx) return nullptr;
  static Vulkan v(ctx);
  return &v;
}

picture luma_picture(std::uint32_t w, std::uint32_t h, std::uint32_t bpc, const nlohmann::json& samples) {
  picture p(picture_format{w, h, chroma_format::yuv400, bpc});
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const auto v = samples.at(y * w + x).get<std::uint32_t>();
      if (bpc > 8) p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
      else p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
    }
  return p;
}

template <class B>
class float_ansnr_small : public testing::Test {};
using ansnr_backends = testing::Types<Cpu, Vulkan>;
TYPED_TEST_SUITE(float_ansnr_small, ansnr_backends);

TYPED_TEST(float_ansnr_small, synthetic_pictures_match_libvmaf) {
  using B = TypeParam;
  std::string why;
  B* b = ansnr_backend<B>(&why);
  if (!b) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const auto j = load_json(std::string(VQM_TEST_DATA_DIR) + "/reference-ansnr/small/synthetic.json");
  std::size_t compared = 0;
  for (const auto& c : j.at("cases")) {
    const auto w = c.at("width").get<std::uint32_t>(), h = c.at("height").get<std::uint32_t>();
    const auto bpc = c.at("bitdepth").get<std::uint32_t>();
    const auto ref = luma_picture(w, h, bpc, c.at("ref")), dis = luma_picture(w, h, bpc, c.at("dis"));
    std::vector<any_metric<B>> m;
    m.push_back(make_metric<B>("float_ansnr", {}, ref.format(), compat::libvmaf));
    const auto names = m.front().names();
    scorer<B> sc(*b, std::move(m), compat::libvmaf, 1);
    auto r = sc.push(ref, dis);
    if (!r) r = sc.pop();
    ASSERT_TRUE(r.has_value());
    for (std::size_t k = 0; k < names.size(); ++k) {
      const double want = to_double(c.at("metrics").at(names[k]));
      EXPECT_PRED2(same, r->values[k], want) << w << "x" << h << " " << bpc << "-bit " << names[k] << ": got "
                                             << std::hexfloat << r->values[k] << ", want " << want;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 62u);
}

// Below 3 rows or columns libvmaf's 5x5 filter mirrors past its picture; depths libvmaf's init refuses.
TYPED_TEST(float_ansnr_small, sizes_and_depths_libvmaf_cannot_do_are_refused) {
  using B = TypeParam;
  std::string why;
  if (!ansnr_backend<B>(&why)) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  for (const auto& [w, h, bpc, what] :
       {std::tuple{2u, 3u, 8u, "at least 3x3"}, std::tuple{3u, 2u, 10u, "at least 3x3"},
        std::tuple{1u, 1u, 8u, "at least 3x3"}, std::tuple{1920u, 2u, 16u, "at least 3x3"},
        std::tuple{64u, 64u, 9u, "8, 10, 12 and 16-bit"}, std::tuple{64u, 64u, 14u, "8, 10, 12 and 16-bit"}}) {
    try {
      (void)make_metric<B>("float_ansnr", {}, picture_format{w, h, chroma_format::yuv420, bpc}, compat::libvmaf);
      ADD_FAILURE() << w << "x" << h << " " << bpc << "-bit was accepted";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::unsupported_format);
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW((void)make_metric<B>("float_ansnr", {}, picture_format{3, 3, chroma_format::yuv420, 8}));
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
