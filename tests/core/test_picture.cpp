// picture_format / picture geometry: plane sizes for every chroma format and odd sizes, file layout.
#include <gtest/gtest.h>

#include <cstdint>

#include "vqm/detail/big_buffer.hpp"
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

// A 1080p picture's storage comes 2 MiB-aligned (huge pages on Linux), zero-filled, and survives growth
// and copies like any vector; small blocks stay ordinary allocations.
TEST(picture, large_storage_is_aligned_for_huge_pages_and_zeroed) {
  picture p(picture_format{1920, 1080, chroma_format::yuv420, 8});
  const auto bytes = p.bytes();
  ASSERT_EQ(bytes.size(), 1920u * 1080u * 3u / 2u);
#if defined(__linux__)
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bytes.data()) % (std::uintptr_t{2} << 20), 0u);
#endif
  std::size_t nonzero = 0;
  for (const std::byte b : bytes) nonzero += b != std::byte{0};
  EXPECT_EQ(nonzero, 0u);
  bytes[bytes.size() - 1] = std::byte{7};
  const picture copy = p;
  EXPECT_EQ(copy.bytes()[bytes.size() - 1], std::byte{7});
  p.reset(picture_format{3840, 2160, chroma_format::yuv444, 16});  // grows: a new block, contents zero
  EXPECT_EQ(p.bytes()[bytes.size() - 1], std::byte{0});
  detail::big_vector<std::int32_t> small(16, 5), moved = std::move(small);
  EXPECT_EQ(moved[15], 5);
}

TEST(picture_format, describe) { EXPECT_EQ(describe(picture_format{176, 99, chroma_format::yuv422, 10}), "176x99 4:2:2 10-bit"); }

}  // namespace
}  // namespace vqm
