// ciede on Vulkan: libvmaf's values (tests/data/reference-vmaf, every ciede run, per frame, ==), the host
// fallback (VQM_CIEDE_FALLBACK=all: every pixel on the host, same values), and random pictures of every
// depth, chroma format and odd sizes equal to the Cpu backend's, in both upsampling modes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <random>
#include <string>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "vqm/vulkan/spirv/ciede_math_test.hpp"
#include "common/reference_data.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

Vulkan* gpu(std::string* why) {
  static auto ctx = vk_context(why);
  if (!ctx) return nullptr;
  static Vulkan v(ctx);
  return &v;
}

template <class B>
std::vector<double> ciede_series(B& b, const std::vector<picture>& ref, const std::vector<picture>& dis, compat c) {
  std::vector<any_metric<B>> m;
  m.push_back(make_metric<B>("ciede", {}, ref.front().format(), c));
  scorer<B> sc(b, std::move(m), c, 2);
  std::vector<double> out;
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (auto r = sc.push(ref[i], dis[i])) out.push_back(r->values[0]);
  while (auto r = sc.pop()) out.push_back(r->values[0]);
  return out;
}

// Every reference-vmaf pair with a ciede run libvmaf could do: each frame's ciede2000 == libvmaf's.
std::size_t check_reference(Vulkan& v) {
  std::size_t compared = 0;
  for (const auto& pair : vmaf_reference_pairs()) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    for (const auto& [key, run] : j.at("features").items()) {
      if (run.at("cli_args").get<std::string>() != "--feature ciede" || run.at("status").get<std::string>() != "ok")
        continue;
      const auto& [ref, dis] = frames_of(j);
      if (ciede_reads_past_picture(ref.front().format())) continue;
      const auto got = ciede_series(v, ref, dis, compat::libvmaf);
      const auto& want = run.at("metrics").at("ciede2000");
      EXPECT_EQ(got.size(), want.size()) << pair;
      for (std::size_t i = 0; i < got.size() && i < want.size(); ++i, ++compared)
        EXPECT_PRED2(same, got[i], to_double(want[i])) << pair << " frame " << i << ": got " << std::hexfloat
                                                       << got[i] << ", want " << to_double(want[i]);
    }
  }
  return compared;
}

TEST(VulkanCiede, EveryReferenceRunMatchesLibvmaf) {
  std::string why;
  Vulkan* v = gpu(&why);
  if (!v) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  const auto p0 = vulkan::ciede_counters::pixels().load(), f0 = vulkan::ciede_counters::fallbacks().load();
  const std::size_t compared = check_reference(*v);
  EXPECT_GT(compared, 20u);
  const auto p = vulkan::ciede_counters::pixels() - p0, f = vulkan::ciede_counters::fallbacks() - f0;
  EXPECT_GT(p, 0u);
  std::printf("[ ciede ] %zu frames == libvmaf; %llu of %llu pixels (%.4g%%) computed on the host\n", compared,
              static_cast<unsigned long long>(f), static_cast<unsigned long long>(p), p ? 100.0 * f / p : 0.0);
}

// The host fallback for every pixel: its own Vulkan programs (the variable is read when they are built).
TEST(VulkanCiede, EveryPixelOnTheHostGivesTheSameValues) {
  std::string why;
  if (!vk_context(&why)) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  setenv("VQM_CIEDE_FALLBACK", "all", 1);
  Vulkan v(vk_context());
  const auto p0 = vulkan::ciede_counters::pixels().load(), f0 = vulkan::ciede_counters::fallbacks().load();
  EXPECT_GT(check_reference(v), 20u);
  unsetenv("VQM_CIEDE_FALLBACK");
  EXPECT_EQ(vulkan::ciede_counters::pixels() - p0, vulkan::ciede_counters::fallbacks() - f0);
}

picture random_picture(const picture_format& f, std::mt19937& rng, int kind) {
  picture p(f);
  const std::uint32_t max = (1u << f.bit_depth) - 1;
  std::uniform_int_distribution<std::uint32_t> full(0, max), near(0, 3);
  const auto view = p.view();
  for (int pl = 0; pl < f.planes(); ++pl) {
    const auto& v = view.planes[pl];
    for (std::uint32_t y = 0; y < v.height; ++y)
      for (std::uint32_t x = 0; x < v.width; ++x) {
        // kind 0: any sample; 1: near grey chroma / black (hue, zero-chroma and dark branches).
        std::uint32_t s = full(rng);
        if (kind == 1) s = pl == 0 ? near(rng) << (f.bit_depth - 8) : (1u << (f.bit_depth - 1)) + near(rng) - 1;
        if (f.bit_depth > 8) p.row<std::uint16_t>(pl, y)[x] = static_cast<std::uint16_t>(s);
        else p.row<std::uint8_t>(pl, y)[x] = static_cast<std::uint8_t>(s);
      }
  }
  return p;
}

TEST(VulkanCiede, RandomPicturesEqualTheCpu) {
  std::string why;
  Vulkan* v = gpu(&why);
  if (!v) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Cpu cpu;
  std::mt19937 rng(19);
  std::size_t compared = 0;
  for (std::uint32_t bpc : {8u, 10u, 12u, 16u})
    for (auto chroma : {chroma_format::yuv420, chroma_format::yuv422, chroma_format::yuv444, chroma_format::yuv400})
      for (auto [w, h] : {std::pair{37u, 22u}, std::pair{64u, 31u}, std::pair{5u, 4u}})
        for (compat c : {compat::none, compat::libvmaf}) {
          const picture_format f{w, h, chroma, bpc};
          if (!ciede_algorithm::unsupported(f, {}, c).empty()) continue;
          for (int kind = 0; kind < 2; ++kind) {
            std::vector<picture> ref, dis;
            ref.push_back(random_picture(f, rng, kind));
            dis.push_back(random_picture(f, rng, kind));
            const auto want = ciede_series(cpu, ref, dis, c), got = ciede_series(*v, ref, dis, c);
            ASSERT_EQ(got.size(), 1u);
            EXPECT_PRED2(same, got[0], want[0]) << w << "x" << h << " " << to_string(chroma) << " " << bpc
                                                << "-bit compat " << (c == compat::libvmaf) << " kind " << kind;
            ++compared;
          }
        }
  EXPECT_GT(compared, 150u);
}

// ciede_math.glsl against glibc over the arguments ciede gives each function: within 2^-47 relative
// (plus 2^-52 absolute for cos and atan2, whose results cross zero), the accuracy the bounds in
// docs/spec-float-features.md assume (2^-48 claimed; glibc's own ≤ 1 ulp is in the slack).
TEST(VulkanCiede, DoubleFunctionsAreWithinTheirBounds) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  if (!ctx->has_float64()) GTEST_SKIP() << "no shaderFloat64";
  std::mt19937_64 rng(7);
  const auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const auto flt = [&](double a, double b) { return static_cast<double>(static_cast<float>(uni(a, b))); };
  struct case_t {
    const char* name;
    std::uint32_t fn;
    double (*arg)(decltype(uni)&, decltype(flt)&, int);
    double (*want)(double, double);
    double abs;
  };
  const case_t cases[] = {
      {"pow(c, 2.4)", 0, [](auto& u, auto&, int k) { return k ? 2.4 : u(0.0894, 1.8); },
       [](double x, double y) { return std::pow(x, y); }, 0},
      {"pow(c, 1/3)", 0, [](auto& u, auto&, int k) { return k ? 1.0 / 3.0 : u(0.0088, 5.0); },
       [](double x, double y) { return std::pow(x, y); }, 0},
      {"exp", 1, [](auto& u, auto&, int) { return u(-130.0, 1.0); }, [](double x, double) { return std::exp(x); }, 0},
      {"log", 2, [](auto& u, auto&, int) { return u(1e-3, 8.0); }, [](double x, double) { return std::log(x); }, 0},
      {"sin", 3, [](auto& u, auto&, int) { return u(-1.6, 1.6); }, [](double x, double) { return std::sin(x); }, 0},
      {"cos", 4, [](auto& u, auto&, int) { return u(-1.0, 27.0); }, [](double x, double) { return std::cos(x); },
       0x1p-52},
      {"atan2", 5, [](auto&, auto& f, int) { return f(-3000.0, 3000.0); },
       [](double x, double y) { return std::atan2(y, x); }, 0x1p-52},
      {"div", 6, [](auto& u, auto&, int k) { return k ? u(0.5, 1e10) : u(-3000.0, 3000.0); },
       [](double x, double y) { return x / y; }, 0},
      {"sqrt", 7, [](auto& u, auto&, int) { return u(0.0, 1e7); }, [](double x, double) { return std::sqrt(x); }, 0},
  };
  constexpr std::uint32_t count = 1 << 16;
  vulkan::buffer in(*ctx, count * 16, vulkan::memory_kind::upload);
  vulkan::buffer out(*ctx, count * 8, vulkan::memory_kind::readback);
  vulkan::compute_pipeline p(*ctx, vulkan::spirv::ciede_math_test, 2, 8);
  vulkan::descriptor_pool pool(*ctx, 1, 2);
  const VkDescriptorSet set = pool.allocate(p.set_layout());
  vulkan::write_storage_buffers(*ctx, set, {in.range(), out.range()});
  for (const auto& c : cases) {
    std::vector<double> args(2 * count);
    for (std::uint32_t i = 0; i < count; ++i) {
      args[2 * i] = c.arg(uni, flt, 0);
      args[2 * i + 1] = c.fn == 5 ? c.arg(uni, flt, 0) : c.arg(uni, flt, 1);
    }
    std::memcpy(in.data(), args.data(), args.size() * 8);
    in.flush();
    const struct {
      std::uint32_t count, fn;
    } pc{count, c.fn};
    test::run_once(*ctx, p, set, pc, count);
    out.invalidate();
    const double* r = out.as<double>();
    double worst = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      const double want = c.want(args[2 * i], args[2 * i + 1]);
      const double err = std::fabs(r[i] - want) / (std::fabs(want) + c.abs / 0x1p-47);
      worst = std::max(worst, err);
      if (!(err <= 0x1p-47)) {
        ADD_FAILURE() << c.name << "(" << std::hexfloat << args[2 * i] << ", " << args[2 * i + 1] << ") = " << r[i]
                      << ", glibc " << want;
        break;
      }
    }
    std::printf("[ ciede_math ] %-12s worst error %.3g x 2^-53 (relative)\n", c.name, worst / 0x1p-53);
  }
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
