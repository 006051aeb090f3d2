// vulkan::host_picture: frames read straight into host memory the device copies from (what the CLI does
// with Y4M/raw input). Every value equals the host-view upload's, on 8/12-bit, odd sizes (libvmaf's floor
// chroma), 4:4:4 and semi-planar pictures; nothing is copied on the host (host_bytes_uploaded stays 0);
// multi_session takes them for the distorted; a Y4M/raw reader's read_into writes the bytes read() does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "common/multi_session_check.hpp"
#include "common/semi_planar.hpp"
#include "vk_test_util.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm;

// VMAF + the five metrics (float_ms_ssim where the picture has its 176x176).
session_config every_metric(std::size_t depth, compat mode, const picture_format& f) {
  session_config c = test::multi_config(depth, 1, mode);
  for (const char* m : {"float_psnr", "psnr_hvs"}) c.features.push_back(parse_feature_request(m));
  if (f.width >= 176 && f.height >= 176) c.features.push_back(parse_feature_request("float_ms_ssim"));
  return c;
}

// Copies a picture into a host_picture as a file read would (the packed frame bytes).
void fill(const vulkan::host_picture& hp, const picture& p) {
  ASSERT_EQ(hp.bytes().size(), p.bytes().size());
  std::memcpy(hp.bytes().data(), p.bytes().data(), p.bytes().size());
  hp.flush();
}

// One session fed host views, one fed host pictures (a ring of depth + 1, rewritten as the CLI does):
// the same table, and no host bytes uploaded by the second.
void check_pair(const std::vector<picture>& ref, const std::vector<picture>& dis, compat mode, const std::string& what) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto& f = ref.front().format();
  Vulkan v(ctx);
  const auto cfg = every_metric(v.frames_in_flight(), mode, f);
  session<Vulkan> views(v, f, cfg);
  for (std::size_t i = 0; i < ref.size(); ++i) views.push(ref[i].view(), dis[i].view());
  const auto want = views.finish();

  for (const auto access : {vulkan::host_access::write, vulkan::host_access::read_write}) {
    const std::string how = what + (access == vulkan::host_access::write ? " (write)" : " (read_write)");
    Vulkan w(ctx);
    session<Vulkan> s(w, f, cfg);
    std::vector<vulkan::host_picture> r, d;
    for (std::size_t i = 0; i <= s.depth(); ++i) {
      r.push_back(w.host_picture(f, access));
      d.push_back(w.host_picture(f, access));
    }
    if (access == vulkan::host_access::read_write) {
      EXPECT_FALSE(r.front().device_local());
    }
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const std::size_t k = i % r.size();  // frame i - depth - 1, its previous user, has completed
      fill(r[k], ref[i]);
      fill(d[k], dis[i]);
      s.push(r[k].gpu(), d[k].gpu());
    }
    test::expect_same_table(s.finish(), want, how);
    EXPECT_EQ(w.host_bytes_uploaded(), 0u) << how;
  }
}

TEST(VulkanHostPicture, EqualsHostViews) {
  for (const auto& [r, d, mode] :
       {std::tuple{"rocket_177x99_420p8_ref.y4m", "rocket_177x99_420p8_x264crf35.y4m", compat::libvmaf},
        std::tuple{"rocket_177x99_420p8_ref.y4m", "rocket_177x99_420p8_noise10.y4m", compat::none},
        std::tuple{"mandelbrot_576x324_420p12_ref.y4m", "mandelbrot_576x324_420p12_x265crf30.y4m", compat::none},
        std::tuple{"astronaut_576x324_444p8_ref.y4m", "astronaut_576x324_444p8_vp9crf40.y4m", compat::none},
        std::tuple{"coffee_645x643_420p8_ref.y4m", "coffee_645x643_420p8_x264crf33.y4m", compat::libvmaf}}) {
    auto ref = test::read_all(test::fixture(r)), dis = test::read_all(test::fixture(d));
    ref.resize(std::min<std::size_t>(ref.size(), 6));
    dis.resize(ref.size());
    check_pair(ref, dis, mode, d);
  }
}

TEST(VulkanHostPicture, SemiPlanarEqualsHostViews) {
  const auto rocket = test::read_all(test::fixture("rocket_177x99_420p8_ref.y4m"));
  const auto noisy = test::read_all(test::fixture("rocket_177x99_420p8_noise10.y4m"));
  for (const char* name : {"nv12", "p010"}) {
    const bool eight = std::string(name) == "nv12";
    const picture_format f = make_format(*find_pixel_format(name), eight ? 177 : 64, eight ? 99 : 36);
    std::vector<picture> ref, dis;
    for (int i = 0; i < 5; ++i) {
      ref.push_back(test::repack(eight ? test::repack(rocket[i], planar_equivalent(f)) : test::synthetic(f, i, false), f));
      dis.push_back(test::repack(eight ? test::repack(noisy[i], planar_equivalent(f)) : test::synthetic(f, i, true), f));
    }
    check_pair(ref, dis, compat::none, name);
  }
}

// Three distorted as host pictures against the reference as a host view (uploaded once: only its bytes
// are copied on the host) or as a host picture pushed to every distorted's frame: the tables of separate
// sessions.
TEST(VulkanHostPicture, MultiSessionEqualsSeparateSessions) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = test::read_all(test::fixture("rocket_177x99_420p8_ref.y4m"));
  const std::vector<std::vector<picture>> dis{test::read_all(test::fixture("rocket_177x99_420p8_x264crf35.y4m")),
                                              test::read_all(test::fixture("rocket_177x99_420p8_noise10.y4m")), refs};
  const auto& f = refs.front().format();
  for (const bool ref_as_host_picture : {false, true}) {
    SCOPED_TRACE(ref_as_host_picture ? "reference as a host picture" : "reference as a host view");
    Vulkan v(ctx);
    const auto cfg = test::multi_config(v.frames_in_flight(), 1, compat::none);
    multi_session<Vulkan> m(v, f, cfg, dis.size());
    std::vector<std::vector<vulkan::host_picture>> ring(dis.size() + 1);
    for (auto& side : ring)
      for (std::size_t i = 0; i <= m.depth(); ++i) side.push_back(v.host_picture(f));
    std::vector<vulkan::gpu_picture> g(dis.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const std::size_t slot = i % ring[0].size();
      for (std::size_t k = 0; k < dis.size(); ++k) {
        fill(ring[k + 1][slot], dis[k][i]);
        g[k] = ring[k + 1][slot].gpu();
      }
      fill(ring[0][slot], refs[i]);
      if (ref_as_host_picture) m.push(ring[0][slot].gpu(), std::span<const vulkan::gpu_picture>(g));
      else m.push(refs[i].view(), std::span<const vulkan::gpu_picture>(g));
    }
    const auto got = m.finish();
    EXPECT_EQ(v.host_bytes_uploaded(), ref_as_host_picture ? 0u : refs.size() * f.frame_bytes());
    ASSERT_EQ(got.size(), dis.size());
    for (std::size_t k = 0; k < dis.size(); ++k) {
      session<Vulkan> s(v, f, cfg);
      for (std::size_t i = 0; i < refs.size(); ++i) s.push(refs[i].view(), dis[k][i].view());
      test::expect_same_table(got[k], s.finish(), "distorted " + std::to_string(k));
    }
  }
}

// host_written is for host-visible buffers the host wrote: with wait semaphores or on an image plane it is
// refused (the frame would drop the barrier that orders GPU writes).
TEST(VulkanHostPicture, HostWrittenIsRefusedWithSemaphoresOrImages) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  const picture_format f{64, 48, chroma_format::yuv420, 8};
  const auto hp = v.host_picture(f);
  auto g = hp.gpu();
  EXPECT_TRUE(g.host_written);
  EXPECT_NO_THROW((void)v.begin_frame(g, g));
  auto waits = g;
  waits.wait[0] = {reinterpret_cast<VkSemaphore>(std::uintptr_t{1}), 0};
  waits.wait_count = 1;
  EXPECT_THROW((void)v.begin_frame(waits, g), error);
  auto image = g;
  image.planes[1] = {};
  image.planes[1].image = reinterpret_cast<VkImage>(std::uintptr_t{1});
  EXPECT_THROW((void)v.begin_frame(g, image), error);
}

// The file readers' read_into: the bytes read() gives, straight into a host picture; the same end of file,
// and a destination of the wrong size refused. Y4M, and the same frames as a raw .yuv file.
void check_read_into(io::frame_source& a, io::frame_source& b, const vulkan::host_picture& hp) {
  picture p;
  std::size_t n = 0;
  for (;; ++n) {
    const bool got = a.read(p);
    ASSERT_EQ(b.read_into(hp.bytes()), got);
    if (!got) break;
    EXPECT_TRUE(std::equal(p.bytes().begin(), p.bytes().end(), hp.bytes().begin())) << "frame " << n;
  }
  EXPECT_GT(n, 0u);
  EXPECT_EQ(b.frames_read(), n);
  std::vector<std::byte> small(a.format().frame_bytes() - 1);
  EXPECT_THROW((void)b.read_into(small), error);
}

TEST(VulkanHostPicture, ReadIntoGivesTheBytesReadGives) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  for (const char* name : {"mandelbrot_576x324_420p12_ref.y4m", "motorcycle_183x177_420p8_ref.y4m"}) {
    SCOPED_TRACE(name);
    const std::string path = test::fixture(name);
    io::y4m_reader a(path), b(path);
    check_read_into(a, b, v.host_picture(a.format()));

    const std::string raw = testing::TempDir() + "/vqm_host_picture.yuv";
    const auto frames = test::read_all(path);
    {
      std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(raw.c_str(), "wb"), &std::fclose);
      ASSERT_TRUE(out);
      for (const auto& fr : frames) ASSERT_EQ(std::fwrite(fr.bytes().data(), 1, fr.bytes().size(), out.get()), fr.bytes().size());
    }
    io::yuv_reader c(raw, a.format()), d(raw, a.format());
    check_read_into(c, d, v.host_picture(a.format()));
    std::remove(raw.c_str());
  }
}

}  // namespace
