// Issue #8: frame sync (--frame_skip_ref/--frame_skip_dist), mixed bit depths, opt-in pooled statistics
// (--pool), libvmaf's JSON layout for non-finite values, and libvmaf's command line (prefixes, the flags
// vqm refuses). Each result is checked against an independent computation: pre-trimmed and pre-shifted
// files, statistics recomputed here another way, the layout written out from libvmaf's output.c.
#include "cli/cli_fixture.hpp"

#include <cstdint>
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace cli_test;
using cli_frames = cli_fixture;
using cli_depth = cli_fixture;
using cli_pool = cli_fixture;
using cli_flags = cli_fixture;

// A Y4M file as its header line and its frame payloads (fixtures use plain "FRAME\n" headers).
struct y4m {
  std::string header;  // without the newline
  std::vector<std::string> frames;

  static y4m parse(const std::string& text, std::size_t frame_bytes) {
    y4m f;
    std::size_t pos = text.find('\n');
    f.header = text.substr(0, pos);
    for (++pos; pos < text.size(); pos += 6 + frame_bytes) f.frames.push_back(text.substr(pos + 6, frame_bytes));
    return f;
  }
  std::string text() const {
    std::string s = header + "\n";
    for (const auto& fr : frames) (s += "FRAME\n") += fr;
    return s;
  }
};

// An 8-bit 4:2:0 file at `bits`: samples shifted left, plus `low(i)` in the new low bits of sample i.
std::string to_depth(const y4m& in, int bits, unsigned (*low)(std::size_t)) {
  y4m out = in;
  const auto c = out.header.find(" C420jpeg");
  out.header.replace(c, 9, " C420p" + std::to_string(bits));
  const auto x = out.header.find(" XYSCSS=");
  if (x != std::string::npos) out.header.erase(x, out.header.find(' ', x + 1) - x);
  for (auto& fr : out.frames) {
    std::string wide(2 * fr.size(), '\0');
    for (std::size_t i = 0; i < fr.size(); ++i) {
      const unsigned v = (static_cast<unsigned>(static_cast<unsigned char>(fr[i])) << (bits - 8)) + low(i);
      wide[2 * i] = static_cast<char>(v & 0xff);
      wide[2 * i + 1] = static_cast<char>(v >> 8);
    }
    fr = std::move(wide);
  }
  return out.text();
}
unsigned no_low_bits(std::size_t) { return 0; }
unsigned some_low_bits(std::size_t i) { return static_cast<unsigned>((i * 7) % 4); }

json without_fps(json j) {
  j.erase("fps");
  return j;
}

const std::string rk_ref = "rocket_177x99_420p8_ref.y4m", rk_dis = "rocket_177x99_420p8_x264crf35.y4m";
const std::size_t rk_frame = 177 * 99 + 2 * 89 * 50;  // ceil chroma for the odd size

// ---------------------------------------------------------------------------------------------------
// Frame sync

TEST_F(cli_frames, skipping_frames_equals_scoring_trimmed_files) {
  // VMAF's motion is temporal: skipped frames must not feed it, exactly as if the files began later.
  auto ref = y4m::parse(slurp(fx(rk_ref)), rk_frame), dis = y4m::parse(slurp(fx(rk_dis)), rk_frame);
  ASSERT_EQ(ref.frames.size(), 8u);
  ref.frames.erase(ref.frames.begin(), ref.frames.begin() + 2);
  dis.frames.erase(dis.frames.begin(), dis.frames.begin() + 1);
  spit(path("ref_from2.y4m"), ref.text());
  spit(path("dis_from1.y4m"), dis.text());
  const std::vector<std::string> common = {"--feature", "psnr=enable_apsnr=true", "--feature", "float_ssim",
                                           "--precision", "max", "--frame_cnt", "5", "--json", "-o"};
  auto a = std::vector<std::string>{"-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_skip_ref", "2", "--frame_skip_dist", "1"};
  a.insert(a.end(), common.begin(), common.end());
  a.push_back(path("skip.json"));
  auto b = std::vector<std::string>{"-r", path("ref_from2.y4m"), "-d", path("dis_from1.y4m")};
  b.insert(b.end(), common.begin(), common.end());
  b.push_back(path("trim.json"));
  const auto ra = vqm(a), rb = vqm(b);
  ASSERT_EQ(ra.rc, 0) << ra.err;
  ASSERT_EQ(rb.rc, 0) << rb.err;
  const auto ja = without_fps(json::parse(slurp(path("skip.json")))), jb = without_fps(json::parse(slurp(path("trim.json"))));
  ASSERT_EQ(ja.at("frames").size(), 5u);
  EXPECT_EQ(ja.at("frames")[0].at("frameNum"), 0);  // numbered from the first pair, as libvmaf does
  EXPECT_EQ(ja, jb);
  // libvmaf's older name for --frame_skip_ref.
  auto c = a;
  c[4] = "--skip_ref_frame";
  c.back() = path("old.json");
  const auto rc = vqm(c);
  ASSERT_EQ(rc.rc, 0) << rc.err;
  EXPECT_EQ(without_fps(json::parse(slurp(path("old.json")))), ja);
}

TEST_F(cli_frames, counts_after_skipping_must_match_and_the_error_says_how) {
  // 8 and 8 frames, 3 skipped from the reference: 5 against 8.
  expect_clean_failure({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_skip_ref", "3"},
                       {fx(rk_ref) + " has 5 frames after --frame_skip_ref 3", fx(rk_dis) + " has 8 frames",
                        "--frame_cnt 5 compares the first 5"});
  expect_clean_failure({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_skip_dist", "9"},
                       {"distorted " + fx(rk_dis) + " has only 8 frames, fewer than --frame_skip_dist 9 skips"});
  expect_clean_failure({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_skip_ref", "8",
                        "--frame_skip_dist", "8"},
                       {fx(rk_ref), "no frames to compare after skipping 8"});
  // The common part with --frame_cnt, as the first error suggests.
  const auto r = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_skip_ref", "3",
                      "--frame_cnt", "5", "--json", "-o", path("ok.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(json::parse(slurp(path("ok.json"))).at("frames").size(), 5u);
}

// ---------------------------------------------------------------------------------------------------
// Mixed bit depths

TEST_F(cli_depth, lower_depth_input_is_scored_shifted_to_the_higher_depth) {
  const auto ref8 = y4m::parse(slurp(fx(rk_ref)), rk_frame), dis8 = y4m::parse(slurp(fx(rk_dis)), rk_frame);
  spit(path("ref10.y4m"), to_depth(ref8, 10, no_low_bits));    // the reference as libvmaf would read it
  spit(path("dis10.y4m"), to_depth(dis8, 10, some_low_bits));  // a genuine 10-bit encode
  const std::vector<std::string> metrics = {"--feature", "psnr=enable_apsnr=true", "--feature", "float_ssim",
                                            "--feature", "psnr_hvs", "--precision", "max", "--json", "-o"};
  auto run = [&](const std::string& r, const std::string& d, const std::string& out) {
    std::vector<std::string> a = {"-r", r, "-d", d};
    a.insert(a.end(), metrics.begin(), metrics.end());
    a.push_back(path(out));
    auto res = vqm(a);
    EXPECT_EQ(res.rc, 0) << res.err;
    return std::pair{without_fps(json::parse(slurp(path(out)))), res.err};
  };
  const auto [mixed, note] = run(fx(rk_ref), path("dis10.y4m"), "mixed.json");
  const auto [shifted, none] = run(path("ref10.y4m"), path("dis10.y4m"), "shifted.json");
  EXPECT_EQ(mixed, shifted);
  EXPECT_EQ(mixed.at("frames").size(), 8u);
  EXPECT_EQ(none, "");
  // Said once, naming both files and what was done.
  EXPECT_EQ(std::count(note.begin(), note.end(), '\n'), 1) << note;
  EXPECT_NE(note.find("vqm: note: reference " + fx(rk_ref) + " is 8-bit and distorted " + path("dis10.y4m") +
                      " is 10-bit: scoring both at 10 bits, the reference's samples shifted left by 2"),
            std::string::npos)
      << note;
  // The other way round: the distorted input is the one shifted.
  const auto [rev, rev_note] = run(path("dis10.y4m"), fx(rk_ref), "rev.json");
  const auto [rev_shifted, rev_none] = run(path("dis10.y4m"), path("ref10.y4m"), "rev_shifted.json");
  EXPECT_EQ(rev, rev_shifted);
  EXPECT_NE(rev_note.find("the distorted's samples shifted left by 2"), std::string::npos) << rev_note;
  // -q silences the note.
  const auto quiet = vqm({"-q", "-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", path("dis10.y4m")});
  EXPECT_EQ(quiet.rc, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

TEST_F(cli_depth, psnr_peak_and_ceiling_are_the_common_depths) {
  // An 8-bit file against itself shifted to 10 and 12 bits: identical samples at the common depth, so
  // psnr is its ceiling there, 6 * depth + 12 (72 and 84 dB), not the 8-bit 60 dB.
  const auto ref8 = y4m::parse(slurp(fx(rk_ref)), rk_frame);
  for (const int bits : {10, 12}) {
    const auto name = "ref" + std::to_string(bits) + ".y4m";
    spit(path(name), to_depth(ref8, bits, no_low_bits));
    const auto r = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", path(name), "--json", "-o", path("o.json")});
    ASSERT_EQ(r.rc, 0) << r.err;
    const auto j = json::parse(slurp(path("o.json")));
    for (const auto& f : j.at("frames"))
      for (const char* n : {"psnr_y", "psnr_cb", "psnr_cr"}) EXPECT_EQ(f.at("metrics").at(n).get<double>(), 6.0 * bits + 12) << n;
  }
  // Inputs that differ in more than depth are still an error.
  expect_clean_failure({"-r", fx(ast_ref), "-d", fx("chelsea_320x180_444p12_ref.y4m")},
                       {"576x324 4:2:0 8-bit", "320x180 4:4:4 12-bit", "same size and chroma format"});
}

// ---------------------------------------------------------------------------------------------------
// --pool

// Independent definitions: the population variance as E[x²] − E[x]² in long double, and the percentile
// as the weighted average (1 − t)·a + t·b of the sorted neighbours around rank (n − 1)·p/100.
long double pstdev(std::vector<double> v) {
  long double s = 0, s2 = 0;
  for (double x : v) s += x, s2 += static_cast<long double>(x) * x;
  const long double n = static_cast<long double>(v.size()), m = s / n;
  return std::sqrt(std::max<long double>(s2 / n - m * m, 0));
}
long double pct(std::vector<double> v, long double p) {
  std::sort(v.begin(), v.end());
  const long double h = (v.size() - 1) * p / 100;
  const auto i = static_cast<std::size_t>(h);
  const long double t = h - i;
  return i + 1 < v.size() ? (1 - t) * v[i] + t * v[i + 1] : v[i];
}

TEST_F(cli_pool, statistics_in_every_format) {
  const std::string pool = "mean,harmonic_mean,min,max,stddev,p1,p5,p50,p95,p99.5";
  const auto r = vqm({"-n", "--feature", "psnr", "--feature", "float_ssim", "-r", fx(rk_ref), "-d", fx(rk_dis),
                      "--pool", pool, "--precision", "max", "--json", "-o", path("p.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto text = slurp(path("p.json"));
  const auto j = nlohmann::ordered_json::parse(text);
  const auto plain = vqm({"-n", "--feature", "psnr", "--feature", "float_ssim", "-r", fx(rk_ref), "-d", fx(rk_dis),
                          "--precision", "max", "--json", "-o", path("plain.json")});
  ASSERT_EQ(plain.rc, 0) << plain.err;
  const auto jp = json::parse(slurp(path("plain.json")));
  for (const char* name : {"psnr_y", "psnr_cb", "float_ssim"}) {
    SCOPED_TRACE(name);
    std::vector<double> v;
    for (const auto& f : j.at("frames")) v.push_back(f.at("metrics").at(name).get<double>());
    ASSERT_EQ(v.size(), 8u);
    const auto& p = j.at("pooled_metrics").at(name);
    std::vector<std::string> keys;
    for (const auto& [k, val] : p.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"mean", "harmonic_mean", "min", "max", "stddev", "p1", "p5", "p50", "p95",
                                              "p99.5"}));
    // libvmaf's four are unchanged by --pool.
    for (const char* k : {"min", "max", "mean", "harmonic_mean"}) EXPECT_EQ(p.at(k).get<double>(), jp.at("pooled_metrics").at(name).at(k).get<double>()) << k;
    const double sd = p.at("stddev").get<double>();
    EXPECT_NEAR(sd, static_cast<double>(pstdev(v)), 1e-9 * std::max(1.0, sd));
    for (const auto& [k, q] : std::vector<std::pair<std::string, long double>>{{"p1", 1}, {"p5", 5}, {"p50", 50}, {"p95", 95}, {"p99.5", 99.5L}}) {
      const double got = p.at(k).get<double>(), want = static_cast<double>(pct(v, q));
      EXPECT_NEAR(got, want, 1e-12 * std::abs(want)) << k;
    }
    auto sorted = v;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(p.at("p50").get<double>() * 2, sorted[3] + sorted[4]) << "the median of 8 is the mean of the middle two";
  }
  // XML: the same statistics as attributes, in order; CSV: one row per statistic after the frames.
  const auto x = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--pool", "stddev,p50", "--precision",
                      "max", "--xml", "-o", path("p.xml")});
  ASSERT_EQ(x.rc, 0) << x.err;
  const auto& py = j.at("pooled_metrics").at("psnr_y");
  char want[200];
  std::snprintf(want, sizeof want, R"(<metric name="psnr_y" stddev="%.17g" p50="%.17g" />)", py.at("stddev").get<double>(),
                py.at("p50").get<double>());
  EXPECT_NE(slurp(path("p.xml")).find(want), std::string::npos) << slurp(path("p.xml"));
  const auto c = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--pool", "stddev,p50", "--precision",
                      "max", "--csv", "-o", path("p.csv")});
  ASSERT_EQ(c.rc, 0) << c.err;
  const auto csv = slurp(path("p.csv"));
  std::snprintf(want, sizeof want, "\nstddev,%.17g,", py.at("stddev").get<double>());
  EXPECT_NE(csv.find(want), std::string::npos) << csv;
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n7,[^\n]*\nstddev,[^\n]*\np50,[^\n]*,\n$"))) << csv;
}

TEST_F(cli_pool, default_list_is_libvmafs_output_and_bad_lists_are_refused) {
  for (const char* f : {"--xml", "--json"}) {
    const auto a = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), f, "-o", "-"});
    const auto b = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), f, "-o", "-", "--pool",
                        "min,max,mean,harmonic_mean"});
    ASSERT_EQ(a.rc, 0) << a.err;
    const std::regex fps(R"((fps="|"fps": )[0-9.]+)");
    EXPECT_EQ(std::regex_replace(a.out, fps, "$1"), std::regex_replace(b.out, fps, "$1")) << f;
  }
  const std::vector<std::string> base = {"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--pool"};
  auto with = [&](const char* list) {
    auto a = base;
    a.emplace_back(list);
    return a;
  };
  expect_clean_failure(with("mean,median"), {"--pool mean,median", "unknown statistic 'median'", "stddev", "pN"});
  expect_clean_failure(with("p101"), {"--pool p101", "p0 to p100"});
  expect_clean_failure(with("p5,p05"), {"'p5' is listed twice"});
  expect_clean_failure(with("mean,"), {"empty item in the statistics list"});
}

// ---------------------------------------------------------------------------------------------------
// JSON with non-finite values, as libvmaf's output.c writes it

TEST_F(cli_pool, json_non_finite_frame_values_keep_libvmafs_layout) {
  // psnr_hvs of an identical pair is inf: libvmaf prints `"name": null` and, unlike a finite value, no
  // newline after it (output.c), so the next value follows on the same line.
  const auto r = vqm({"-n", "--feature", "psnr", "--feature", "psnr_hvs", "-r", fx(rk_ref), "-d", fx(rk_ref), "--frame_cnt",
                      "2", "--json", "-o", path("o.json")});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto text = slurp(path("o.json"));
  const std::string frame1 =
      "    {\n      \"frameNum\": 1,\n      \"metrics\": {\n        \"psnr_y\": 60.000000,\n        \"psnr_cb\": 60.000000,\n"
      "        \"psnr_cr\": 60.000000,\n        \"psnr_hvs_y\": null,        \"psnr_hvs_cb\": null,        \"psnr_hvs_cr\": null,"
      "        \"psnr_hvs\": null      }\n    }\n  ],\n";
  EXPECT_NE(text.find(frame1), std::string::npos) << text;
  EXPECT_NE(text.find("    \"psnr_hvs\": {\n      \"min\": null,\n      \"max\": null,\n      \"mean\": null,\n"),
            std::string::npos)
      << text;
  EXPECT_TRUE(json::accept(text));  // still JSON
}

// ---------------------------------------------------------------------------------------------------
// libvmaf's command line

TEST_F(cli_flags, unique_prefixes_and_short_forms_work_as_in_getopt) {
  const auto full = vqm({"--no_prediction", "--feature", "psnr", "--reference", fx(rk_ref), "--distorted", fx(rk_dis),
                         "--frame_cnt", "2", "--json", "--output", "-"});
  const auto abbrev = vqm({"--no_pred", "--feat=psnr", "--ref", fx(rk_ref), "--dist", fx(rk_dis), "--frame_c", "2",
                           "--js", "--out", "-"});
  const auto shorts = vqm({"-n", "--feature", "psnr", "-r", fx(rk_ref), "-d", fx(rk_dis), "--frame_cnt", "2", "--json", "-o", "-"});
  ASSERT_EQ(full.rc, 0) << full.err;
  ASSERT_EQ(abbrev.rc, 0) << abbrev.err;
  ASSERT_EQ(shorts.rc, 0) << shorts.err;
  EXPECT_EQ(without_fps(json::parse(full.out)), without_fps(json::parse(abbrev.out)));
  EXPECT_EQ(without_fps(json::parse(full.out)), without_fps(json::parse(shorts.out)));
  const auto v = vqm({"-v"});
  EXPECT_EQ(v.rc, 0);
  EXPECT_TRUE(v.out.starts_with("vqm ")) << v.out;
  expect_clean_failure({"-r", fx(rk_ref), "-d", fx(rk_dis), "--c"}, {"--c is ambiguous", "--csv", "--compat", "--cpumask"});
}

TEST_F(cli_flags, libvmaf_flags_vqm_lacks_are_one_line_errors_saying_what_to_use) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--cpumask", "7"}, {"--cpumask is not supported", "--threads"}},
      {{"-c", "7"}, {"-c is not supported", "instruction-set mask"}},
      {{"--gpumask=1"}, {"--gpumask is not supported", "--backend vulkan", "--gpu-id"}},
      {{"--aom_ctc", "v6.0"}, {"--aom_ctc is not supported", "--feature psnr=reduced_hbd_peak=true", "vmaf_v0.6.1neg"}},
      {{"--aom_ctc"}, {"--aom_ctc is not supported"}},  // no value: still the same line, not a parser message
      {{"--nflx_ctc", "v1.0"}, {"--nflx_ctc is not supported", "vmaf_4k_v0.6.1neg"}},
      {{"--color_range_ref", "limited"}, {"--color_range_ref is not supported", "colorimetry"}},
      {{"--color_matrix_dist", "bt709"}, {"--color_matrix_dist is not supported"}},
      {{"--aom", "v3.0"}, {"--aom_ctc is not supported"}},  // a unique prefix names the flag
  };
  for (const auto& [flag, expect] : cases) {
    std::vector<std::string> a = {"-r", fx(rk_ref), "-d", fx(rk_dis)};
    a.insert(a.end(), flag.begin(), flag.end());
    expect_clean_failure(a, expect);
    auto full = a;
    full.insert(full.end(), {"--json", "-o", path("out.json")});
    EXPECT_EQ(vqm(full).rc, 2) << flag[0];  // a command-line error
  }
}

}  // namespace
