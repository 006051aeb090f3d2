// psnr_hvs_kernel on a real Vulkan device (lavapipe in CI): ret per plane bit-identical to the Cpu kernel on
// every frame of every fixture pair psnr_hvs supports, and the dB values equal to libvmaf's.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <memory>

#include "vqm/io/y4m.hpp"
#include <cstdio>

#include "vqm/vulkan/engines/psnr_hvs_kernel.hpp"
#include "hvs_test_util.hpp"

namespace {

namespace vk = vqm::vulkan;

std::unique_ptr<vk::context> make_context(std::string& why) {
  if (!vk::available(&why)) return nullptr;
  // Validation where the layer is installed (CI installs it); GPU machines without it still run the test.
  vk::context_options o;
  o.enable_validation = true;
  try {
    return std::make_unique<vk::context>(o);
  } catch (const vqm::error& e) {
    if (std::string(e.what()).find("VK_LAYER_KHRONOS_validation") == std::string::npos) throw;
    std::fprintf(stderr, "note: %s; running without validation\n", e.what());
    o.enable_validation = false;
    return std::make_unique<vk::context>(o);
  }
}

// All frames of a pair uploaded into one host-visible buffer; `pad` extra bytes per row (0 = the kernel's
// own stride: one copy region per plane; otherwise one per row).
struct uploaded {
  std::vector<vqm::picture> ref, dis;
  vk::buffer buf;
  std::vector<std::array<vk::plane_binding, 3>> rb, db;
};

uploaded upload(const vk::context& ctx, const vqm::test_hvs::fixture_pair& p, std::uint32_t pad) {
  uploaded u;
  vqm::io::y4m_reader ra(std::string(VQM_FIXTURE_DIR) + "/" + p.ref), rd(std::string(VQM_FIXTURE_DIR) + "/" + p.dis);
  for (vqm::picture a, b; ra.read(a) && rd.read(b);) {
    u.ref.push_back(a);
    u.dis.push_back(b);
  }
  const auto& f = u.ref.front().format();
  const std::uint32_t bps = f.bit_depth > 8 ? 2 : 1;
  std::size_t total = 0;
  for (int p2 = 0; p2 < 3; ++p2) total += std::size_t{((f.plane_width(p2) * bps + 3u) & ~3u) + pad} * f.plane_height(p2);
  u.buf = vk::buffer(ctx, total * 2 * u.ref.size(), vk::memory_kind::upload);
  std::size_t off = 0;
  auto put = [&](const vqm::picture& pic) {
    std::array<vk::plane_binding, 3> b{};
    const auto v = vqm::with_chroma_rounding(pic.view(), vqm::chroma_rounding::floor);
    for (int pl = 0; pl < 3; ++pl) {
      const std::uint32_t stride = ((f.plane_width(pl) * bps + 3u) & ~3u) + pad;
      for (std::uint32_t y = 0; y < v.planes[pl].height; ++y)
        std::memcpy(u.buf.data() + off + std::size_t{y} * stride, v.planes[pl].row<std::byte>(y), v.planes[pl].width * bps);
      b[pl] = {u.buf, off, stride, v.planes[pl].width, v.planes[pl].height, f.bit_depth};
      off += std::size_t{stride} * f.plane_height(pl);
    }
    return b;
  };
  for (std::size_t i = 0; i < u.ref.size(); ++i) {
    u.rb.push_back(put(u.ref[i]));
    u.db.push_back(put(u.dis[i]));
  }
  u.buf.flush();
  return u;
}

TEST(HvsVulkan, MatchesCpuAndLibvmafOnFixtures) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device: " << why;
  const auto pairs = vqm::test_hvs::psnr_hvs_pairs();
  ASSERT_GE(pairs.size(), 20u);
  std::size_t frames = 0, pair_index = 0;
  for (const auto& p : pairs) {
    SCOPED_TRACE(p.name);
    const auto u = upload(*ctx, p, pair_index++ % 2 ? 12 : 0);
    const auto& f = u.ref.front().format();
    vk::psnr_hvs_kernel kernel(*ctx, f, vqm::chroma_rounding::floor);
    vk::buffer out(*ctx, 16 * u.ref.size(), vk::memory_kind::readback);
    {
      vk::one_shot os(*ctx);  // every frame in one command buffer: the kernel's barriers order the reuse
      for (std::size_t i = 0; i < u.ref.size(); ++i) kernel.record(os, u.rb[i], u.db[i], out, 16 * i);
      vk::to_host(*ctx, os);
      os.submit_and_wait();
    }
    out.invalidate();
    const vqm::psnr_hvs_algorithm alg(f, {}, vqm::compat::libvmaf);
    const auto ref_json = vqm::test_hvs::reference_json(p.name).at("features").at("psnr_hvs").at("metrics");
    for (std::size_t i = 0; i < u.ref.size(); ++i) {
      const auto va = vqm::with_chroma_rounding(u.ref[i].view(), vqm::chroma_rounding::floor);
      const auto vb = vqm::with_chroma_rounding(u.dis[i].view(), vqm::chroma_rounding::floor);
      vqm::psnr_hvs_partials part;
      for (int pl = 0; pl < 3; ++pl) {
        float gpu;
        std::memcpy(&gpu, out.data() + 16 * i + 4 * pl, 4);
        const float cpu = vqm::cpu::psnr_hvs_plane(va.planes[pl], vb.planes[pl], f.bit_depth, pl);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(gpu), std::bit_cast<std::uint32_t>(cpu))
            << "frame " << i << " plane " << pl << std::hexfloat << ": gpu " << gpu << " cpu " << cpu;
        part.ret[pl] = gpu;
      }
      double db[4];
      alg.scores(part, db);
      const char* names[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
      for (int k = 0; k < 4; ++k) {
        const double want = vqm::test_hvs::json_value(ref_json.at(names[k]).at(i));
        if (std::isnan(want) || std::isinf(want)) {
          EXPECT_EQ(std::isnan(db[k]), std::isnan(want)) << names[k] << " frame " << i;
          if (std::isinf(want)) {
            EXPECT_EQ(db[k], want) << names[k] << " frame " << i;
          }
        } else {
          EXPECT_NEAR(db[k], want, 1e-6) << names[k] << " frame " << i;
          EXPECT_EQ(db[k], want) << names[k] << " frame " << i << " (expected bit-exact)";
        }
      }
      ++frames;
    }
  }
  EXPECT_GT(frames, 90u);
  EXPECT_EQ(ctx->validation_errors(), 0u);
}

TEST(HvsVulkan, RejectsMismatchedPlanes) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device: " << why;
  const vqm::picture_format f{64, 48, vqm::chroma_format::yuv420, 8};
  vk::psnr_hvs_kernel kernel(*ctx, f);
  vk::buffer buf(*ctx, 64 * 48 * 3, vk::memory_kind::upload);
  std::array<vk::plane_binding, 3> b{{{buf, 0, 64, 64, 48, 8}, {buf, 3072, 32, 32, 24, 8}, {buf, 3840, 32, 32, 24, 8}}};
  auto bad = b;
  bad[1].width = 31;
  vk::one_shot os(*ctx);
  EXPECT_THROW(kernel.record(os, b, bad, buf, 0), vqm::error);
  EXPECT_THROW(vk::psnr_hvs_kernel(*ctx, vqm::picture_format{64, 48, vqm::chroma_format::yuv420, 16}), vqm::error);
  EXPECT_THROW(vk::psnr_hvs_kernel(*ctx, vqm::picture_format{64, 48, vqm::chroma_format::yuv400, 8}), vqm::error);
}

}  // namespace
