// picture_format / picture geometry: plane sizes for every chroma format and odd sizes, file layout.
#include <gtest/gtest.h>

#include "vqm/picture.hpp"
#include "common/test_namespace.hpp"

namespace vqm {
namespace VQM_TEST_UNIT {

TEST(picture_format, plane_sizes_round_up_by_default_and_down_on_request) {
  const picture_format f{177, 99, chroma_format::yuv420, 8};
  EXPECT_EQ(f.planes(), 3);
  EXPECT_EQ(f.plane_width(0), 177u);
  EXPECT_EQ(f.plane_height(0), 99u);
  EXPECT_EQ(f.plane_width(1), 89u);
  EXPECT_EQ(f.plane_height(2), 50u);
  EXPECT_EQ(f.plane_width(1, chroma_rounding::floor), 88u);
  EXPECT_EQ(f.plane_height(1, chroma_rounding::floor), 49u);
  EXPECT_EQ(f.frame_bytes(), 177u * 99u + 2u * 89u * 50u);
}

TEST(picture_format, chroma_formats) {
  const picture_format f422{321, 199, chroma_format::yuv422, 10};
  EXPECT_EQ(f422.plane_width(1), 161u);
  EXPECT_EQ(f422.plane_height(1), 199u);
  EXPECT_EQ(f422.bytes_per_sample(), 2u);
  EXPECT_EQ(f422.frame_bytes(), 2u * (321u * 199u + 2u * 161u * 199u));
  const picture_format f444{5, 3, chroma_format::yuv444, 12};
  EXPECT_EQ(f444.plane_width(2, chroma_rounding::floor), 5u);
  EXPECT_EQ(f444.frame_bytes(), 2u * 3u * 15u);
  const picture_format gray{6, 4, chroma_format::yuv400, 16};
  EXPECT_EQ(gray.planes(), 1);
  EXPECT_EQ(gray.plane_width(1), 0u);
  EXPECT_EQ(gray.frame_bytes(), 48u);
}

TEST(picture, planes_are_packed_back_to_back_in_file_layout) {
  picture p(picture_format{3, 3, chroma_format::yuv420, 8});
  ASSERT_EQ(p.bytes().size(), 9u + 2u * 4u);
  EXPECT_EQ(p.plane_data(1) - p.plane_data(0), 9);
  EXPECT_EQ(p.plane_data(2) - p.plane_data(1), 4);
  EXPECT_EQ(p.stride(1), 2);
  const auto v = p.view();
  EXPECT_EQ(v.planes[1].width, 2u);
  const auto fl = with_chroma_rounding(v, chroma_rounding::floor);
  EXPECT_EQ(fl.planes[1].width, 1u);
  EXPECT_EQ(fl.planes[1].height, 1u);
  EXPECT_EQ(fl.planes[1].stride, v.planes[1].stride);  // same samples, smaller window
  EXPECT_EQ(fl.planes[0].width, 3u);
}

TEST(picture, rejects_zero_size_and_bad_depth) {
  picture p;
  EXPECT_THROW(p.reset(picture_format{0, 4}), error);
  EXPECT_THROW(p.reset(picture_format{4, 4, chroma_format::yuv420, 17}), error);
}

TEST(picture_format, describe) { EXPECT_EQ(describe(picture_format{176, 99, chroma_format::yuv422, 10}), "176x99 4:2:2 10-bit"); }

}  // namespace
}  // namespace vqm
