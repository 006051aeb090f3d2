// Semi-planar frames from FFmpeg (as hardware decoders and raw captures hand them over): the reader
// passes them through as they are stored (nv12/nv21 rawvideo in NUT: the same bytes as the planar source
// frames interleaved, scored as the planar frames), and maps every semi-planar pixel format it knows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "common/semi_planar.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/ffmpeg_reader.hpp"
#include "vqm/io/y4m.hpp"

namespace vqm::test {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q += '\'';
}

// The first 3 frames of a fixture as rawvideo `pix_fmt` in NUT, made with the ffmpeg tool.
std::string nut(const std::string& fixture, const std::string& pix_fmt) {
  const fs::path dir = fs::path(VQM_FFMPEG_WORK_DIR) / ("semi_planar." + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto out = (dir / (pix_fmt + ".nut")).string();
  std::string cmd = quote(VQM_FFMPEG_TOOL);
  cmd += " -hide_banner -loglevel error -nostdin -y -i ";
  cmd += quote(std::string(VQM_FIXTURE_DIR) + "/" + fixture);
  cmd += " -frames:v 3 -pix_fmt ";
  cmd += pix_fmt;
  cmd += " -c:v rawvideo ";
  cmd += quote(out);
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("ffmpeg failed: " + cmd);
  return out;
}

void expect_passed_through(const std::string& fixture, const std::string& pix_fmt) {
  SCOPED_TRACE(fixture + " as " + pix_fmt);
  io::y4m_reader src(std::string(VQM_FIXTURE_DIR) + "/" + fixture);
  io::ffmpeg_reader dec(nut(fixture, pix_fmt));
  const picture_format want = make_format(*find_pixel_format(pix_fmt), src.format().width, src.format().height);
  ASSERT_EQ(dec.format(), want) << describe(dec.format());
  Cpu cpu;
  const Psnr<Cpu> psnr(want);
  picture planar, stored, previous_planar, previous_stored;
  int n = 0;
  while (dec.read(stored)) {
    ASSERT_TRUE(src.read(planar));
    const picture expected = repack(planar, want);
    EXPECT_TRUE(std::equal(stored.bytes().begin(), stored.bytes().end(), expected.bytes().begin(),
                           expected.bytes().end()))
        << "frame " << n;
    if (n > 0) {  // consecutive frames as a pair: the semi-planar view scores as the planar one
      EXPECT_EQ(compute(cpu, psnr, previous_stored, stored), compute(cpu, psnr, previous_planar, planar)) << n;
    }
    previous_planar = std::move(planar);
    previous_stored = std::move(stored);
    planar = {};
    stored = {};
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(ffmpeg_semi_planar, nv12_and_nv21_frames_are_passed_through) {
  expect_passed_through("motorcycle_183x177_420p8_ref.y4m", "nv12");  // odd size
  expect_passed_through("motorcycle_183x177_420p8_ref.y4m", "nv21");
}

// Containers do not carry rawvideo p010 & co. (hardware decoders hand them over): the pixel formats'
// descriptors map to the table's formats, and the big-endian ones are refused.
TEST(ffmpeg_semi_planar, pixel_formats_map_to_the_named_formats) {
  for (const char* name : {"nv12", "nv21", "nv16", "nv24", "nv42", "nv20le", "p010le", "p016le", "p210le", "p216le",
                           "p410le", "p416le", "yuv420p", "yuv422p10le", "gray12le"}) {
    const AVPixelFormat f = av_get_pix_fmt(name);
    ASSERT_NE(f, AV_PIX_FMT_NONE) << name;
    const auto got = io::ffmpeg_detail::stored_format(f);
    ASSERT_TRUE(got.has_value()) << name;
    EXPECT_EQ(*got, make_format(*find_pixel_format(name), 0, 0)) << name << ": " << describe(*got);
  }
  for (const char* name : {"p010be", "nv20be", "rgb24", "yuva420p", "uyvy422"})
    EXPECT_FALSE(io::ffmpeg_detail::stored_format(av_get_pix_fmt(name)).has_value()) << name;
}

}  // namespace
}  // namespace vqm::test
