// Results do not depend on the Cpu backend's thread count: the scorer with depth = threads gives the
// same bits as one thread, frame by frame and in the aggregates; so does a caller-provided executor.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/counting_executor.hpp"
#include "cpu/synthetic.hpp"
#include "vqm/cpu.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

struct run_output {
  std::vector<std::string> names;
  std::vector<std::vector<double>> frames;
  std::vector<std::pair<std::string, double>> aggregates;
};

run_output score(vqm::Cpu& cpu, const std::vector<vqm::picture>& refs, const std::vector<vqm::picture>& dists) {
  const unsigned threads = cpu.threads();
  const auto& f = refs.front().format();
  std::vector<vqm::any_metric<vqm::Cpu>> metrics;
  metrics.push_back(vqm::make_metric<vqm::Cpu>("psnr", {{"enable_mse", "true"}, {"enable_apsnr", "true"}}, f));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_psnr", {}, f));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_ssim", {{"enable_lcs", "true"}}, f));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("float_ms_ssim", {{"enable_lcs", "true"}}, f));
  metrics.push_back(vqm::make_metric<vqm::Cpu>("psnr_hvs", {}, f));
  vqm::scorer<vqm::Cpu> s(cpu, std::move(metrics), vqm::compat::none, threads);
  run_output out;
  out.names = s.names();
  auto take = [&](const vqm::frame_result& r) {
    EXPECT_EQ(r.index, out.frames.size()) << "results must come back in frame order";
    out.frames.push_back(r.values);
  };
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (auto r = s.push(refs[i], dists[i])) take(*r);
  while (auto r = s.pop()) take(*r);
  out.aggregates = s.aggregate();
  return out;
}

run_output score(unsigned threads, const std::vector<vqm::picture>& refs, const std::vector<vqm::picture>& dists) {
  vqm::Cpu cpu(threads);
  EXPECT_EQ(cpu.threads(), threads);
  return score(cpu, refs, dists);
}

void expect_same_bits(const run_output& many, const run_output& one, const std::string& what) {
  ASSERT_EQ(many.names, one.names);
  ASSERT_EQ(many.frames.size(), one.frames.size());
  for (std::size_t i = 0; i < one.frames.size(); ++i)
    for (std::size_t k = 0; k < one.names.size(); ++k)
      EXPECT_EQ(std::memcmp(&many.frames[i][k], &one.frames[i][k], sizeof(double)), 0)
          << what << ", frame " << i << ", " << one.names[k] << ": " << many.frames[i][k] << " vs " << one.frames[i][k];
  ASSERT_EQ(many.aggregates.size(), one.aggregates.size());
  for (std::size_t k = 0; k < one.aggregates.size(); ++k) {
    EXPECT_EQ(many.aggregates[k].first, one.aggregates[k].first);
    EXPECT_EQ(std::memcmp(&many.aggregates[k].second, &one.aggregates[k].second, sizeof(double)), 0)
        << what << ", " << one.aggregates[k].first;
  }
}

struct frames {
  std::vector<vqm::picture> refs, dists;
};

frames synthetic_frames() {
  const vqm::picture_format f{333, 197, vqm::chroma_format::yuv420, 8};
  frames out;
  for (std::uint32_t i = 0; i < 9; ++i) {
    out.refs.push_back(vqm::test::synthetic_picture(f, i, false));
    out.dists.push_back(vqm::test::synthetic_picture(f, i, true));
  }
  return out;
}

TEST(CpuThreads, ResultsDoNotDependOnThreadCount) {
  const auto [refs, dists] = synthetic_frames();
  const auto one = score(1, refs, dists);
  ASSERT_EQ(one.frames.size(), refs.size());
  // Frames differ from each other, so a mix-up between frames would show.
  EXPECT_NE(one.frames[0], one.frames[1]);
  for (unsigned threads : {2u, 3u, 4u}) expect_same_bits(score(threads, refs, dists), one, std::to_string(threads) + " threads");
}

// More metrics than a frame keeps inline (16 kernel calls; the rest spill into a vector): every one runs, with
// the bits it has alone, on one thread and through the pool's frame copies (e.g. all eight VMAF v1 models).
TEST(CpuThreads, MoreKernelsThanAFrameHoldsInline) {
  const auto [refs, dists] = synthetic_frames();
  const auto& f = refs.front().format();
  for (unsigned threads : {1u, 3u}) {
    vqm::Cpu cpu(threads);
    std::vector<vqm::any_metric<vqm::Cpu>> metrics;
    for (int k = 0; k < 20; ++k)  // alternating, so a job run in another's place would show
      metrics.push_back(vqm::make_metric<vqm::Cpu>(k % 2 ? "psnr" : "float_psnr", {}, f));
    vqm::scorer<vqm::Cpu> s(cpu, std::move(metrics), vqm::compat::none, threads);
    std::vector<std::vector<double>> rows;
    for (std::size_t i = 0; i < refs.size(); ++i)
      if (auto r = s.push(refs[i], dists[i])) rows.push_back(r->values);
    while (auto r = s.pop()) rows.push_back(r->values);
    ASSERT_EQ(rows.size(), refs.size());
    const std::size_t per = rows[0].size() / 20;  // outputs of one metric
    ASSERT_EQ(rows[0].size(), per * 20);
    for (const auto& row : rows)
      for (std::size_t k = 2; k < 20; ++k)
        for (std::size_t o = 0; o < per; ++o)
          EXPECT_EQ(std::memcmp(&row[k * per + o], &row[(k % 2) * per + o], sizeof(double)), 0) << threads << " " << k;
    EXPECT_NE(rows[0][0], rows[0][per]);  // psnr and float_psnr differ: the comparison above can fail
  }
}

TEST(CpuThreads, CallersExecutorRunsEveryFrameWithTheSameBits) {
  const auto [refs, dists] = synthetic_frames();
  const auto own = score(3, refs, dists);
  vqm::test::counting_executor ex(3);
  vqm::Cpu cpu(ex);
  EXPECT_EQ(cpu.threads(), 3u);
  expect_same_bits(score(cpu, refs, dists), own, "caller's executor");
  EXPECT_EQ(ex.posted(), static_cast<int>(refs.size())) << "one task per frame, none on a pool of the backend";
  EXPECT_EQ(ex.ran(), static_cast<int>(refs.size()));
}

TEST(CpuThreads, AnExecutorShapedTypeThroughExecutorRef) {
  // Any type with post(): here one that runs the frame inline.
  struct inline_runner {
    int calls = 0;
    void post(std::function<void()> f) {
      ++calls;
      f();
    }
  } runner;
  vqm::executor_ref ex(runner, 1);
  vqm::Cpu cpu(ex);
  const auto [refs, dists] = synthetic_frames();
  expect_same_bits(score(cpu, refs, dists), score(1, refs, dists), "executor_ref");
  EXPECT_EQ(runner.calls, static_cast<int>(refs.size()));
}

TEST(CpuThreads, MismatchedPicturesAreRefusedWithThreads) {
  // A frame whose pictures do not match is refused at begin_frame, before any worker runs.
  vqm::Cpu cpu(2);
  const auto a = vqm::test::synthetic_picture({64, 64, vqm::chroma_format::yuv420, 8}, 0, false);
  const auto b = vqm::test::synthetic_picture({64, 48, vqm::chroma_format::yuv420, 8}, 0, false);
  EXPECT_THROW((void)cpu.begin_frame(a, b), vqm::error);
}

}  // namespace
