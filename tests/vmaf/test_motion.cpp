// Integer motion (SPEC-vmaf Part A) against libvmaf: every pair's motion series (tests/data/reference-vmaf),
// the CLI option cases (tests/data/vmaf-cli), motion2/motion3 edge cases from the prototype
// (tests/data/vmaf-motion), and the optimised kernel against the scalar reference, compared with ==.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/vmaf/feature_names.hpp"
#include "vqm/cpu/motion.hpp"
#include "vqm/cpu/reference/motion.hpp"
#include "vqm/metrics/motion.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using series = std::vector<std::pair<std::string, std::vector<double>>>;

std::string data_dir() { return std::string(VQM_TEST_DATA_DIR); }

const std::vector<vqm::picture>& luma_frames(const std::string& file) {
  static std::map<std::string, std::vector<vqm::picture>> cache;
  auto it = cache.find(file);
  if (it == cache.end()) it = cache.emplace(file, vqm::test::read_all(vqm::test::fixture(file))).first;
  return it->second;
}

// Drives motion_algorithm over `frames` as a backend would: a ring of luma copies, the SAD per frame, the
// per-frame scores, accumulate, then the flush. Returns every output series in libvmaf's order.
series run_motion(const std::vector<vqm::picture>& frames, const vqm::option_map& opts, std::size_t nframes = 0,
                  bool reference_kernel = false) {
  if (nframes == 0) nframes = frames.size();
  const auto fmt = frames.at(0).format();
  const auto o = vqm::parse_options<vqm::motion_options>(opts);
  vqm::motion_algorithm alg(fmt, o);
  vqm::cpu::motion_state st(fmt, 3);
  series out;
  for (const auto& n : alg.names()) out.emplace_back(n, std::vector<double>{});
  const std::size_t back = alg.request().five_frame_window ? 2 : 1;
  for (std::size_t i = 0; i < nframes; ++i) {
    vqm::motion_partials p;
    if (!o.motion_force_zero) {
      const std::size_t n = st.capture(frames[i].view().planes[0]);
      EXPECT_EQ(n, i);
      if (n >= back) {
        p.sad = reference_kernel ? vqm::cpu::reference::motion_sad(st.at(n - back), st.at(n), fmt.bit_depth)
                                 : vqm::cpu::motion_sad(st.at(n - back), st.at(n), fmt.bit_depth);
        p.computed = true;
      }
    }
    double s[2] = {-1, -1};
    alg.scores(p, s);
    for (std::size_t k = 0; k < alg.names().size(); ++k) out[k].second.push_back(s[k]);
    alg.accumulate(p);
  }
  for (auto& kv : alg.finish()) out.push_back(std::move(kv));
  return out;
}

std::size_t compare(const series& mine, const std::map<std::string, std::vector<double>>& want, const std::string& what,
                    bool exact_names = true) {
  std::size_t n = 0;
  if (exact_names) {
    EXPECT_EQ(mine.size(), want.size()) << what;
  }
  for (const auto& [name, vals] : mine) {
    const auto it = want.find(name);
    if (it == want.end()) {
      ADD_FAILURE() << what << ": libvmaf has no series " << name;
      continue;
    }
    EXPECT_EQ(vals.size(), it->second.size()) << what << " " << name;
    for (std::size_t i = 0; i < vals.size() && i < it->second.size(); ++i, ++n)
      EXPECT_TRUE(vqm::test::same(vals[i], it->second[i]))
          << what << " " << name << "[" << i << "]: " << vals[i] << " vs " << it->second[i];
  }
  return n;
}

TEST(VmafMotion, ReferenceSeriesAreBitExact) {
  std::size_t compared = 0, runs = 0;
  for (const auto& e : std::filesystem::directory_iterator(data_dir() + "/reference-vmaf")) {
    if (e.path().extension() != ".json" || e.path().stem() == "manifest") continue;
    const auto j = vqm::test::load_json(e.path().string());
    const auto& frames = luma_frames(j.at("reference").at("file").get<std::string>());
    std::map<std::string, series> cache;
    for (const auto& [key, run] : j.at("features").items()) {
      const bool model = key.rfind("model[", 0) == 0;
      if (key != "motion" && key != "motion[motion_five_frame_window]" && !model) continue;
      if (run.at("status") != "ok") continue;
      const std::string opts = key == "motion[motion_five_frame_window]" ? "motion_five_frame_window=true" : "";
      if (!cache.count(opts)) cache[opts] = run_motion(frames, vqm::option_map::parse(opts));
      std::map<std::string, std::vector<double>> want;
      for (const auto& [name, vals] : run.at("metrics").items()) {
        if (model && name.find("motion") == std::string::npos) continue;
        for (const auto& v : vals) want[name].push_back(vqm::test::to_double(v));
      }
      ++runs;
      compared += compare(cache[opts], want, e.path().stem().string() + " " + key);
    }
  }
  EXPECT_GT(runs, 100u);
  std::printf("compared %zu motion values in %zu runs\n", compared, runs);
}

// libvmaf XML (%.17g) -> series by name.
std::map<std::string, std::vector<double>> read_xml(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string t = ss.str();
  std::map<std::string, std::vector<double>> s;
  for (std::size_t p = t.find("<frame "); p != std::string::npos; p = t.find("<frame ", p + 1)) {
    const std::size_t end = t.find("/>", p);
    for (std::size_t q = p + 7;;) {
      const std::size_t eq = t.find("=\"", q);
      if (eq == std::string::npos || eq > end) break;
      const std::size_t b = t.find_last_of(' ', eq) + 1;
      const std::size_t close = t.find('"', eq + 2);
      const std::string name = t.substr(b, eq - b);
      if (name != "frameNum") s[name].push_back(std::strtod(t.substr(eq + 2, close - eq - 2).c_str(), nullptr));
      q = close + 1;
    }
  }
  return s;
}

TEST(VmafMotion, CliOptionCasesAreBitExact) {
  const std::pair<const char*, const char*> cases[] = {
      {"e1", "debug=true"},
      {"e2", "motion_blend_factor=0.5:motion_blend_offset=10:motion_moving_average=true:motion_fps_weight=1.5:"
             "motion_max_val=15"},
      {"e3", "motion_five_frame_window=true:motion_moving_average=true:motion_blend_factor=0.3:motion_blend_offset=5"},
      {"e4", "motion_force_zero=true"},
      {"e7", "motion_force_zero=true"},
      {"e10", "motion_fps_weight=1.23456789"},
      {"e11", "motion_blend_factor=0.5"},
  };
  const auto& frames = luma_frames("rocket_177x99_420p8_ref.y4m");
  std::size_t compared = 0;
  for (const auto& [xml, opts] : cases) {
    const auto want = read_xml(data_dir() + "/vmaf-cli/" + xml + ".xml");
    ASSERT_FALSE(want.empty()) << xml;
    compared += compare(run_motion(frames, vqm::option_map::parse(opts)), want, xml, false);
  }
  EXPECT_GT(compared, 100u);
}

TEST(VmafMotion, FlushEdgeCasesMatchThePrototype) {
  const auto j = vqm::test::load_json(data_dir() + "/vmaf-motion/prototype_edges.json");
  std::size_t compared = 0;
  for (const auto& c : j.at("cases")) {
    const auto opts = vqm::option_map::parse(c.at("options").get<std::string>());
    const auto n = c.at("frames").get<std::size_t>();
    const auto what = c.at("reference").get<std::string>() + " [" + c.at("options").get<std::string>() + "] " +
                      std::to_string(n) + " frames";
    const auto sfx = c.at("suffix").get<std::string>();
    EXPECT_EQ(vqm::options_suffix(vqm::parse_options<vqm::motion_options>(opts)), sfx) << what;
    const auto got = run_motion(luma_frames(c.at("reference").get<std::string>()), opts, n);
    std::map<std::string, std::vector<double>> want;
    const auto add = [&](const std::string& internal, const char* key) {
      for (const auto& v : c.at(key)) want[vqm::vmaf::printed_name(internal, sfx)].push_back(std::stod(v.get<std::string>()));
    };
    add("VMAF_integer_feature_motion_sad_score", "sad");
    if (c.at("options").get<std::string>().find("debug=true") != std::string::npos)
      add("VMAF_integer_feature_motion_score", "sad");
    add("VMAF_integer_feature_motion2_score", "motion2");
    add("VMAF_integer_feature_motion3_score", "motion3");
    compared += compare(got, want, what);
  }
  EXPECT_GT(compared, 1000u);
}

TEST(VmafMotion, SpecNumericCheck) {
  // A.7: astronaut 576x324 8-bit: SAD[1] = 561205840.
  const auto& f = luma_frames("astronaut_576x324_420p8_ref.y4m");
  EXPECT_EQ(vqm::cpu::motion_sad(f[0].view().planes[0], f[1].view().planes[0], 8), 561205840u);
  EXPECT_EQ(vqm::cpu::reference::motion_sad(f[0].view().planes[0], f[1].view().planes[0], 8), 561205840u);
  vqm::motion_algorithm alg(f[0].format());
  std::vector<double> s(alg.names().size());  // sized by names(): scores() may write the debug output too
  alg.scores({561205840u, true}, s.data());
  EXPECT_EQ(s[0], 11.74666876982596);
}

TEST(VmafMotion, OptionsNamesAndErrors) {
  using vqm::motion_options;
  using vqm::option_map;
  using vqm::parse_options;
  EXPECT_EQ(vqm::options_suffix(parse_options<motion_options>({})), "");
  EXPECT_EQ(vqm::options_suffix(parse_options<motion_options>(option_map::parse("motion_five_frame_window=true"))), "_mffw");
  EXPECT_EQ(vqm::options_suffix(parse_options<motion_options>(option_map::parse(
                "motion_blend_factor=0.50:motion_blend_offset=10.0:"
                "motion_fps_weight=1.5:motion_max_val=15:motion_moving_average=true"))),
            "_mbf_0.5_mbo_10_mfw_1.5_mmxv_15_mma");
  EXPECT_EQ(vqm::options_suffix(parse_options<motion_options>(option_map::parse("motion_force_zero=true"))), "_force_0");
  EXPECT_EQ(vqm::options_suffix(parse_options<motion_options>(option_map::parse("motion_force_zero=false:debug=true:motion_blend_factor=1.0"))), "");
  EXPECT_EQ(parse_options<motion_options>(option_map::parse("motion_fps_weight=1.23456789")).motion_fps_weight, 1.23457);
  for (const char* bad : {"motion_blend_factor=1.5", "motion_fps_weight=x", "motion_max_val=-1", "motion_force_zero=1",
                          "motion_speed=2", "motion_blend_offset=1001"})
    EXPECT_THROW((void)parse_options<motion_options>(option_map::parse(bad)), vqm::error) << bad;

  vqm::picture_format fmt{576, 324, vqm::chroma_format::yuv420, 8};
  vqm::motion_algorithm a(fmt, parse_options<motion_options>(option_map::parse("debug=true")));
  EXPECT_EQ(a.names(), (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score", "integer_motion"}));
  vqm::motion_algorithm b(fmt, parse_options<motion_options>(option_map::parse("debug=true:motion_five_frame_window=true")));
  EXPECT_EQ(b.names(), (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score_mffw", "integer_motion_mffw"}));
  EXPECT_TRUE(b.request().five_frame_window);
  EXPECT_TRUE(b.finish().at(0).second.empty());
  EXPECT_EQ(b.finish().at(1).first, "integer_motion3_mffw");
  EXPECT_TRUE(vqm::motion_algorithm::unsupported(fmt, {}).empty());
  for (auto [w, h] : {std::pair{2u, 100u}, std::pair{100u, 2u}, std::pair{1u, 1u}}) {
    const auto why = vqm::motion_algorithm::unsupported({w, h, vqm::chroma_format::yuv420, 8}, {});
    EXPECT_NE(why.find("at least 3x3"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos);
    EXPECT_THROW(vqm::motion_algorithm({w, h, vqm::chroma_format::yuv420, 8}), vqm::error);
  }
  EXPECT_TRUE(vqm::motion_algorithm::unsupported({3, 3, vqm::chroma_format::yuv400, 16}, {}).empty());
}

// ---- optimised kernel == reference kernel ------------------------------------------------------------

struct plane_buf {
  std::vector<std::byte> bytes;
  vqm::plane_view view;
};

plane_buf make_plane(std::uint32_t w, std::uint32_t h, unsigned bpc, std::mt19937& rng, int pattern,
                     std::uint32_t pad) {
  plane_buf p;
  const std::size_t bps = bpc > 8 ? 2 : 1;
  const std::size_t stride = (w + pad) * bps;
  p.bytes.assign(stride * h, std::byte{0xA5});
  const std::uint32_t maxv = (1u << bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, maxv), bit(0, 1);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint32_t v = 0;
      switch (pattern) {
        case 0: v = any(rng); break;                            // noise
        case 1: v = maxv; break;                                // flat max
        case 2: v = 0; break;                                   // flat zero
        case 3: v = ((x + y) & 1) ? maxv : 0; break;            // checkerboard
        case 4: v = bit(rng) ? maxv : 0; break;                 // random extremes
        default: v = (x * 7 + y * 13) % (maxv + 1); break;      // ramps
      }
      if (bps == 1) p.bytes[y * stride + x] = static_cast<std::byte>(v);
      else {
        const auto u = static_cast<std::uint16_t>(v);
        std::memcpy(&p.bytes[y * stride + 2 * x], &u, 2);
      }
    }
  p.view = vqm::plane_view{p.bytes.data(), static_cast<std::ptrdiff_t>(stride), w, h};
  return p;
}

TEST(VmafMotion, OptimisedKernelEqualsReference) {
  std::mt19937 rng(12345);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
  for (std::uint32_t w = 3; w <= 21; ++w)
    for (std::uint32_t h : {3u, 4u, 5u, 6u, 7u, 9u, 12u}) sizes.emplace_back(w, h);
  for (auto s : {std::pair{31u, 17u}, std::pair{64u, 3u}, std::pair{177u, 99u}, std::pair{333u, 11u}, std::pair{1029u, 5u}})
    sizes.push_back(s);
  std::size_t checks = 0;
  const std::vector<std::pair<int, int>> patterns = {{0, 0}, {1, 2}, {2, 1}, {3, 2}, {4, 4}, {5, 0}, {3, 1}};
  const auto cap = vqm::cpu::max_isa();
  for (const auto level : vqm::cpu::available_isas()) {
    vqm::cpu::set_max_isa(level);
    for (unsigned bpc : {8u, 9u, 10u, 12u, 14u, 15u, 16u})
      for (const auto& [w, h] : sizes)
        for (const auto& [pa, pb] : patterns) {
          const auto a = make_plane(w, h, bpc, rng, pa, (w * 3) % 5);
          const auto b = make_plane(w, h, bpc, rng, pb, (w + 1) % 3);
          const auto want = vqm::cpu::reference::motion_sad(a.view, b.view, bpc);
          ASSERT_EQ(vqm::cpu::motion_sad(a.view, b.view, bpc), want)
              << w << "x" << h << " " << bpc << "-bit patterns " << pa << "/" << pb << " isa " << static_cast<int>(level);
          ++checks;
        }
  }
  vqm::cpu::set_max_isa(cap);
  std::printf("%zu kernel comparisons (this machine: up to %s)\n", checks,
              vqm::cpu::isa_name(vqm::cpu::detected_isa()).data());
}

TEST(VmafMotion, RowSumWrapsAtUint32) {
  // W > 65537: max |E| on every sample overflows the per-row uint32 sum (A.3 step 4).
  std::mt19937 rng(1);
  const std::uint32_t w = 65600, h = 3;
  const auto a = make_plane(w, h, 16, rng, 1, 0);
  const auto b = make_plane(w, h, 16, rng, 2, 0);
  const std::uint64_t row = (std::uint64_t{w} * 65535) & 0xFFFFFFFFu;
  EXPECT_EQ(vqm::cpu::reference::motion_sad(a.view, b.view, 16), 3 * row);
  const auto cap = vqm::cpu::max_isa();
  for (const auto level : vqm::cpu::available_isas()) {
    vqm::cpu::set_max_isa(level);
    EXPECT_EQ(vqm::cpu::motion_sad(a.view, b.view, 16), 3 * row);
    EXPECT_EQ(vqm::cpu::motion_sad(b.view, a.view, 16), 3 * row);
  }
  vqm::cpu::set_max_isa(cap);
}

TEST(VmafMotion, StateRing) {
  const vqm::picture_format fmt{5, 4, vqm::chroma_format::yuv400, 10};
  vqm::cpu::motion_state st(fmt, 3);
  vqm::picture p(fmt);
  for (std::uint16_t i = 0; i < 5; ++i) {
    *p.row<std::uint16_t>(0, 2) = i;
    EXPECT_EQ(st.capture(p.view().planes[0]), i);
  }
  EXPECT_EQ(*st.at(4).row<std::uint16_t>(2), 4);
  EXPECT_EQ(*st.at(2).row<std::uint16_t>(2), 2);
  EXPECT_THROW((void)st.at(1), vqm::error);
  EXPECT_THROW((void)st.at(5), vqm::error);
  vqm::picture q({6, 4, vqm::chroma_format::yuv400, 10});
  EXPECT_THROW((void)st.capture(q.view().planes[0]), vqm::error);
  vqm::cpu::motion_state moved = std::move(st);
  EXPECT_EQ(moved.captured(), 5u);
  EXPECT_EQ(*moved.at(3).row<std::uint16_t>(2), 3);
}

// A minimal backend satisfying MotionKernel, the way the Cpu backend is meant to use motion_state.
struct mock_backend {
  struct frame {
    vqm::picture_view ref;
  };
  using motion_state = vqm::cpu::motion_state;
  int states = 0;
  frame begin_frame(const vqm::picture_view& r, const vqm::picture_view&) { return frame{r}; }
  void submit(frame&) {}
  void wait(frame&) {}
  motion_state make_motion_state(const vqm::picture_format& f, std::size_t ring) {
    ++states;
    return motion_state(f, ring);
  }
  void motion(frame& f, motion_state& s, const vqm::motion_request& q, vqm::motion_partials& out) {
    const std::size_t n = s.capture(f.ref.planes[0]);
    const std::size_t back = q.five_frame_window ? 2 : 1;
    if (n < back) return;
    out.sad = vqm::cpu::motion_sad(s.at(n - back), s.at(n), f.ref.format.bit_depth);
    out.computed = true;
  }
};
static_assert(vqm::MotionKernel<mock_backend>);

TEST(VmafMotion, MetricTemplateDrivesTheBackend) {
  const auto& frames = luma_frames("rocket_177x99_420p8_ref.y4m");
  for (const char* opts : {"", "motion_five_frame_window=true", "motion_force_zero=true"}) {
    mock_backend b;
    vqm::Motion<mock_backend> m(frames[0].format(), vqm::parse_options<vqm::motion_options>(vqm::option_map::parse(opts)));
    m.reserve_slots(1);
    std::vector<double> sad;
    for (const auto& p : frames) {
      auto f = b.begin_frame(p.view(), p.view());
      vqm::motion_partials part;
      m.enqueue(b, f, part);
      b.submit(f);
      b.wait(f);
      std::vector<double> s(m.names().size());
      m.scores(part, s.data());
      sad.push_back(s[0]);
      m.accumulate(part);
    }
    EXPECT_EQ(b.states, std::string(opts).find("force") == std::string::npos ? 1 : 0);
    const auto want = run_motion(frames, vqm::option_map::parse(opts));
    EXPECT_EQ(sad, want[0].second) << opts;
    const auto fin = m.finish();
    EXPECT_EQ(fin[0].second, want[1].second) << opts;
    EXPECT_EQ(fin[1].second, want[2].second) << opts;
  }
}

}  // namespace
