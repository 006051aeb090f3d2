// speed_chroma and speed_temporal on Vulkan beyond the default runs backend_reference checks: the engines
// against the Cpu kernels (==) on random clips (8/10/12/16-bit, 4:2:0/4:2:2/4:4:4/gray, odd sizes, the
// 80x80 limit, every prescale method down and up, kernel scales, weight modes, sigma_nn, nn_floor, max_val,
// use_ref_diff; one and three frames in flight), the same refusals as the Cpu backend, and libvmaf's values
// of speed_chroma inside tests/data/reference-vmaf-v1's model runs and of tests/data/speed-prescale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

static_assert(SpeedChromaKernel<Vulkan> && SpeedTemporalKernel<Vulkan>);

using feature_list = std::vector<std::pair<std::string, std::string>>;

// Every frame's values of `features`, by output name, in one scorer (one submission a frame on Vulkan).
template <class B>
std::map<std::string, std::vector<double>> measure(B& b, const std::vector<picture>& ref, const std::vector<picture>& dis,
                                                   const feature_list& features, std::size_t depth) {
  std::vector<any_metric<B>> m;
  for (const auto& [name, opts] : features)
    m.push_back(make_metric<B>(name, option_map::parse(opts), ref.front().format(), compat::libvmaf));
  scorer<B> sc(b, std::move(m), compat::libvmaf, depth);
  const auto names = sc.names();
  std::map<std::string, std::vector<double>> out;
  const auto take = [&](const frame_result& r) {
    for (std::size_t k = 0; k < names.size(); ++k) out[names[k]].push_back(r.values[k]);
  };
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (auto r = sc.push(ref[i], dis[i])) take(*r);
  while (auto r = sc.pop()) take(*r);
  return out;
}

// A clip of smooth random content moving between frames, and a noisier distorted copy.
std::pair<std::vector<picture>, std::vector<picture>> clip(const picture_format& f, std::size_t frames, unsigned seed) {
  std::mt19937 rng(seed);
  const int top = (1 << f.bit_depth) - 1, k = 1 << (f.bit_depth - 8);  // noise in 8-bit steps at any depth
  std::vector<picture> ref, dis;
  for (std::size_t i = 0; i < frames; ++i) {
    picture r(f), d(f);
    for (int p = 0; p < f.planes(); ++p) {
      const auto e = plane_extent(r.view(), p);
      const double phase = static_cast<double>(rng() % 1000) / 100.0;
      for (std::uint32_t y = 0; y < e.height; ++y)
        for (std::uint32_t x = 0; x < e.width; ++x) {
          const double s = 0.5 + 0.3 * std::sin(0.07 * x + 0.05 * y + phase + 0.3 * static_cast<double>(i)) +
                           0.1 * std::sin(0.9 * x * y / (e.width + 1.0));
          const int v = std::clamp(static_cast<int>(s * top) + (static_cast<int>(rng() % 9) - 4) * k, 0, top);
          const int w = std::clamp(v + (static_cast<int>(rng() % 33) - 16) * k + static_cast<int>(rng() % k), 0, top);
          if (f.bit_depth > 8) {
            r.row<std::uint16_t>(p, y)[x] = static_cast<std::uint16_t>(v);
            d.row<std::uint16_t>(p, y)[x] = static_cast<std::uint16_t>(w);
          } else {
            r.row<std::uint8_t>(p, y)[x] = static_cast<std::uint8_t>(v);
            d.row<std::uint8_t>(p, y)[x] = static_cast<std::uint8_t>(w);
          }
        }
    }
    ref.push_back(std::move(r));
    dis.push_back(std::move(d));
  }
  return {std::move(ref), std::move(dis)};
}

// Whether make_metric<B> refuses (and with which code).
template <class B>
std::pair<bool, errc> refusal(const std::string& name, const std::string& opts, const picture_format& f) {
  try {
    (void)make_metric<B>(name, option_map::parse(opts), f, compat::libvmaf);
  } catch (const error& e) {
    return {true, e.code()};
  }
  return {false, errc{}};
}

TEST(VulkanSpeed, EqualsCpuOnRandomClips) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  Cpu cpu;
  const std::vector<std::string> chroma_opts{
      "",
      "speed_prescale=0.7:speed_prescale_method=nearest",
      "speed_prescale=1.3:speed_prescale_method=bilinear",
      "speed_prescale=1.2:speed_prescale_method=bicubic:speed_kernelscale=0.5",
      "speed_prescale=0.9:speed_prescale_method=lanczos4",
      "speed_prescale=1.1:speed_prescale_method=nearest:speed_weight_var_mode=6",
      "speed_kernelscale=2:speed_weight_var_mode=1",
      "speed_kernelscale=0.5:speed_weight_var_mode=3:speed_sigma_nn=1.5",
      "speed_weight_var_mode=2:speed_nn_floor=0.5",
      "speed_weight_var_mode=4:speed_max_val=0.5",
      "speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_weight_var_mode=5:speed_max_val=45:speed_prescale=0.6:"
      "speed_prescale_method=bilinear"};
  const std::vector<std::string> temporal_opts{
      "",
      "speed_use_ref_diff=true",
      "speed_prescale=0.8:speed_prescale_method=lanczos4",
      "speed_prescale=0.6:speed_prescale_method=bicubic:speed_kernelscale=1.5",
      "speed_prescale=0.9:speed_prescale_method=bilinear:speed_use_ref_diff=true",
      "speed_prescale=0.75:speed_prescale_method=nearest:speed_kernelscale=0.5",
      "speed_sigma_nn=0.5:speed_nn_floor=0.3:speed_max_val=2"};
  std::size_t compared = 0, runs = 0;
  unsigned seed = 1;
  for (const auto& f : {picture_format{333, 251, chroma_format::yuv420, 8}, picture_format{171, 163, chroma_format::yuv444, 10},
                        picture_format{203, 170, chroma_format::yuv422, 12}, picture_format{161, 161, chroma_format::yuv420, 16},
                        picture_format{181, 175, chroma_format::yuv400, 8}}) {
    const std::string what = std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
                             std::to_string(f.planes()) + "-plane " + std::to_string(f.bit_depth) + "-bit";
    feature_list features;
    for (const auto& [name, list] : {std::pair{"speed_chroma", &chroma_opts}, std::pair{"speed_temporal", &temporal_opts}})
      for (const auto& o : *list) {
        const auto c = refusal<Cpu>(name, o, f), v = refusal<Vulkan>(name, o, f);
        EXPECT_EQ(c, v) << what << " " << name << "=" << o;
        if (!c.first) features.emplace_back(name, o);
      }
    ASSERT_GE(features.size(), 6u) << what;
    const auto [ref, dis] = clip(f, 3, seed++);
    const auto want = measure(cpu, ref, dis, features, 1);
    for (std::size_t depth : {1u, 3u}) {
      const auto got = measure(gpu, ref, dis, features, depth);
      ASSERT_EQ(got.size(), want.size()) << what;
      for (const auto& [name, values] : want) {
        ASSERT_EQ(got.at(name).size(), values.size()) << what << " " << name;
        for (std::size_t i = 0; i < values.size(); ++i, ++compared)
          EXPECT_PRED2(same, got.at(name)[i], values[i]) << what << " " << name << " frame " << i << " depth " << depth;
      }
    }
    runs += features.size();
    // Something measured (the covariances are not all singular).
    double total = 0;
    for (const auto& [name, values] : want)
      for (double x : values) total += std::fabs(x);
    EXPECT_GT(total, 0.0) << what;
  }
  std::printf("[ speed ] %zu Vulkan values equal to the Cpu's (%zu runs)\n", compared, runs);
}

TEST(VulkanSpeed, RefusesWhatTheCpuRefuses) {
  EXPECT_TRUE(runs_on<Vulkan>("speed_chroma"));
  EXPECT_TRUE(runs_on<Vulkan>("speed_temporal"));
  std::size_t refused = 0;
  for (const auto& [name, opts, f] : std::vector<std::tuple<std::string, std::string, picture_format>>{
           {"speed_chroma", "", {159, 200, chroma_format::yuv420, 8}},             // chroma 79 wide
           {"speed_chroma", "", {160, 160, chroma_format::yuv420, 8}},             // chroma 80x80: accepted
           {"speed_chroma", "", {200, 200, chroma_format::yuv420, 9}},
           {"speed_chroma", "speed_kernelscale=1.3", {200, 200, chroma_format::yuv420, 8}},
           {"speed_chroma", "speed_prescale=0.37", {576, 324, chroma_format::yuv420, 8}},
           {"speed_chroma", "speed_prescale=0.37", {576, 324, chroma_format::yuv444, 8}},
           {"speed_temporal", "", {79, 80, chroma_format::yuv420, 8}},
           {"speed_temporal", "", {80, 80, chroma_format::yuv400, 16}},
           {"speed_temporal", "speed_prescale=1.7", {576, 324, chroma_format::yuv420, 8}},
           {"speed_temporal", "speed_prescale=1.0009", {960, 324, chroma_format::yuv420, 8}},
           {"speed_temporal", "speed_prescale=0.99901", {576, 324, chroma_format::yuv420, 10}}}) {
    const auto c = refusal<Cpu>(name, opts, f), v = refusal<Vulkan>(name, opts, f);
    EXPECT_EQ(c, v) << name << "=" << opts << " " << f.width << "x" << f.height;
    if (c.first) {
      EXPECT_EQ(c.second, errc::unsupported_format) << name << "=" << opts;
    }
    refused += c.first ? 1 : 0;
  }
  EXPECT_EQ(refused, 7u);
}

// libvmaf's speed_chroma values inside the vmaf_v1.0.16 model runs of tests/data/reference-vmaf-v1 (the
// model's options, with speed_prescale 0.6 or 0.5 bilinear), one scorer a pair; then every prescale method
// of tests/data/speed-prescale (down, up, the |ps − 1| < 1e-3 crop and pad).
TEST(VulkanSpeed, ModelRunsMatchLibvmaf) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  const std::string v1 = std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf-v1";
  std::size_t compared = 0;
  const std::regex prescale("_ps_([0-9.]+)_psm_([a-z0-9]+)_");
  for (const auto& pair : reference_pairs(v1)) {
    const auto j = load_json(v1 + "/" + pair + ".json");
    std::set<std::string> opts;
    for (const auto& [key, run] : j.at("features").items()) {
      if (!key.starts_with("model[vmaf_v1.0.16") || run.at("status") != "ok") continue;
      for (const auto& [name, v] : run.at("metrics").items()) {
        if (!name.starts_with("speed_chroma_uv")) continue;
        std::string o = "speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_weight_var_mode=5:speed_max_val=45";
        if (std::smatch m; std::regex_search(name, m, prescale))
          o += ":speed_prescale=" + m[1].str() + ":speed_prescale_method=" + m[2].str();
        opts.insert(o);
      }
    }
    if (opts.empty()) continue;
    feature_list features;
    for (const auto& o : opts) features.emplace_back("speed_chroma", o);
    const auto& [ref, dis] = frames_of(j);
    const auto got = measure(gpu, ref, dis, features, gpu.frames_in_flight());
    for (const auto& [key, run] : j.at("features").items()) {
      if (!key.starts_with("model[vmaf_v1.0.16") || run.at("status") != "ok") continue;
      for (const auto& [name, v] : run.at("metrics").items()) {
        if (!name.starts_with("speed_chroma")) continue;
        const auto it = got.find(name);
        ASSERT_NE(it, got.end()) << pair << " " << key << ": no output named " << name;
        ASSERT_EQ(it->second.size(), v.size()) << pair << " " << name;
        for (std::size_t i = 0; i < v.size(); ++i, ++compared)
          EXPECT_PRED2(same, it->second[i], to_double(v[i])) << pair << " " << key << " " << name << " frame " << i;
      }
    }
  }
  EXPECT_GT(compared, 1500u);
  std::printf("[ speed ] Vulkan: %zu model-run speed_chroma values equal libvmaf's\n", compared);
}

TEST(VulkanSpeed, PrescaleMethodsMatchLibvmaf) {
  std::string why;
  auto ctx = vk_context(&why);
  if (!ctx) GTEST_SKIP() << "no Vulkan device on this machine: " << why;
  Vulkan gpu(ctx);
  const std::string v1 = std::string(VQM_TEST_DATA_DIR) + "/reference-vmaf-v1";
  std::size_t prescaled = 0;
  const std::string dir = std::string(VQM_TEST_DATA_DIR) + "/speed-prescale";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    const auto run = load_json(e.path().string());
    if (run.at("status") != "ok") continue;  // refusals: RefusesWhatTheCpuRefuses and the Cpu suite
    // CI time: the 81- and 16-tap upscales of the larger planes (most of this test's time on lavapipe) are
    // left to the Cpu suite; rocket's cover both methods upscaled here.
    const auto file = e.path().filename().string();
    if (!file.starts_with("rocket") && (file.ends_with("_1.7_lanczos4.json") || file.ends_with("_1.7_bicubic.json")))
      continue;
    const auto pair = load_json(v1 + "/" + run.at("pair").get<std::string>() + ".json");
    const auto args = run.at("cli_args").get<std::string>();
    const auto at = args.find("speed_chroma=") + 13;
    const auto opts = args.substr(at, args.find(' ', at) - at);
    const auto& [ref, dis] = frames_of(pair);
    const auto got = measure(gpu, ref, dis, {{"speed_chroma", opts}}, gpu.frames_in_flight());
    for (const auto& [name, v] : run.at("metrics").items())
      for (const auto& [full, values] : got) {
        if (!full.starts_with(name + "_") || full.starts_with("speed_chroma_uv") != (name == "speed_chroma_uv")) continue;
        ASSERT_EQ(values.size(), v.size()) << e.path().filename();
        for (std::size_t i = 0; i < v.size(); ++i, ++prescaled)
          EXPECT_PRED2(same, values[i], to_double(v[i])) << e.path().filename() << " " << full << " frame " << i;
      }
  }
  EXPECT_GT(prescaled, 220u);
  std::printf("[ speed ] Vulkan: %zu prescaled speed_chroma values equal libvmaf's\n", prescaled);
}

}  // namespace VQM_TEST_UNIT
}  // namespace vqm::test
