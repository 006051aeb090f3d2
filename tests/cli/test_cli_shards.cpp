// Shards (issue #21): `vqm ... --frame-range A:B --shard-out F` for each part of a split, then `vqm merge -o
// OUT F...` writes the single run's bytes (the fps figure aside) for every split of a 16-frame clip into 2,
// 3 or 4 shards, in XML, JSON and CSV: VMAF with a bootstrap model, psnr with APSNR, float_ssim, motion with
// its five-frame window and moving average, float_motion. A gap, an overlap, a shard of another run or
// vqm, a corrupt, truncated or foreign file are one-line errors naming the file, and leave no output.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "common/test_namespace.hpp"
#include "merge.hpp"  // apps/vqm: the sweep merges in this process (a process each would cost minutes)

namespace cli_test {
namespace VQM_TEST_UNIT {

const std::string rocket = "rocket_177x99_420p8_";

std::string without_fps(const std::string& s) {
  return std::regex_replace(s, std::regex(R"(fps(=\"|\": )[0-9.a-z]+)"), "fps=...");
}

class cli_shards : public cli_fixture {
 protected:
  // 16 frames of 177x99 4:2:0 from two fixtures pairs: the rocket reference twice, against its x264 encode
  // then its noisy copy (a cut in the middle, where motion jumps).
  void SetUp() override {
    cli_fixture::SetUp();
    const auto cat = [&](const std::string& a, const std::string& b, const std::string& to) {
      const std::string x = slurp(fx(rocket + a)), y = slurp(fx(rocket + b));
      spit(path(to), x + y.substr(y.find('\n') + 1));
    };
    cat("ref.y4m", "ref.y4m", "ref.y4m");
    cat("x264crf35.y4m", "noise10.y4m", "dis.y4m");
  }

  std::vector<std::string> args(const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> a{"-r", path("ref.y4m"), "-d", path("dis.y4m"), "-q", "-m", "version=vmaf_b_v0.6.3",
                               "--feature", "psnr=enable_apsnr=true", "--feature", "float_ssim", "--feature",
                               "motion=motion_five_frame_window=true:motion_moving_average=true", "--feature",
                               "float_motion"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  // Runs the shard of frames [a, b) into `name`.
  std::string shard(std::size_t a, std::size_t b, const std::vector<std::string>& extra = {}, std::string name = {}) {
    if (name.empty()) name = "s" + std::to_string(a) + "_" + std::to_string(b);
    auto x = args(extra);
    x.insert(x.end(), {"--frame-range", std::to_string(a) + ":" + std::to_string(b), "--shard-out", path(name)});
    const auto r = vqm(x);
    EXPECT_EQ(r.rc, 0) << r.err;
    return path(name);
  }

  // `vqm merge FORMAT [extra] -o out FILES` (files given last first: any order is accepted).
  std::string merge(const std::string& format, std::vector<std::string> files, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> x{"merge", format, "-o", path("merged")};
    x.insert(x.end(), extra.begin(), extra.end());
    x.insert(x.end(), files.rbegin(), files.rend());
    const auto r = vqm(x);
    EXPECT_EQ(r.rc, 0) << r.err;
    return slurp(path("merged"));
  }

  // The report `vqm merge FORMAT` writes, from shards read once, in this process (merge_cli's parsing and
  // the atomic write aside: the sweep's 1700 merges as processes would cost minutes).
  static std::string merge_here(const std::string& format, const std::vector<vqm::cli::shard>& shards) {
    const auto f = format == "--json" ? vqm::cli::output_format::json
                   : format == "--csv" ? vqm::cli::output_format::csv : vqm::cli::output_format::xml;
    return vqm::cli::write_report(f, vqm::cli::merge_detail::merge_shards({shards.rbegin(), shards.rend()}), {});
  }

  std::string single(const std::string& format, const std::vector<std::string>& extra = {}) {
    auto x = args(extra);
    x.insert(x.end(), {format, "-o", path("single")});
    const auto r = vqm(x);
    EXPECT_EQ(r.rc, 0) << r.err;
    return slurp(path("single"));
  }
};

TEST_F(cli_shards, every_split_into_two_to_four_shards_merges_into_the_single_runs_bytes) {
  constexpr std::size_t n = 16;
  const std::vector<std::string> formats{"--xml", "--json", "--csv"};
  std::vector<std::string> want;
  for (const auto& f : formats) want.push_back(without_fps(single(f)));
  ASSERT_NE(want[1].find("vmaf_ci_p95_hi"), std::string::npos);
  ASSERT_NE(want[1].find("apsnr_y"), std::string::npos);
  // Every range once; the last shard of a split is asked for past the stream's end (B > 16 is the end).
  std::vector<std::vector<std::string>> file(n, std::vector<std::string>(n + 1));
  std::vector<std::vector<vqm::cli::shard>> read(n, std::vector<vqm::cli::shard>(n + 1));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b <= n; ++b) {
      if (a == 0 && b == n) continue;  // one shard is no split
      file[a][b] = shard(a, b == n ? 1000 : b);
      read[a][b] = vqm::cli::read_shard(file[a][b]);
    }
  std::size_t splits = 0;
  for (unsigned cuts = 1; cuts < (1u << (n - 1)); ++cuts) {  // bit k: a shard ends after frame k
    const int parts = __builtin_popcount(cuts) + 1;
    if (parts > 4) continue;
    std::vector<std::string> files;
    std::vector<vqm::cli::shard> shards;
    std::size_t a = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (k + 1 == n || (cuts >> k & 1u)) {
        files.push_back(file[a][k + 1]);
        shards.push_back(read[a][k + 1]);
        a = k + 1;
      }
    for (std::size_t f = 0; f < formats.size(); ++f) {  // the first split through the program too
      if (splits == 0) {
        ASSERT_EQ(without_fps(merge(formats[f], files)), want[f]) << formats[f] << " split " << cuts;
      }
      ASSERT_EQ(without_fps(merge_here(formats[f], shards)), want[f]) << formats[f] << " split " << cuts;
    }
    ++splits;
  }
  EXPECT_EQ(splits, 15u + 105u + 455u);
}

// Options of the shards (--subsample, --frame_skip_*, --threads: libvmaf's threaded series order) and of the
// merge (--pool, --precision, --sub).
TEST_F(cli_shards, subsample_skips_pool_and_precision_merge_exactly) {
  const std::vector<std::string> run{"--subsample", "3", "--frame_skip_ref", "1", "--frame_skip_dist", "1",
                                     "--threads", "2"};
  const std::vector<std::string> out{"--precision", "max", "--pool", "min,p5,mean,harmonic_mean,stddev,p99.5"};
  auto both = run;
  both.insert(both.end(), out.begin(), out.end());
  std::vector<std::vector<vqm::cli::shard>> splits;  // 15 frames after the skips, cut in two
  for (std::size_t cut = 1; cut < 15; cut += 2)
    splits.push_back({vqm::cli::read_shard(shard(0, cut, run, "a")), vqm::cli::read_shard(shard(cut, 15, run, "b"))});
  for (const std::string format : {"--json", "--csv", "--sub"}) {
    const auto want = without_fps(single(format, both));
    const std::string first = format == "--csv" ? "Frame,psnr_y,psnr_cb,psnr_cr," : format == "--sub" ? "{0}{1}frame: 0|psnr_y: " : "";
    EXPECT_TRUE(want.starts_with(first)) << want.substr(0, 99);
    EXPECT_EQ(without_fps(merge(format, {path("a"), path("b")}, out)), want) << format;  // the last cut
    for (const auto& s : splits) {
      auto rep = vqm::cli::merge_detail::merge_shards(s);
      rep.statistics = vqm::io::parse_pool_statistics(out[3]);
      const auto f = vqm::cli::chosen_format(format == "--json", format == "--csv", format == "--sub");
      EXPECT_EQ(without_fps(vqm::cli::write_report(f, rep, vqm::cli::number_format::parse("max"))), want)
          << format << " cut " << s.front().end;
    }
  }
}

// FNV-1a-64, as the shard header's checksum.
std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

TEST_F(cli_shards, gaps_overlaps_other_runs_and_damaged_files_are_refused) {
  const auto a = shard(0, 6), b = shard(6, 16), c = shard(4, 16), d = shard(10, 16);
  const auto other = shard(6, 16, {"--subsample", "2"}, "other");
  expect_clean_failure({"merge", a, d}, {d, "no shard has frames 6..9"});
  expect_clean_failure({"merge", c, a}, {c, "frames 4..5 are also in", a});
  expect_clean_failure({"merge", a}, {a, "no shard has the frames from 6"});
  expect_clean_failure({"merge", b}, {b, "no shard has frames 0..5"});
  expect_clean_failure({"merge", a, other}, {other, "another options", "--subsample 2"});
  // --threads given lists psnr's series first (libvmaf's threaded order): not the series of a run without it.
  const auto threaded = shard(6, 16, {"--threads", "1"}, "threaded");
  expect_clean_failure({"merge", a, threaded},
                       {threaded, "another series", "(psnr_y,psnr_cb,psnr_cr,motion2,motion,motion3,integer_adm2,",
                        " vs integer_adm2,"});
  // Another distorted: the same frames of another file.
  spit(path("dis2.y4m"), slurp(path("ref.y4m")));
  auto x = args();
  x[3] = path("dis2.y4m");
  x.insert(x.end(), {"--frame-range", "6:16", "--shard-out", path("dis2")});
  ASSERT_EQ(vqm(x).rc, 0);
  expect_clean_failure({"merge", a, path("dis2")}, {path("dis2"), "another distorted"});
  // Damaged: a flipped byte, a cut, a foreign file, another vqm version (with a valid checksum).
  const std::string good = slurp(b);
  std::string flipped = good;
  flipped[flipped.size() - 40] ^= 1;
  spit(path("flipped"), flipped);
  expect_clean_failure({"merge", a, path("flipped")}, {path("flipped"), "corrupt", "checksum"});
  spit(path("cut"), good.substr(0, good.size() / 2));
  expect_clean_failure({"merge", a, path("cut")}, {path("cut"), "truncated"});
  expect_clean_failure({"merge", a, path("ref.y4m")}, {path("ref.y4m"), "not a vqm shard file"});
  std::string body = good.substr(good.find('\n') + 1);
  body = std::regex_replace(body, std::regex(R"("vqm_version": "[^"]*")"), R"("vqm_version": "0.0.1")");
  char head[96];
  std::snprintf(head, sizeof head, "vqm-shard 1 fnv1a64=%016llx bytes=%zu\n",
                static_cast<unsigned long long>(fnv1a64(body)), body.size());
  spit(path("old"), head + body);
  expect_clean_failure({"merge", a, path("old")}, {path("old"), "written by vqm 0.0.1"});
  // The run side: the pair of flags, a range past the end, a report asked of a shard run.
  expect_clean_failure({"-r", path("ref.y4m"), "-d", path("dis.y4m"), "--frame-range", "0:4"}, {"--shard-out"});
  x = args();
  x.insert(x.end(), {"--frame-range", "16:20", "--shard-out", path("late")});
  const auto r = vqm(x);
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("starts at frame 16 but the stream has 16 frames"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("late")));
}

// `vqm --count-frames`: the frames a run scores, what a scheduler cuts into --frame-range shards (recipes/dask).
TEST_F(cli_shards, count_frames_prints_what_the_run_scores) {
  const auto count = [&](const std::vector<std::string>& extra) {
    auto x = args(extra);
    x.push_back("--count-frames");
    return vqm(x);
  };
  EXPECT_EQ(count({}).out, "16\n");
  EXPECT_EQ(count({"--frame_skip_ref", "3", "--frame_skip_dist", "3"}).out, "13\n");
  EXPECT_EQ(count({"--frame_cnt", "5"}).out, "5\n");
  EXPECT_EQ(count({"--frame_skip_ref", "2", "--frame_cnt", "9"}).out, "9\n");  // the run reads no further either
  const auto mismatch = count({"--frame_skip_ref", "2"});
  EXPECT_EQ(mismatch.rc, 1);
  EXPECT_NE(mismatch.err.find("has 14 frames after --frame_skip_ref 2 but distorted"), std::string::npos) << mismatch.err;
  const auto with_output = count({"-o", path("out.xml")});
  EXPECT_EQ(with_output.rc, 1);
  EXPECT_NE(with_output.err.find("--count-frames prints the number of frames"), std::string::npos) << with_output.err;
  EXPECT_TRUE(leftovers({"ref.y4m", "dis.y4m"}).empty());
}

}  // namespace VQM_TEST_UNIT
}  // namespace cli_test
