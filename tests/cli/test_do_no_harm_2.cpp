// Issue #25, "Do no harm, second pass": outputs that are inputs, a closed or full stderr, endless model
// files, non-finite numbers, names that break the output, and the smaller cases. Each test failed on the
// code before the fix.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using namespace cli_test;

// --no_prediction: PSNR alone (fast); the arguments with it and --json appended.
std::vector<std::string> J(std::vector<std::string> a) {
  a.insert(a.end(), {"--feature", "psnr", "--no_prediction", "--json"});
  return a;
}
std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
bool is_report(const std::string& s) { return s.starts_with("{") && s.find("\"psnr_y\"") != std::string::npos; }

// A 10-bit distorted against an 8-bit reference: a note on stderr.
std::vector<std::string> mixed_depths() {
  return {"-r", fx(ast_ref), "-d", fx("rocket_576x324_420p10_x264crf35.y4m"), "--frame_cnt", "3"};
}

class harm2 : public cli_fixture {
 protected:
  // Runs `vqm args` through bash with `redirects` (stdout, stderr, extra fds) as given.
  result sh(const std::vector<std::string>& args, const std::string& redirects, const std::string& prefix = "") const {
    std::string cmd = quote(VQM_CLI_PATH);
    for (const auto& a : args) (cmd += ' ') += quote(a);
    const std::string script = "cd " + quote(dir_.string()) + " && " + prefix + " " + cmd + " </dev/null " + redirects;
    const int status = std::system(("bash -c " + quote(script)).c_str());
    result r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
  }
  // A copy of a fixture in the work folder (a file the test may lose).
  std::string copy(const std::string& fixture, const std::string& name) const {
    fs::copy_file(fx(fixture), path(name));
    return path(name);
  }
  void expect_one_error_line(const result& r, const std::vector<std::string>& expect) const {
    EXPECT_EQ(r.rc, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.starts_with("vqm: error: ")) << r.err;
    for (const auto& e : expect) EXPECT_NE(r.err.find(e), std::string::npos) << "missing '" << e << "' in: " << r.err;
  }
};

// 1. -o naming an input, however spelled, is refused and the input keeps its bytes.
TEST_F(harm2, an_output_that_is_an_input_is_refused) {
  const auto d = copy(ast_dis, "d.y4m"), ref = copy(ast_ref, "ref.y4m");
  const auto bytes = slurp(d);
  fs::create_symlink("d.y4m", path("link.y4m"));
  const std::string spellings[] = {d, dir_.string() + "/./d.y4m", dir_.string() + "/../" + dir_.filename().string() + "/d.y4m",
                                   path("link.y4m")};
  for (const auto& o : spellings) {
    expect_one_error_line(vqm(J({"-r", ref, "-d", d, "-q", "-o", o})), {"-o " + o, "distorted input " + d, "destroy"});
    EXPECT_EQ(slurp(d), bytes) << o;
  }
  expect_one_error_line(vqm(J({"-r", ref, "-d", d, "-o", ref})), {"reference input " + ref});
  EXPECT_EQ(slurp(ref), slurp(fx(ast_ref)));
  // One reference, two distorted: the second's report naming the first distorted.
  const auto d2 = copy(ast_dis, "d2.y4m");
  expect_one_error_line(vqm(J({"-r", ref, "-d", d2, "-o", path("ok.json"), "-d", d, "-o", dir_.string() + "//d2.y4m"})),
                        {"distorted input " + d2});
  EXPECT_EQ(slurp(d), bytes);
  EXPECT_FALSE(fs::exists(path("ok.json")));
  // Standard output appended to an input (vqm ... >>d.y4m): the summary would land in the video.
  EXPECT_EQ(sh({"-r", ref, "-d", d, "-n", "--feature", "psnr"}, ">>d.y4m 2>err.txt").rc, 1);
  EXPECT_EQ(slurp(d), bytes);
  EXPECT_NE(slurp(path("err.txt")).find("standard output is the distorted input"), std::string::npos);
}

// 2. Two -o that are one file, by another spelling or through a link: refused, nothing written.
TEST_F(harm2, two_outputs_that_are_one_file_are_refused) {
  const auto d2 = copy(ast_dis, "d2.y4m");
  expect_one_error_line(
      vqm(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", path("s.json"), "-d", d2, "-o", dir_.string() + "/./s.json"})),
      {"are the same file", "one report would replace the other"});
  EXPECT_FALSE(fs::exists(path("s.json")));
  spit(path("t.json"), "previous");
  fs::create_symlink("t.json", path("alias.json"));
  expect_one_error_line(
      vqm(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", path("t.json"), "-d", d2, "-o", path("alias.json")})),
      {"are the same file"});
  EXPECT_EQ(slurp(path("t.json")), "previous");
  // Two reports to /dev/null lose nothing: allowed.
  const auto r = vqm(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", "/dev/null", "-d", d2, "-o", "/dev/null"}));
  EXPECT_EQ(r.rc, 0) << r.err;
}

// 3. A full or closed stderr never aborts the run nor changes its outcome.
TEST_F(harm2, a_full_or_closed_stderr_never_aborts) {
  EXPECT_EQ(sh({"-r", fx(ast_ref), "-d", path("missing.y4m")}, "2>/dev/full").rc, 1);
  EXPECT_EQ(sh({"--bogus"}, "2>/dev/full").rc, 2);
  EXPECT_EQ(sh(J(mixed_depths()), "2>/dev/full >/dev/null").rc, 0);  // the note is lost
  EXPECT_EQ(sh(J(mixed_depths()), "2>&- >/dev/null").rc, 0);
  EXPECT_EQ(sh({"-r", fx(ast_ref), "-d", path("missing.y4m")}, "2>&- >/dev/null").rc, 1);
}

// 4. With stderr closed, a note never lands in the report (the report's temp would have been fd 2).
TEST_F(harm2, a_closed_stderr_keeps_notes_out_of_the_report) {
  ASSERT_EQ(sh(J(mixed_depths() + std::vector<std::string>{"-o", path("out.json")}), "2>&-").rc, 0);
  const auto out = slurp(path("out.json"));
  EXPECT_TRUE(is_report(out)) << out.substr(0, 200);
  EXPECT_EQ(out.find("vqm: note"), std::string::npos);
  // Closed stdin and stdout too: the report still goes to its file, whole.
  ASSERT_EQ(sh(J(mixed_depths() + std::vector<std::string>{"-o", path("out2.json")}), "0<&- 1>&- 2>&-").rc, 0);
  const auto out2 = slurp(path("out2.json"));
  EXPECT_TRUE(is_report(out2) && out2.ends_with("}\n")) << out2.substr(0, 200);
  EXPECT_EQ(out2.find("vqm: note"), std::string::npos);
}

// 5. -o /dev/stderr, /dev/fd/N, /proc/self/fd/N: written to that descriptor as the caller opened it.
TEST_F(harm2, an_output_to_an_own_descriptor_appends_where_the_caller_appends) {
  for (const std::string o : {"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"}) {
    spit(path("log"), "previous\n");
    ASSERT_EQ(sh(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-q", "-o", o}), "2>>log").rc, 0) << o;
    const auto log = slurp(path("log"));
    EXPECT_TRUE(log.starts_with("previous\n")) << o << ": " << log.substr(0, 100);
    EXPECT_TRUE(is_report(log.substr(std::string("previous\n").size()))) << o;
  }
  spit(path("log3"), "kept\n");
  ASSERT_EQ(sh(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", "/dev/fd/3"}), "3>>log3 2>/dev/null").rc, 0);
  EXPECT_TRUE(slurp(path("log3")).starts_with("kept\n{"));
  // A link to /dev/stderr is the same descriptor.
  fs::create_symlink("/dev/stderr", path("err-link"));
  spit(path("log"), "previous\n");
  ASSERT_EQ(sh(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-q", "-o", path("err-link")}), "2>>log").rc, 0);
  EXPECT_TRUE(slurp(path("log")).starts_with("previous\n{"));
  EXPECT_TRUE(fs::is_symlink(path("err-link")));
  // A descriptor that is not open, or open for reading only: refused before any work.
  EXPECT_EQ(sh(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", "/dev/fd/9"}), "2>err.txt").rc, 1);
  EXPECT_NE(slurp(path("err.txt")).find("descriptor 9 is not open"), std::string::npos) << slurp(path("err.txt"));
  EXPECT_EQ(sh(J({"-r", fx(ast_ref), "-d", fx(ast_dis), "-o", "/dev/fd/9"}), "9<log 2>err.txt").rc, 1);
  EXPECT_NE(slurp(path("err.txt")).find("open for reading only"), std::string::npos) << slurp(path("err.txt"));
}

// 6. A model path that never ends: refused (a device) or cut at the size limit (a pipe), quickly.
TEST_F(harm2, a_model_file_that_never_ends_is_refused) {
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "path=/dev/zero"}),
                        {"/dev/zero", "is a device or socket, not a file"});
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "path=/dev/urandom"}), {"/dev/urandom"});
  ASSERT_EQ(sh({"-r", fx(ast_ref), "-d", fx(ast_dis)}, "-m path=<(yes) 2>err.txt").rc, 1);  // bash: a pipe
  EXPECT_NE(slurp(path("err.txt")).find("larger than 16 MiB"), std::string::npos) << slurp(path("err.txt"));
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "path=" + dir_.string()}), {"is a folder"});
}

// 7. Non-finite numbers in the libsvm text are refused, as libvmaf refuses them.
TEST_F(harm2, non_finite_numbers_in_a_model_are_refused) {
  const auto model = slurp(std::string(VQM_SOURCE_DIR) + "/include/vqm/vmaf/models/vmaf_v0.6.1.json");
  const std::pair<std::string, std::string> edits[] = {
      {"gamma 0.04\\n", "gamma nan\\n"}, {"gamma 0.04\\n", "gamma inf\\n"}, {"rho -1.33133", "rho -inf"},
      {"\\n-4 1:0.65734273", "\\n-4 1:nan"}, {"\\n-4 1:0.65734273", "\\nnan 1:0.65734273"}};
  for (const auto& [from, to] : edits) {
    auto text = model;
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    spit(path("m.json"), text);
    expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "path=" + path("m.json")}),
                          {path("m.json"), "is not a finite number"});
  }
}

// 8. NaN and infinity never pass a floating option's range check.
TEST_F(harm2, nan_and_inf_options_are_refused) {
  for (const std::string opt : {"vif.vif_enhn_gain_limit=nan", "adm.adm_enhn_gain_limit=nan", "adm.adm_enhn_gain_limit=inf",
                                "adm.adm_enhn_gain_limit=-nan", "vif.vif_enhn_gain_limit=inf"})
    expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "version=vmaf_v0.6.1:" + opt}),
                          {opt.substr(opt.find('.') + 1), "expected a number in"});
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-n", "--feature", "adm=adm_enhn_gain_limit=nan"}),
                        {"adm_enhn_gain_limit=nan"});
}

// 9. Model names that would break an output format, or repeat another series, are refused.
TEST_F(harm2, model_names_that_break_the_output_are_refused) {
  for (const std::string name : {"a<&\"d", "a b", "1abc", "a,b", "a\nb", "-x"})
    expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "version=vmaf_v0.6.1:name=" + name, "--json"}),
                          {"VMAF model name"});
  expect_one_error_line(
      vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "--feature", "psnr", "-m", "version=vmaf_v0.6.1:name=psnr_y"}),
      {"series named 'psnr_y'", "name="});
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "version=vmaf_v0.6.1:name=integer_adm2"}),
                        {"series named 'integer_adm2'"});
  expect_one_error_line(vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "version=vmaf_b_v0.6.3", "-m",
                             "version=vmaf_v0.6.1:name=vmaf_bagging"}),
                        {"series named 'vmaf_bagging'"});
  // Names every format holds stay accepted.
  const auto r = vqm({"-r", fx(ast_ref), "-d", fx(ast_dis), "-m", "version=vmaf_v0.6.1:name=my-vmaf_1.0", "--json", "-o",
                      path("ok.json")});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(json::parse(slurp(path("ok.json")))["pooled_metrics"].contains("my-vmaf_1.0"));
}

}  // namespace
