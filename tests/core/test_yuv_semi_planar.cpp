// Raw .yuv input of semi-planar and MSB-aligned formats (nv12, p010, ...): frames read as stored, the
// same bytes ffmpeg's rawvideo writes; one clear error for a size that is not a whole number of frames
// and for samples that do not fit.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "common/semi_planar.hpp"
#include "common/temp_dir.hpp"
#include "vqm/io/open.hpp"
#include "vqm/io/yuv.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

class yuv_semi_planar : public temp_dir_test {
 protected:
  static std::string bytes_of(const picture& p) {
    return {reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size()};
  }
};

TEST_F(yuv_semi_planar, frames_are_read_as_stored) {
  for (const char* name : {"nv12", "nv21", "nv16", "nv24", "p010", "p012", "p016", "p210", "p410"}) {
    const picture_format f = make_format(*find_pixel_format(name), 7, 5);  // odd: ceil chroma, as ffmpeg writes
    const picture a = repack(synthetic(planar_equivalent(f), 0, false), f);
    const picture b = repack(synthetic(planar_equivalent(f), 1, true), f);
    const auto path = write(std::string("in.") + name, bytes_of(a) + bytes_of(b));
    auto src = io::open_frame_source(path, f);
    EXPECT_EQ(src->format(), f);
    EXPECT_EQ(src->frame_count_hint(), 2u);
    picture p;
    ASSERT_TRUE(src->read(p)) << name;
    EXPECT_EQ(bytes_of(p), bytes_of(a)) << name;
    EXPECT_EQ(p.view().planes[1].width, f.plane_width(1)) << name;
    ASSERT_TRUE(src->read(p)) << name;
    EXPECT_EQ(bytes_of(p), bytes_of(b)) << name;
    EXPECT_FALSE(src->read(p)) << name;
  }
}

TEST_F(yuv_semi_planar, nv12_is_the_size_of_its_planar_equivalent) {
  const picture_format f = make_format(*find_pixel_format("nv12"), 5, 3);
  EXPECT_EQ(f.frame_bytes(), 15u + 2u * 3u * 2u);  // Y 5x3, then 3x2 CbCr pairs
  EXPECT_EQ(make_format(*find_pixel_format("p010"), 5, 3).frame_bytes(), 2 * f.frame_bytes());
}

TEST_F(yuv_semi_planar, a_size_that_is_not_a_whole_number_of_frames_names_both_sizes) {
  const picture_format f = make_format(*find_pixel_format("p010"), 4, 4);  // 48 bytes a frame
  const auto path = write("odd.p010", std::string(2 * f.frame_bytes() + 5, '\0'));
  try {
    (void)io::open_frame_source(path, f);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::raw_format);  // the format given does not fit the file
    EXPECT_EQ(std::string(e.what()), path + ": file size 101 is not a multiple of the frame size 48 (4x4 4:2:0 10-bit "
                                            "p010): 2 frames and 5 bytes left over; check the width, height, pixel format and bit depth given for it");
  }
}

TEST_F(yuv_semi_planar, a_sample_above_the_depth_names_its_plane_and_position) {
  const picture_format f = make_format(*find_pixel_format("nv20"), 4, 2);  // 10-bit, LSB-aligned
  picture p(f);
  put(p, 1, 3, 0, 2000);  // the second chroma pair's Cr
  const auto path = write("bad.nv20", bytes_of(p));
  io::yuv_reader r(path, f);
  picture q;
  try {
    (void)r.read(q);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": frame 0: plane 2 (Cr) sample at x=1, y=0 is 2000, above the 10-bit "
                                            "maximum 1023 (check the bit depth given for it, or the file is corrupt)");
  }
}

TEST_F(yuv_semi_planar, gray_cannot_be_semi_planar) {
  const picture_format f{4, 4, chroma_format::yuv400, 8, chroma_layout::uv};
  const auto path = write("gray.yuv", std::string(16, '\0'));
  EXPECT_THROW(io::yuv_reader(path, f), error);
}

}  // namespace
}  // namespace vqm::test
