// Shared by the Cpu and Vulkan multi_session tests: N distorted streams scored in one pass against one
// reference give, for each, the table a separate session gives (every value, bit for bit).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "common/reference_data.hpp"
#include "vqm/multi_session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm::test {

// VMAF (vmaf_v0.6.1) + psnr + float_ssim, the given depth and subsample.
inline session_config multi_config(std::size_t depth, std::size_t subsample, compat mode) {
  return {{vmaf::builtin_model("vmaf_v0.6.1")},
          {parse_feature_request("psnr"), parse_feature_request("float_ssim")},
          mode,
          depth,
          subsample};
}

inline void expect_same_table(const score_table& got, const score_table& want, const std::string& what) {
  ASSERT_EQ(got.names, want.names) << what;
  ASSERT_EQ(got.frames, want.frames) << what;
  ASSERT_EQ(got.rows.size(), want.rows.size()) << what;
  EXPECT_EQ(got.frames_pushed, want.frames_pushed) << what;
  for (std::size_t r = 0; r < got.rows.size(); ++r) {
    ASSERT_EQ(got.rows[r].size(), want.rows[r].size()) << what;
    for (std::size_t k = 0; k < got.names.size(); ++k)
      EXPECT_TRUE(same(got.rows[r][k], want.rows[r][k]))
          << what << " frame " << got.frames[r] << " " << got.names[k] << ": " << got.rows[r][k] << " vs " << want.rows[r][k];
  }
  ASSERT_EQ(got.aggregate.size(), want.aggregate.size()) << what;
  for (std::size_t i = 0; i < got.aggregate.size(); ++i) {
    EXPECT_EQ(got.aggregate[i].first, want.aggregate[i].first) << what;
    EXPECT_TRUE(same(got.aggregate[i].second, want.aggregate[i].second)) << what << " " << got.aggregate[i].first;
  }
}

// rocket_177x99 against three distorted (x264 crf35, noise, the reference itself): one multi_session
// against three separate sessions on the same backend; returns the number of values compared.
template <Backend B>
std::size_t check_multi_equals_separate(std::span<B* const> backends, const session_config& cfg) {
  B& backend = *backends.front();
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  std::vector<std::vector<picture>> dis{read_all(fixture("rocket_177x99_420p8_x264crf35.y4m")),
                                        read_all(fixture("rocket_177x99_420p8_noise10.y4m")), refs};
  EXPECT_GE(refs.size(), 4u);
  for (const auto& d : dis) EXPECT_EQ(d.size(), refs.size());
  const auto& f = refs.front().format();

  multi_session<B> m(backends, f, cfg, dis.size());
  EXPECT_EQ(m.size(), dis.size());
  std::vector<picture_view> views(dis.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    for (std::size_t k = 0; k < dis.size(); ++k) views[k] = dis[k][i].view();
    m.push(refs[i].view(), views);
  }
  EXPECT_EQ(m.frames_pushed(), refs.size());
  // VMAF's motion reads the reference alone: the first distorted's session computes it for all.
  const auto computes_motion = [&](std::size_t k) {
    for (const auto& n : m.computed_names(k))
      if (n.find("motion") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(m.shares_reference_only_features());
  EXPECT_TRUE(computes_motion(0));
  for (std::size_t k = 1; k < dis.size(); ++k) EXPECT_FALSE(computes_motion(k)) << "distorted " << k;
  const auto got = m.finish();
  EXPECT_EQ(got.size(), dis.size());

  std::size_t values = 0;
  for (std::size_t k = 0; k < dis.size() && k < got.size(); ++k) {
    session<B> s(backend, f, cfg);
    for (std::size_t i = 0; i < refs.size(); ++i) s.push(refs[i].view(), dis[k][i].view());
    const auto want = s.finish();
    EXPECT_FALSE(want.rows.empty());
    EXPECT_TRUE(want.find("vmaf") && want.find("psnr_y") && want.find("float_ssim") && want.find("integer_motion2"));
    expect_same_table(got[k], want, "distorted " + std::to_string(k));
    values += want.rows.size() * want.names.size() + want.aggregate.size();
  }
  return values;
}

// One backend: every distorted on it.
template <Backend B>
std::size_t check_multi_equals_separate(B& backend, const session_config& cfg) {
  B* const one[] = {&backend};
  return check_multi_equals_separate(std::span<B* const>(one), cfg);
}

// The contract's edges: no stream, a push with the wrong number of pictures.
template <Backend B>
void check_multi_session_errors(B& backend) {
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  const auto& f = refs.front().format();
  EXPECT_THROW(multi_session<B>(backend, f, multi_config(1, 1, compat::none), 0), error);
  multi_session<B> m(backend, f, multi_config(1, 1, compat::none), 2);
  const picture_view one[] = {refs[0].view()};
  EXPECT_THROW(m.push(refs[0].view(), one), error);
}

// Nothing is shared when the reference-only features are all there is (motion alone: the other sessions
// would compute nothing) or absent; the tables still equal separate sessions.
template <Backend B>
void check_sharing_edges(B& backend) {
  const auto refs = read_all(fixture("rocket_177x99_420p8_ref.y4m"));
  const auto dis = read_all(fixture("rocket_177x99_420p8_noise10.y4m"));
  const auto& f = refs.front().format();
  for (const char* feature : {"motion", "psnr"}) {
    SCOPED_TRACE(feature);
    const session_config cfg{{}, {parse_feature_request(feature)}, compat::none, 2, 1};
    multi_session<B> m(backend, f, cfg, 2);
    EXPECT_FALSE(m.shares_reference_only_features());
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const picture_view two[] = {dis[i].view(), refs[i].view()};
      m.push(refs[i].view(), two);
    }
    const auto got = m.finish();
    ASSERT_EQ(got.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
      session<B> s(backend, f, cfg);
      for (std::size_t i = 0; i < refs.size(); ++i) s.push(refs[i].view(), k == 0 ? dis[i].view() : refs[i].view());
      expect_same_table(got[k], s.finish(), std::string(feature) + " distorted " + std::to_string(k));
    }
  }
}

}  // namespace vqm::test
