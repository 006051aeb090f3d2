// Shared by the Cpu and Vulkan streaming tests: session::on_frame gives every reported frame's row once,
// in frame order, as soon as its values are final (its features back from the backend, and the frames
// its temporal features read after it), with the names and values finish()'s table holds, bit for bit;
// multi_session::on_frame each distorted's rows the same way, also when the motion columns are shared.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/multi_session_check.hpp"
#include "common/reference_data.hpp"
#include "vqm/multi_session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm::test {

struct streamed_rows {
  std::vector<std::size_t> frames;
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  bool same_names = true;  // every row had the first row's names

  void add(const frame_scores& r) {
    if (frames.empty()) names.assign(r.names.begin(), r.names.end());
    else same_names = same_names && std::equal(names.begin(), names.end(), r.names.begin(), r.names.end());
    frames.push_back(r.frame);
    rows.emplace_back(r.values.begin(), r.values.end());
  }
};

// Returns the number of values compared.
inline std::size_t expect_streamed_equal(const streamed_rows& got, const score_table& want, const std::string& what) {
  EXPECT_TRUE(got.same_names) << what;
  EXPECT_EQ(got.names, want.names) << what;
  EXPECT_EQ(got.frames, want.frames) << what;  // every reported frame once, in order
  if (got.names != want.names || got.rows.size() != want.rows.size()) return 0;
  std::size_t n = 0;
  for (std::size_t r = 0; r < got.rows.size(); ++r)
    for (std::size_t k = 0; k < want.names.size(); ++k, ++n)
      EXPECT_TRUE(same(got.rows[r].at(k), want.rows[r][k]))
          << what << " frame " << want.frames[r] << " " << want.names[k] << ": " << got.rows[r][k] << " vs " << want.rows[r][k];
  return n;
}

// VMAF v0.6.1 (integer_motion2: frame n's value reads frame n+1's sad, the last frame's its own); motion
// with the five-frame window and the moving average (frame n reads n+2; the first frames' motion3 is
// frame 2's) with float_motion (motion2 in a per-frame column, motion3) and psnr, every other frame
// reported; each with `depth` frames in flight.
inline std::vector<std::pair<std::string, session_config>> streaming_configs(std::size_t depth) {
  return {{"vmaf_v0.6.1", {{vmaf::builtin_model("vmaf_v0.6.1")}, {}, compat::libvmaf, depth, 1}},
          {"motion five-frame window, float_motion, psnr, subsample 2",
           {{},
            {parse_feature_request("motion=motion_five_frame_window=true:motion_moving_average=true:debug=true"),
             parse_feature_request("float_motion=debug=true"), parse_feature_request("psnr")},
            compat::none,
            depth,
            2}}};
}

template <Backend B>
std::size_t check_session_streaming(B& backend, std::size_t depth) {
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  const auto dis = read_all(fixture("rocket_177x99_420p8_x264crf35.y4m"));
  EXPECT_GE(refs.size(), 8u);
  std::size_t values = 0;
  for (const auto& [what, cfg] : streaming_configs(depth)) {
    session<B> s(backend, refs.front().format(), cfg);
    streamed_rows got;
    s.on_frame([&got](const frame_scores& r) { got.add(r); });
    const std::size_t after = session<B>::context(cfg).after;
    EXPECT_GE(after, 1u) << what;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      s.push(refs[i].view(), dis[i].view());
      // As soon as final: frames back from the backend are all but depth() in flight; a reported frame's
      // row is final once the frames `after` it are back.
      const std::size_t back = i + 1 > s.depth() ? i + 1 - s.depth() : 0;
      std::size_t final_rows = 0;
      for (std::size_t j = 0; j + after < back; ++j) final_rows += j % cfg.subsample == 0;
      EXPECT_EQ(got.frames.size(), final_rows) << what << ", after frame " << i << " was pushed";
    }
    EXPECT_GT(got.frames.size(), 0u) << what;
    const auto t = s.finish();
    EXPECT_TRUE(std::any_of(t.names.begin(), t.names.end(), [](const std::string& n) { return n.starts_with("integer_motion2"); }))
        << what;
    values += expect_streamed_equal(got, t, what);
  }
  return values;
}

// Three distorted, VMAF + psnr + float_ssim (motion computed once, for all) and motion alone (every
// session its own): each distorted's streamed rows equal its table.
template <Backend B>
std::size_t check_multi_session_streaming(B& backend) {
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  std::vector<std::vector<picture>> dis{read_all(fixture("rocket_177x99_420p8_x264crf35.y4m")),
                                        read_all(fixture("rocket_177x99_420p8_noise10.y4m")), refs};
  const auto& f = refs.front().format();
  std::size_t values = 0;
  for (const bool shared : {true, false}) {
    const session_config cfg = shared ? multi_config(2, 1, compat::libvmaf)
                                      : session_config{{}, {parse_feature_request("motion")}, compat::none, 2, 1};
    multi_session<B> m(backend, f, cfg, dis.size());
    EXPECT_EQ(m.shares_reference_only_features(), shared);
    std::vector<streamed_rows> got(dis.size());
    m.on_frame([&got](std::size_t k, const frame_scores& r) { got.at(k).add(r); });
    std::vector<picture_view> views(dis.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
      for (std::size_t k = 0; k < dis.size(); ++k) views[k] = dis[k][i].view();
      m.push(refs[i].view(), views);
    }
    for (std::size_t k = 0; k < dis.size(); ++k) EXPECT_GT(got[k].frames.size(), 0u) << "streamed before finish, distorted " << k;
    const auto t = m.finish();
    for (std::size_t k = 0; k < dis.size(); ++k)
      values += expect_streamed_equal(got[k], t.at(k), (shared ? "shared motion, distorted " : "motion, distorted ") + std::to_string(k));
  }
  return values;
}

}  // namespace vqm::test
