// The CLI on raw semi-planar files: an nv12 / nv21 / p010 file made from a fixture scores exactly (every
// value of --precision max JSON) as the planar file holding the same samples, on every backend; -p names
// imply -b, and a contradicting -b or a name vqm does not know is a one-line error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "common/semi_planar.hpp"
#include "vqm/io/y4m.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q += '\'';
}

class cli_semi_planar : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(VQM_CLI_WORK_DIR) / (std::string("semi_planar.") +
                                         testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs vqm; returns its exit status, stderr in err_.
  int vqm(const std::vector<std::string>& args) {
    std::string cmd = quote(VQM_CLI_PATH);
    for (const auto& a : args) (cmd += ' ') += quote(a);  // not " " + string: GCC 12 -O3 false -Wrestrict
    cmd += " >/dev/null 2>";
    cmd += quote(path("stderr.txt"));
    const int status = std::system(cmd.c_str());
    err_ = slurp(path("stderr.txt"));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }

  // The first `frames` frames of a fixture, as planar pictures (8-bit samples scaled to `depth`).
  static std::vector<picture> frames_of(const std::string& name, int frames, std::uint32_t depth) {
    io::y4m_reader r(std::string(VQM_FIXTURE_DIR) + "/" + name);
    std::vector<picture> out;
    picture p;
    for (int i = 0; i < frames && r.read(p); ++i) {
      picture_format f = p.format();
      f.bit_depth = depth;
      picture q(f);
      for (int pl = 0; pl < f.planes(); ++pl)
        for (std::uint32_t y = 0; y < f.plane_height(pl); ++y)
          for (std::uint32_t x = 0; x < f.plane_width(pl); ++x) put(q, pl, x, y, get(p, pl, x, y) << (depth - 8));
      out.push_back(std::move(q));
    }
    return out;
  }
  std::string write_raw(const std::string& name, const std::vector<picture>& pics, const picture_format* as = nullptr) {
    std::ofstream f(path(name), std::ios::binary);
    for (const auto& p : pics) {
      const picture q = as ? repack(p, *as) : p;
      f.write(reinterpret_cast<const char*>(q.bytes().data()), static_cast<std::streamsize>(q.bytes().size()));
    }
    return path(name);
  }
  // The scores of a run without its speed.
  json scores(std::vector<std::string> args, const std::string& out) {
    for (const char* a : {"--feature", "psnr", "--feature", "float_psnr", "--feature", "float_ssim", "--feature",
                          "float_ms_ssim", "--feature", "psnr_hvs", "--precision", "max", "--json", "-q", "-o"})
      args.emplace_back(a);
    args.push_back(path(out));
    EXPECT_EQ(vqm(args), 0) << err_;
    json j = json::parse(slurp(path(out)));
    j.erase("fps");
    return j;
  }

  fs::path dir_;
  std::string err_;
};

std::vector<std::string> backends() {
  std::vector<std::string> b{"cpu"};
  if (VQM_CLI_HAS_VULKAN) b.emplace_back("vulkan");  // lavapipe in CI
  return b;
}

TEST_F(cli_semi_planar, nv12_nv21_and_p010_files_score_as_their_planar_files) {
  const std::string ref = "motorcycle_183x177_420p8_ref.y4m", dis = "motorcycle_183x177_420p8_vp9crf40.y4m";
  for (std::uint32_t depth : {8u, 10u}) {
    const auto r = frames_of(ref, 3, depth), d = frames_of(dis, 3, depth);
    const std::string w = std::to_string(r[0].format().width), h = std::to_string(r[0].format().height);
    const auto pr = write_raw("ref.yuv", r), pd = write_raw("dis.yuv", d);
    for (const auto& backend : backends()) {
      const json want = scores({"-r", pr, "-d", pd, "-w", w, "-h", h, "-p", "420", "-b", std::to_string(depth),
                                "--backend", backend}, "planar.json");
      ASSERT_FALSE(want["frames"].empty());
      for (const char* name : depth == 8 ? std::vector<const char*>{"nv12", "nv21"} : std::vector<const char*>{"p010"}) {
        const picture_format f = make_format(*find_pixel_format(name), r[0].format().width, r[0].format().height);
        const auto sr = write_raw(std::string("ref.") + name, r, &f), sd = write_raw(std::string("dis.") + name, d, &f);
        EXPECT_EQ(scores({"-r", sr, "-d", sd, "-w", w, "-h", h, "-p", name, "--backend", backend}, "semi.json"), want)
            << name << " on " << backend;
      }
    }
  }
}

TEST_F(cli_semi_planar, our_nv12_is_what_ffmpeg_writes) {
  if (std::system("ffmpeg -version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no ffmpeg tool on this machine";
  const std::string ref = "motorcycle_183x177_420p8_ref.y4m";
  const auto r = frames_of(ref, 2, 8);
  const picture_format f = make_format(*find_pixel_format("nv12"), r[0].format().width, r[0].format().height);
  const auto ours = write_raw("ours.nv12", r, &f);
  std::string cmd = "ffmpeg -v error -y -i ";
  cmd += quote(std::string(VQM_FIXTURE_DIR) + "/" + ref);
  cmd += " -frames:v 2 -pix_fmt nv12 -f rawvideo ";
  cmd += quote(path("ffmpeg.nv12"));
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_TRUE(slurp(ours) == slurp(path("ffmpeg.nv12")));
}

TEST_F(cli_semi_planar, p010_implies_its_depth_and_a_contradicting_b_is_an_error) {
  const auto r = frames_of("motorcycle_183x177_420p8_ref.y4m", 1, 10);
  const picture_format f = make_format(*find_pixel_format("p010"), r[0].format().width, r[0].format().height);
  const auto p = write_raw("x.p010", r, &f);
  const std::string w = std::to_string(f.width), h = std::to_string(f.height);
  EXPECT_EQ(vqm({"-r", p, "-d", p, "-w", w, "-h", h, "-p", "p010", "-b", "10", "--feature", "psnr", "-n", "-q"}), 0) << err_;
  EXPECT_EQ(vqm({"-r", p, "-d", p, "-w", w, "-h", h, "-p", "p010", "-b", "8", "--feature", "psnr", "-n"}), 1);
  EXPECT_EQ(err_, "vqm: error: -p p010 is 10-bit but -b is 8 (leave -b out, or give -b 10)\n");
  EXPECT_NE(vqm({"-r", p, "-d", p, "-w", w, "-h", h, "-p", "p011", "--feature", "psnr", "-n"}), 0);
  EXPECT_NE(err_.find("'p011' is not a pixel format"), std::string::npos) << err_;
  EXPECT_EQ(vqm({"-r", p, "-d", p, "-w", w, "-h", h, "-p", "420", "--feature", "psnr", "-n"}), 1);
  EXPECT_NE(err_.find("needs all of -w, -h, -p and -b"), std::string::npos) << err_;
  // One frame and a stray byte: the error names both sizes.
  std::ofstream(p, std::ios::binary | std::ios::app).put('\0');
  EXPECT_EQ(vqm({"-r", p, "-d", p, "-w", w, "-h", h, "-p", "p010", "--feature", "psnr", "-n"}), 1);
  EXPECT_NE(err_.find("file size " + std::to_string(f.frame_bytes() + 1) + " is not a multiple of the frame size " +
                      std::to_string(f.frame_bytes()) + " (183x177 4:2:0 10-bit p010)"),
            std::string::npos)
      << err_;
}

}  // namespace
}  // namespace vqm::test
