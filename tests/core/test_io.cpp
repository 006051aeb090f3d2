// Y4M and raw .yuv readers: colorspace tags, odd sizes, high bit depth, frame counting, and one clear
// vqm::error for each kind of broken file.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/temp_dir.hpp"
#include "vqm/io/open.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"
#include "vqm/thread_pool.hpp"
#include "common/test_namespace.hpp"

namespace vqm::io {
namespace VQM_TEST_UNIT {

class io_files : public test::temp_dir_test {
 protected:
  // A frame whose sample k is (k + seed) & 0xff (8-bit) or (k * 3 + seed) & mask, little-endian (16-bit).
  static std::string frame_bytes(const picture_format& f, int seed) {
    std::string s;
    const std::size_t samples = f.frame_bytes() / f.bytes_per_sample();
    for (std::size_t k = 0; k < samples; ++k) {
      if (f.bit_depth == 8) {
        s.push_back(static_cast<char>((k + seed) & 0xff));
      } else {
        const auto v = static_cast<std::uint16_t>((k * 3 + seed) & ((1u << f.bit_depth) - 1));
        s.push_back(static_cast<char>(v & 0xff));
        s.push_back(static_cast<char>(v >> 8));
      }
    }
    return s;
  }
  template <class Fn>
  static std::string error_of(Fn&& fn, errc* code = nullptr) {
    try {
      fn();
    } catch (const error& e) {
      if (code) *code = e.code();
      return e.what();
    }
    return "(no error)";
  }
};

TEST(y4m_colorspace, every_supported_tag) {
  struct row {
    const char* tag;
    chroma_format chroma;
    std::uint32_t depth;
  };
  for (const auto& r : {row{"420jpeg", chroma_format::yuv420, 8}, row{"420paldv", chroma_format::yuv420, 8},
                        row{"420mpeg2", chroma_format::yuv420, 8}, row{"420", chroma_format::yuv420, 8},
                        row{"422", chroma_format::yuv422, 8}, row{"444", chroma_format::yuv444, 8},
                        row{"mono", chroma_format::yuv400, 8}, row{"420p10", chroma_format::yuv420, 10},
                        row{"422p10", chroma_format::yuv422, 10}, row{"444p10", chroma_format::yuv444, 10},
                        row{"420p12", chroma_format::yuv420, 12}, row{"422p12", chroma_format::yuv422, 12},
                        row{"444p12", chroma_format::yuv444, 12}, row{"420p16", chroma_format::yuv420, 16},
                        row{"422p16", chroma_format::yuv422, 16}, row{"444p16", chroma_format::yuv444, 16},
                        row{"mono10", chroma_format::yuv400, 10}, row{"mono12", chroma_format::yuv400, 12},
                        row{"mono16", chroma_format::yuv400, 16}, row{"420p9", chroma_format::yuv420, 9},
                        row{"444p14", chroma_format::yuv444, 14}}) {
    y4m_colorspace cs{};
    ASSERT_TRUE(parse_y4m_colorspace(r.tag, cs)) << r.tag;
    EXPECT_EQ(cs.chroma, r.chroma) << r.tag;
    EXPECT_EQ(cs.bit_depth, r.depth) << r.tag;
  }
  y4m_colorspace cs{};
  for (const char* bad : {"411", "420p11", "420p", "mono8", "422jpeg", "", "444alpha", "420p100"})
    EXPECT_FALSE(parse_y4m_colorspace(bad, cs)) << bad;
}

TEST_F(io_files, reads_odd_size_frames_in_file_layout) {
  const picture_format f{5, 3, chroma_format::yuv420, 8};
  const auto a = frame_bytes(f, 0), b = frame_bytes(f, 7);
  const auto path = write("odd.y4m", "YUV4MPEG2 W5 H3 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\nFRAME\n" + a + "FRAME Ixyz\n" + b);
  y4m_reader r(path);
  EXPECT_EQ(r.format(), f);
  EXPECT_EQ(r.frame_count_hint(), 2u);
  picture p;
  ASSERT_TRUE(r.read(p));
  EXPECT_EQ(p.bytes().size(), 15u + 2u * 6u);  // chroma 3x2, rounded up
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size()), a);
  EXPECT_EQ(p.view().planes[1].width, 3u);
  ASSERT_TRUE(r.read(p));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size()), b);
  EXPECT_FALSE(r.read(p));
  EXPECT_EQ(r.frames_read(), 2u);
}

TEST_F(io_files, reads_high_bit_depth_little_endian) {
  const picture_format f{4, 2, chroma_format::yuv422, 10};
  const auto path = write("p10.y4m", "YUV4MPEG2 W4 H2 C422p10\nFRAME\n" + frame_bytes(f, 5));
  y4m_reader r(path);
  EXPECT_EQ(r.format(), f);
  picture p;
  ASSERT_TRUE(r.read(p));
  EXPECT_EQ(p.row<std::uint16_t>(0, 0)[1], 8u);         // k=1: 1*3+5
  EXPECT_EQ(p.row<std::uint16_t>(1, 1)[0], (10 * 3 + 5) & 1023u);  // luma 8 samples, Cb row 1 starts at k=10
}

TEST_F(io_files, skip_counts_frames) {
  const picture_format f{2, 2, chroma_format::yuv400, 8};
  std::string s = "YUV4MPEG2 W2 H2 Cmono\n";
  for (int i = 0; i < 3; ++i) s += "FRAME\n" + frame_bytes(f, i);
  y4m_reader r(write("mono.y4m", s));
  while (r.skip()) {
  }
  EXPECT_EQ(r.frames_read(), 3u);
}

TEST_F(io_files, y4m_errors_name_the_file_and_the_problem) {
  struct bad {
    const char* name;
    std::string bytes;
    const char* expect;
  };
  const picture_format f{4, 4, chroma_format::yuv420, 8};
  const auto frame = frame_bytes(f, 1);
  for (const auto& b : {bad{"empty.y4m", "", "empty file"},
                        bad{"nosig.y4m", "RIFF W4 H4\nFRAME\n", "not a Y4M file"},
                        bad{"noeol.y4m", "YUV4MPEG2 W4 H4 C420", "truncated Y4M header"},
                        bad{"now.y4m", "YUV4MPEG2 H4\n", "lacks the W"},
                        bad{"w0.y4m", "YUV4MPEG2 W0 H4\n", "width is 0"},
                        bad{"wbig.y4m", "YUV4MPEG2 W999999 H4\n", "implausibly large"},
                        bad{"wtext.y4m", "YUV4MPEG2 Wabc H4\n", "bad Y4M width"},
                        bad{"cs.y4m", "YUV4MPEG2 W4 H4 C411\n", "unsupported Y4M colorspace"},
                        bad{"inter.y4m", "YUV4MPEG2 W4 H4 It\n", "interlaced"}}) {
    const auto path = write(b.name, b.bytes);
    const auto msg = error_of([&] { y4m_reader r(path); });
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find(b.expect), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  // Frame-level problems name the frame.
  for (const auto& b : {bad{"trunc.y4m", "YUV4MPEG2 W4 H4\nFRAME\n" + frame + "FRAME\n" + frame.substr(0, 5),
                            "frame 1: truncated frame data (5 of 24 bytes"},
                        bad{"tag.y4m", "YUV4MPEG2 W4 H4\nFRAME\n" + frame + "FRAMX\n" + frame, "frame 1: expected a 'FRAME'"},
                        bad{"tagtrunc.y4m", "YUV4MPEG2 W4 H4\nFRAME\n" + frame + "FRA", "frame 1: truncated FRAME header"}}) {
    const auto path = write(b.name, b.bytes);
    y4m_reader r(path);
    picture p;
    ASSERT_TRUE(r.read(p));
    errc code{};
    const auto msg = error_of([&] { r.read(p); }, &code);
    EXPECT_EQ(code, errc::bad_input);
    EXPECT_NE(msg.find(path + ": " + b.expect), std::string::npos) << msg;
  }
}

TEST_F(io_files, missing_file_and_directory) {
  errc code{};
  auto msg = error_of([&] { y4m_reader r((dir_ / "nope.y4m").string()); }, &code);
  EXPECT_EQ(code, errc::io);
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  msg = error_of([&] { y4m_reader r(dir_.string()); }, &code);
  EXPECT_NE(msg.find("is a directory"), std::string::npos) << msg;
}

TEST_F(io_files, raw_yuv_frames_and_leftover_bytes) {
  const picture_format f{3, 3, chroma_format::yuv420, 16};
  const auto a = frame_bytes(f, 2), b = frame_bytes(f, 9);
  const auto path = write("raw.yuv", a + b);
  yuv_reader r(path, f);
  EXPECT_EQ(r.frame_count_hint(), 2u);
  picture p;
  ASSERT_TRUE(r.read(p));
  ASSERT_TRUE(r.read(p));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size()), b);
  EXPECT_FALSE(r.read(p));

  const auto odd = write("odd.yuv", a + b + "xyz");
  const auto msg = error_of([&] { yuv_reader bad(odd, f); });
  EXPECT_NE(msg.find(odd), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 frames and 3 bytes left over"), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { yuv_reader z(path, picture_format{0, 3}); }).find("zero dimension"), std::string::npos);
  EXPECT_NE(error_of([&] { yuv_reader z(path, picture_format{40000, 3}); }).find("implausibly large"), std::string::npos);
}

// read_into (frames straight into the caller's memory, checked above 8 bits through 256 KiB bounce
// buffers; on one thread, and in parts on a pool for frames of 2 MiB and more): the bytes read() gives,
// frame by frame across chunk and part boundaries, and the same one-line errors for a sample out of range
// (in the last chunk) and a truncated frame (inside a later part).
TEST_F(io_files, read_into_gives_what_read_gives) {
  thread_pool pool(3);
  for (const auto& f : {picture_format{600, 300, chroma_format::yuv420, 10}, picture_format{97, 61, chroma_format::yuv444, 8},
                        picture_format{600, 300, chroma_format::yuv422, 12}, picture_format{1920, 1080, chroma_format::yuv420, 8},
                        picture_format{1920, 1088, chroma_format::yuv420, 10}})
  for (executor* ex : {static_cast<executor*>(nullptr), static_cast<executor*>(&pool)}) {
    SCOPED_TRACE(describe(f) + (ex ? ", in parallel" : ""));
    const std::string frames = frame_bytes(f, 1) + frame_bytes(f, 7) + frame_bytes(f, 3);
    const auto c = f.chroma == chroma_format::yuv420 ? "420" : f.chroma == chroma_format::yuv422 ? "422" : "444";
    const std::string header = "YUV4MPEG2 W" + std::to_string(f.width) + " H" + std::to_string(f.height) + " C" + c +
                               (f.bit_depth > 8 ? "p" + std::to_string(f.bit_depth) : std::string()) + "\n";
    std::string y4m = header;
    for (std::size_t k = 0; k < 3; ++k) y4m += "FRAME\n" + frames.substr(k * f.frame_bytes(), f.frame_bytes());
    const auto y4m_path = write("into.y4m", y4m), raw_path = write("into.yuv", frames);
    y4m_reader a(y4m_path), b(y4m_path);
    yuv_reader ra(raw_path, f), rb(raw_path, f);
    b.read_in_parallel(ex, 4);
    rb.read_in_parallel(ex, 4);
    for (const auto& pair : {std::pair<frame_source*, frame_source*>{&a, &b}, {&ra, &rb}}) {
      frame_source *x = pair.first, *y = pair.second;  // plain names: lambdas below capture them
      picture p;
      std::vector<std::byte> mem(f.frame_bytes());
      std::size_t n = 0;
      for (bool more = true; more; ++n) {
        more = x->read(p);
        ASSERT_EQ(y->read_into(mem), more);
        if (more) {
          EXPECT_TRUE(std::equal(mem.begin(), mem.end(), p.bytes().begin())) << "frame " << n;
        }
      }
      EXPECT_EQ(y->frames_read(), 3u);
      std::vector<std::byte> wrong(f.frame_bytes() + 2);
      EXPECT_NE(error_of([&] { y->read_into(wrong); }).find("frame_source::read_into: "), std::string::npos);
    }
    // Frame 1 with a sample above the bit depth near its end (the last chunk; 8-bit samples cannot be);
    // frame 1 truncated. Y4M, and the same bytes as raw .yuv.
    std::string out_of_range = frames;
    out_of_range[2 * f.frame_bytes() - 4] = out_of_range[2 * f.frame_bytes() - 3] = static_cast<char>(0xff);
    const std::size_t cut = f.frame_bytes() * 5 / 8 + 1;  // inside a part other than the first, in parallel
    const std::string truncated = frames.substr(0, f.frame_bytes() + cut);
    std::vector<std::tuple<std::string, std::string, std::string>> cases{
        {"short", truncated, "truncated frame data (" + std::to_string(cut) + " of "}};
    if (f.bit_depth > 8) cases.emplace_back("range", out_of_range, "above the " + std::to_string(f.bit_depth) + "-bit maximum");
    for (const auto& [name, bytes, expect] : cases) {
      std::string file = header;
      for (std::size_t k = 0; k * f.frame_bytes() < bytes.size(); ++k)
        file += "FRAME\n" + bytes.substr(k * f.frame_bytes(), f.frame_bytes());
      const auto path = write(name + ".y4m", file);
      y4m_reader c1(path), c2(path);
      c2.read_in_parallel(ex, 4);
      // Raw: the out-of-range frames (a truncated raw file is refused when opened: its size counts frames).
      const auto raw = write(name + ".yuv", name == "short" ? frames : bytes);
      yuv_reader r1(raw, f), r2(raw, f);
      r2.read_in_parallel(ex, 4);
      std::vector<std::pair<frame_source*, frame_source*>> readers{{&c1, &c2}};
      if (name != "short") readers.emplace_back(&r1, &r2);
      for (const auto& pair : readers) {
        frame_source *x = pair.first, *y = pair.second;
        picture p;
        std::vector<std::byte> mem(f.frame_bytes());
        ASSERT_TRUE(x->read(p));
        ASSERT_TRUE(y->read_into(mem));
        errc want{}, got{};
        const auto msg = error_of([&] { x->read(p); }, &want);
        EXPECT_EQ(error_of([&] { y->read_into(mem); }, &got), msg);
        EXPECT_EQ(got, errc::bad_input);
        EXPECT_EQ(want, errc::bad_input);
        EXPECT_NE(msg.find(x->path() + ": frame 1: "), std::string::npos) << msg;
        EXPECT_NE(msg.find(expect), std::string::npos) << msg;
      }
    }
  }
}

TEST_F(io_files, open_frame_source_sniffs_the_signature) {
  const picture_format f{2, 2, chroma_format::yuv444, 8};
  const auto y4m = write("named.yuv", "YUV4MPEG2 W2 H2 C444\nFRAME\n" + frame_bytes(f, 0));
  EXPECT_EQ(open_frame_source(y4m, std::nullopt)->format(), f);  // a Y4M, whatever its name
  const auto raw = write("raw.yuv", frame_bytes(f, 0));
  // The library names its own fix (the picture format), no command-line flag; the code lets a front end
  // name its own.
  errc code{};
  const std::string msg = error_of([&] { (void)open_frame_source(raw, std::nullopt); }, &code);
  EXPECT_EQ(code, errc::raw_format);
  EXPECT_NE(msg.find(raw_format_needed), std::string::npos) << msg;
  EXPECT_EQ(msg.find(" -w"), std::string::npos) << msg;
  EXPECT_EQ(open_frame_source(raw, f)->frame_count_hint(), 1u);
}

}  // namespace
}  // namespace vqm::io
