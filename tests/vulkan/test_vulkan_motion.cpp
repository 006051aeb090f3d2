// Integer motion (feature "motion", SPEC-vmaf Part A) on the Vulkan backend: the engine's partials (the
// exact SAD per frame, the history on the GPU) must equal the Cpu kernel's, hence every libvmaf value:
//  (1) every fixture pair of tests/data/reference-vmaf through the whole stream, with and without the
//      five-frame window in the same frames, 1 and several frames in flight, beside psnr and vif, with
//      psnr/vif subsampled; then every motion value of the reference runs (sad, motion2, motion3) against
//      libvmaf, and the whole session (every option, --subsample, force_zero) against the Cpu backend;
//  (2) random and extreme planes at 8/10/12/16 bits, sizes from 3x3 to 1920x1080 (odd ones too), and rows
//      wider than 65537 columns, where libvmaf's per-row uint32 sum wraps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "vk_test_util.hpp"
#include "vqm/cpu.hpp"
#include "vqm/cpu/motion.hpp"
#include "vqm/cpu/reference/motion.hpp"
#include "vqm/metrics/motion.hpp"
#include "vqm/session.hpp"
#include "vqm/vulkan.hpp"
#include "common/test_namespace.hpp"

namespace vqm::test {
namespace VQM_TEST_UNIT {

static_assert(MotionKernel<Vulkan>);

std::string show(const motion_partials& p) {
  return p.computed ? "{sad " + std::to_string(p.sad) + "}" : std::string("{not computed}");
}
bool eq(const motion_partials& a, const motion_partials& b) { return a.sad == b.sad && a.computed == b.computed; }

// The motion partials of every frame for each request (one state each, in the same frames), `depth` frames
// in flight; with `others`, psnr and vif are recorded too, on the frames i % subsample == 0 only (motion
// runs on every frame, as --subsample does).
struct run_result {
  std::vector<std::vector<motion_partials>> motion;  // [request][frame]
  std::vector<sse_partials> sse;
  std::vector<vif_partials> vif;
};
run_result run_vulkan(Vulkan& v, const std::vector<picture_view>& ref, const std::vector<picture_view>& dis,
                      const std::vector<motion_request>& requests, std::size_t depth, bool others = false,
                      std::size_t subsample = 1, std::size_t ring = 0) {
  run_result r;
  r.motion.assign(requests.size(), std::vector<motion_partials>(ref.size()));
  r.sse.resize(ref.size());
  r.vif.resize(ref.size());
  std::vector<Vulkan::motion_state> states;
  for (std::size_t k = 0; k < requests.size(); ++k)
    states.push_back(v.make_motion_state(ref.front().format, ring ? ring : depth + 2));
  std::deque<Vulkan::frame> q;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    q.push_back(v.begin_frame(ref[i], dis[i]));
    const bool measure = i % subsample == 0;
    if (others && measure) v.sse(q.back(), sse_request{}, r.sse[i]);
    for (std::size_t k = 0; k < requests.size(); ++k) v.motion(q.back(), states[k], requests[k], r.motion[k][i]);
    if (others && measure) v.vif(q.back(), vif_request{}, r.vif[i]);
    v.submit(q.back());
    if (q.size() >= depth) {
      v.wait(q.front());
      q.pop_front();
    }
  }
  for (auto& f : q) v.wait(f);
  return r;
}

// What the Cpu computes for frame i (SPEC A.3): the SAD of frame i − window against frame i.
motion_partials want_motion(const std::vector<picture_view>& ref, std::size_t i, const motion_request& q,
                            bool reference_kernel = false) {
  const std::size_t back = q.five_frame_window ? 2 : 1;
  if (i < back) return {};
  const auto& p = ref[i - back].planes[0];
  const auto& c = ref[i].planes[0];
  const unsigned bpc = ref[i].format.bit_depth;
  return {reference_kernel ? cpu::reference::motion_sad(p, c, bpc) : cpu::motion_sad(p, c, bpc), true};
}

std::vector<picture_view> views(const std::vector<picture>& p) {
  std::vector<picture_view> v;
  for (const auto& x : p) v.push_back(x.view());
  return v;
}

// ---------------------------------------------------------------------------------------------- (1)

TEST(VulkanMotion, EveryReferencePairAndRunBitExact) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto pairs = vmaf_reference_pairs();
  ASSERT_FALSE(pairs.empty());
  Vulkan v(ctx);
  const std::vector<motion_request> requests{{false}, {true}};
  std::size_t frames = 0, values = 0, runs = 0;
  for (const auto& pair : pairs) {
    const auto j = load_json(vmaf_reference_dir() + "/" + pair + ".json");
    const auto& [refs, diss] = frames_of(j);
    const auto rv = views(refs), dv = views(diss);
    // Several frames in flight beside psnr and vif (subsampled), and one frame at a time alone.
    const auto got = run_vulkan(v, rv, dv, requests, v.frames_in_flight(), true, 2);
    const auto serial = run_vulkan(v, rv, dv, {requests[1], requests[0]}, 1);
    Cpu cpu;
    for (std::size_t k = 0; k < requests.size(); ++k)
      for (std::size_t f = 0; f < rv.size(); ++f) {
        const auto want = want_motion(rv, f, requests[k]);
        ASSERT_TRUE(eq(got.motion[k][f], want)) << pair << " frame " << f << " window " << requests[k].five_frame_window
                                          << ": vulkan " << show(got.motion[k][f]) << ", cpu " << show(want);
        ASSERT_TRUE(eq(serial.motion[1 - k][f], want)) << pair << " frame " << f << " (one in flight)";
        ++frames;
      }
    for (std::size_t f = 0; f < rv.size(); f += 2) {  // the other metrics of the same frames
      sse_partials sse;
      vif_partials vif;
      auto fr = cpu.begin_frame(rv[f], dv[f]);
      cpu.sse(fr, sse_request{}, sse);
      cpu.vif(fr, vif_request{}, vif);
      cpu.submit(fr);
      cpu.wait(fr);
      EXPECT_EQ(got.sse[f].sse, sse.sse) << pair << " frame " << f;
      EXPECT_EQ(got.vif[f], vif) << pair << " frame " << f;
    }
    // Every motion value of the reference runs: the host math on the Vulkan partials.
    for (const auto& [key, run] : j.at("features").items()) {
      const bool model = key.rfind("model[", 0) == 0;
      if (key != "motion" && key != "motion[motion_five_frame_window]" && !model) continue;
      if (run.at("status") != "ok") continue;
      const bool mffw = key == "motion[motion_five_frame_window]";
      motion_algorithm alg(rv.front().format, parse_options<motion_options>(option_map::parse(mffw ? "motion_five_frame_window=true" : "")));
      std::map<std::string, std::vector<double>> mine;
      for (std::size_t f = 0; f < rv.size(); ++f) {
        double s[2];
        alg.scores(got.motion[mffw ? 1 : 0][f], s);
        mine[alg.names()[0]].push_back(s[0]);
        alg.accumulate(got.motion[mffw ? 1 : 0][f]);
      }
      for (auto& [name, series] : alg.finish()) mine[name] = series;
      ++runs;
      for (const auto& [name, vals] : run.at("metrics").items()) {
        if (name.find("motion") == std::string::npos) continue;
        ASSERT_TRUE(mine.count(name)) << pair << " " << key << " " << name;
        ASSERT_EQ(vals.size(), rv.size()) << pair << " " << key << " " << name;
        for (std::size_t f = 0; f < rv.size(); ++f, ++values)
          EXPECT_TRUE(same(mine[name][f], to_double(vals[f])))
              << pair << " " << key << " " << name << "[" << f << "]: " << mine[name][f] << " vs libvmaf " << to_double(vals[f]);
      }
    }
  }
  std::printf("motion on Vulkan: %zu frame partials equal to the Cpu kernel's, %zu libvmaf values equal in %zu runs, "
              "%zu pairs\n",
              frames, values, runs, pairs.size());
  EXPECT_GT(values, 0u);
}

// The whole run as the CLI makes it (session: the metrics, frames in flight, --subsample, end-of-stream
// series): every option set of motion beside psnr and vif, equal to the Cpu backend's table.
TEST(VulkanMotion, SessionsEqualTheCpuWithEveryOptionAndSubsample) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  const auto diss = read_all(fixture("rocket_177x99_420p8_x264crf35.y4m"));
  ASSERT_GE(refs.size(), 4u);
  const auto fmt = refs.front().format();
  std::vector<feature_request> features;
  for (const char* f : {"motion=debug=true", "motion=motion_five_frame_window=true", "psnr",
                        "motion=motion_blend_factor=0.5:motion_blend_offset=10:motion_moving_average=true:"
                        "motion_fps_weight=1.5:motion_max_val=15",
                        "motion=motion_five_frame_window=true:motion_moving_average=true:motion_blend_factor=0.3",
                        "motion=motion_force_zero=true", "vif"})
    features.push_back(parse_feature_request(f));
  Vulkan v(ctx);
  Cpu cpu;
  std::size_t compared = 0;
  for (const std::size_t subsample : {1u, 2u, 3u})
    for (const std::size_t frames : {std::size_t{1}, std::size_t{2}, std::size_t{3}, refs.size()}) {
      session_config c{{}, features, compat::libvmaf, v.frames_in_flight(), subsample};
      session<Vulkan> sv(v, fmt, c);
      c.depth = 1;
      session<Cpu> sc(cpu, fmt, c);
      for (std::size_t i = 0; i < frames; ++i) {
        sv.push(refs[i].view(), diss[i].view());
        sc.push(refs[i].view(), diss[i].view());
      }
      const auto a = sv.finish(), b = sc.finish();
      ASSERT_EQ(a.names, b.names);
      ASSERT_EQ(a.frames, b.frames);
      for (std::size_t r = 0; r < a.rows.size(); ++r)
        for (std::size_t k = 0; k < a.names.size(); ++k, ++compared)
          EXPECT_TRUE(same(a.rows[r][k], b.rows[r][k])) << "subsample " << subsample << " frames " << frames << " frame "
                                                        << a.frames[r] << " " << a.names[k] << ": " << a.rows[r][k]
                                                        << " vs cpu " << b.rows[r][k];
    }
  std::printf("%zu session values equal to the Cpu backend's\n", compared);
}

// Two states (two metrics) in the same frames run on their own programs; a state made after another went
// reuses its program and rebinds; the history has 3 entries whatever the frames in flight.
TEST(VulkanMotion, StatesProgramsAndRingSize) {
  VQM_REQUIRE_VULKAN(ctx);
  const auto refs = read_all(fixture("chelsea_576x324_420p8_ref.y4m"));
  const auto rv = views(refs);
  Vulkan v(ctx);
  for (int round = 0; round < 3; ++round) {
    const auto got = run_vulkan(v, rv, rv, {{true}, {false}, {true}}, v.frames_in_flight(), false, 1, 3);
    for (std::size_t f = 0; f < rv.size(); ++f) {
      EXPECT_TRUE(eq(got.motion[0][f], want_motion(rv, f, {true}))) << round << " " << f;
      EXPECT_TRUE(eq(got.motion[1][f], want_motion(rv, f, {false}))) << round << " " << f;
      EXPECT_TRUE(eq(got.motion[2][f], want_motion(rv, f, {true}))) << round << " " << f;
    }
  }
  // Three entries whatever the ring asked for, the device buffer made on the first frame only.
  auto big = v.make_motion_state(rv.front().format, 16);
  EXPECT_EQ(big.history->ring.entries(), 3u);
  VkBuffer first = VK_NULL_HANDLE;
  for (std::size_t i = 0; i < rv.size(); ++i) {
    motion_partials p;
    auto f = v.begin_frame(rv[i], rv[i]);
    v.motion(f, big, {}, p);
    v.submit(f);
    v.wait(f);
    EXPECT_TRUE(eq(p, want_motion(rv, i, {false}))) << i;
    const VkBuffer b = big.history->ring.storage(*ctx).get();
    if (i == 0) first = b;
    EXPECT_EQ(b, first);
  }
  // A state keeps its format.
  auto st = v.make_motion_state(rv.front().format, 3);
  picture other(picture_format{100, 100, chroma_format::yuv400, 8});
  auto f = v.begin_frame(other.view(), other.view());
  motion_partials p;
  EXPECT_THROW(v.motion(f, st, {}, p), error);
}

// ---------------------------------------------------------------------------------------------- (2)

enum class kind { noise, flat, zero, max, checker, ramp, extremes, smooth };

picture make_plane(kind k, std::uint32_t w, std::uint32_t h, unsigned bits, std::mt19937& rng) {
  picture p(picture_format{w, h, chroma_format::yuv400, bits});
  const std::uint32_t maxv = (1u << bits) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, maxv), bit(0, 1);
  std::uniform_int_distribution<int> small(-9, 9);
  const std::uint32_t flat = any(rng);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint32_t v = 0;
      switch (k) {
        case kind::noise: v = any(rng); break;
        case kind::flat: v = flat; break;
        case kind::zero: v = 0; break;
        case kind::max: v = maxv; break;
        case kind::checker: v = ((x + y) & 1) ? maxv : 0; break;
        case kind::ramp: v = (x * 7 + y * 13) % (maxv + 1); break;
        case kind::extremes: v = bit(rng) ? maxv : 0; break;
        case kind::smooth:
          v = static_cast<std::uint32_t>(std::clamp<long>(static_cast<long>(((x * 3 + y * 5) % 251) << (bits - 8)) +
                                                               small(rng) * (1L << (bits - 8)),
                                                           0, maxv));
          break;
      }
      if (bits > 8) p.row<std::uint16_t>(0, y)[x] = static_cast<std::uint16_t>(v);
      else p.row<std::uint8_t>(0, y)[x] = static_cast<std::uint8_t>(v);
    }
  return p;
}

// A stream through every kind of plane (each next to each other kind), both windows, frames in flight.
void check_stream(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes, const std::vector<unsigned>& depths,
                  const std::vector<kind>& kinds, bool reference_kernel) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  std::mt19937 rng(20261123);
  std::size_t checked = 0;
  for (const auto& [w, h] : sizes)
    for (const unsigned bits : depths) {
      std::vector<picture> frames;
      for (const kind k : kinds) frames.push_back(make_plane(k, w, h, bits, rng));
      for (const kind k : kinds) frames.push_back(make_plane(kinds[(static_cast<std::size_t>(k) * 5 + 3) % kinds.size()], w, h, bits, rng));
      const auto rv = views(frames);
      const std::vector<motion_request> requests{{false}, {true}};
      const auto got = run_vulkan(v, rv, rv, requests, v.frames_in_flight());
      for (std::size_t k = 0; k < requests.size(); ++k)
        for (std::size_t i = 0; i < rv.size(); ++i) {
          const auto want = want_motion(rv, i, requests[k], reference_kernel);
          ASSERT_TRUE(eq(got.motion[k][i], want)) << w << "x" << h << " " << bits << "-bit frame " << i << " window "
                                            << requests[k].five_frame_window << ": vulkan " << show(got.motion[k][i])
                                            << ", cpu " << show(want);
          ++checked;
        }
    }
  std::printf("%zu random/extreme frames equal\n", checked);
}

const std::vector<kind> all_kinds{kind::noise,   kind::flat, kind::zero,     kind::max,
                                  kind::checker, kind::ramp, kind::extremes, kind::smooth};

TEST(VulkanMotion, SmallAndOddSizes) {
  check_stream({{3, 3},   {4, 3},   {3, 4},   {5, 5},   {7, 3},   {3, 17},  {9, 6},   {16, 16}, {17, 15},
                {63, 17}, {64, 16}, {65, 17}, {66, 33}, {31, 40}, {127, 5}, {129, 19}},
               {8, 9, 10, 12, 14, 16}, all_kinds, true);
}

TEST(VulkanMotion, RandomAndExtremePlanes) {
  check_stream({{100, 75}, {183, 177}, {257, 131}, {576, 324}, {645, 643}}, {8, 10, 12, 16}, all_kinds, false);
}

TEST(VulkanMotion, FullHd) {
  check_stream({{1920, 1080}}, {8, 16}, {kind::noise, kind::smooth, kind::max, kind::zero, kind::checker}, false);
}

// Rows wider than 65537 columns: the per-row uint32 sum of the SPEC wraps (max − 0 at 16 and 8 bits), and
// noise on the widest rows.
TEST(VulkanMotion, RowsWiderThan65537ColumnsWrap) {
  VQM_REQUIRE_VULKAN(ctx);
  Vulkan v(ctx);
  std::mt19937 rng(5);
  for (const auto& [w, h, bits] : {std::tuple{65538u, 3u, 16u}, std::tuple{70000u, 5u, 8u}, std::tuple{65600u, 4u, 12u},
                                   std::tuple{65537u, 3u, 16u}}) {
    std::vector<picture> frames;
    for (const kind k : {kind::max, kind::zero, kind::max, kind::noise, kind::extremes, kind::checker})
      frames.push_back(make_plane(k, w, h, bits, rng));
    const auto rv = views(frames);
    const std::vector<motion_request> requests{{false}, {true}};
    const auto got = run_vulkan(v, rv, rv, requests, v.frames_in_flight());
    for (std::size_t k = 0; k < requests.size(); ++k)
      for (std::size_t i = 0; i < rv.size(); ++i) {
        const auto want = want_motion(rv, i, requests[k], true);
        ASSERT_TRUE(eq(got.motion[k][i], want)) << w << "x" << h << " " << bits << "-bit frame " << i << ": vulkan "
                                          << show(got.motion[k][i]) << ", cpu " << show(want);
      }
    if (w == 65538 && bits == 16) {  // max − 0 everywhere: each row sums 65535·w modulo 2^32
      const std::uint64_t row = (std::uint64_t{w} * 65535) & 0xFFFFFFFFu;
      EXPECT_EQ(got.motion[0][1].sad, h * row);
      EXPECT_LT(row, std::uint64_t{w} * 65535);
    }
  }
}

}  // namespace
}  // namespace vqm::test
