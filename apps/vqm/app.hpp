// The vqm program as a function, run_cli(argc, argv): flags as libvmaf's `vmaf` tool reads them
// (docs/cli.md), validation, the backend choice and the outputs. main.cpp calls it; the argv fuzzer
// (tests/fuzz/fuzz_cli.cpp) calls it in a sandbox folder.
#pragma once

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "atomic_file.hpp"
#include "checks.hpp"
#include "destinations.hpp"
#include "input_notes.hpp"
#include "libvmaf_flags.hpp"
#include "number_format.hpp"
#include "raw_input.hpp"
#include "run.hpp"
#include "scale_options.hpp"
#include "std_streams.hpp"
#include "summary.hpp"
#include "vqm/cpu.hpp"
#include "vqm/io/open.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "writers.hpp"
#ifndef VQM_HAVE_VULKAN
#define VQM_HAVE_VULKAN 0
#endif
#if VQM_HAVE_VULKAN
#include "vqm/vulkan.hpp"
#endif

namespace vqm::cli {

namespace app_detail {

struct options {
  std::string reference;
  std::vector<std::string> distorted, output;  // -d and -o are repeatable, paired in order
  raw_options raw;
  scale_options scale;
  std::vector<std::string> features, models;
  bool json = false, csv = false, xml = false, quiet = false, list_gpu = false, no_prediction = false;
  unsigned threads = 1;
  std::size_t frame_cnt = 0, subsample = 1, frame_skip_ref = 0, frame_skip_dist = 0;
  std::string pool;  // --pool: empty for libvmaf's four statistics
  std::string backend = "cpu", precision = "legacy", compat_mode = "none";
  int gpu_id = -1;
};

inline std::string builtin_model_list() {
  std::string s;
  for (auto v : vmaf::builtin_versions()) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

[[maybe_unused]] [[noreturn]] inline void fail_without_vulkan() {
  throw error(errc::backend_unavailable, "this vqm was built without the Vulkan backend; use --backend cpu");
}

inline int list_gpus() {
#if VQM_HAVE_VULKAN
  const auto devices = vulkan::list_devices();
  if (devices.empty()) {
    std::string why;
    (void)vulkan::available(&why);  // only for `why`
    fmt::print("no Vulkan device found{}\n", why.empty() ? "" : ": " + why);
    return 1;
  }
  for (const auto& d : devices)
    fmt::print("{}: {} ({}, Vulkan {}.{}.{}){}\n", d.index, d.name, d.type, d.api_version >> 22,
               (d.api_version >> 12) & 0x3ff, d.api_version & 0xfff, d.usable ? "" : " — not usable: " + d.why_not);
  return 0;
#else
  fail_without_vulkan();
#endif
}

inline int run_main(const options& o, CLI::App& app) {
  if (o.list_gpu) return list_gpus();
  if (o.reference.empty() || o.distorted.empty() ||
      std::any_of(o.distorted.begin(), o.distorted.end(), [](const std::string& d) { return d.empty(); }))
    throw error(errc::invalid_argument, "give the inputs with -r/--reference and -d/--distorted (see --help)");
  const std::size_t n = o.distorted.size();
  // One reference, many distorted: one -o per -d, in order, or none (a summary of each on stdout).
  if (!o.output.empty() && o.output.size() != n)
    throw error(errc::invalid_argument,
                fmt::format("{} -d/--distorted but {} -o/--output: give one -o per -d, paired in order (-d a.y4m -o "
                            "a.xml -d b.y4m -o b.xml), or no -o for a summary of each distorted on stdout",
                            n, o.output.size()));
  // By identity, not spelling: no output is an input, no two outputs are one file.
  std::vector<named_input> inputs{{"reference", o.reference}};
  for (const auto& d : o.distorted) inputs.push_back({"distorted", d});
  check_destinations(inputs, o.output, o.output.empty());

  auto note = [&](const std::string& s) {
    if (!o.quiet) eprint("vqm: note: {}\n", s);
  };
  run_config cfg;
  for (std::size_t k = 0; k < o.features.size(); ++k) {
    // libvmaf computes a feature given twice once; vqm does too, and says so.
    if (std::find(o.features.begin(), o.features.begin() + static_cast<std::ptrdiff_t>(k), o.features[k]) !=
        o.features.begin() + static_cast<std::ptrdiff_t>(k)) {
      note("--feature " + o.features[k] + " is given twice; it is computed once (as libvmaf does)");
      continue;
    }
    cfg.features.push_back(parse_feature(o.features[k]));
  }
  // libvmaf's default: vmaf_v0.6.1 unless --no_prediction or a --model is given.
  if (o.models.empty() && !o.no_prediction) cfg.models.push_back(vmaf::builtin_model("vmaf_v0.6.1"));
  if (!o.no_prediction)
    for (const auto& m : o.models) cfg.models.push_back(vmaf::load_model(m));
  cfg.mode = o.compat_mode == "libvmaf" ? compat::libvmaf : compat::none;
  cfg.frame_cnt = o.frame_cnt;
  cfg.frame_skip_ref = o.frame_skip_ref;
  cfg.frame_skip_dist = o.frame_skip_dist;
  std::vector<io::pool_statistic> statistics;
  if (!o.pool.empty()) {
    try {
      statistics = io::parse_pool_statistics(o.pool);
    } catch (const error& e) {
      throw error(e.code(), "--pool " + o.pool + ": " + e.what());
    }
  }
  cfg.subsample = o.subsample ? o.subsample : 1;
  cfg.quiet = o.quiet;
  const auto nf = number_format::parse(o.precision);
  const auto fmt_ = o.json ? output_format::json : o.csv ? output_format::csv : output_format::xml;
  check_threads(o.threads);
  // The destinations are checked (a regular file's temp created) before any frame is measured; all are
  // written only once every distorted has been scored.
  std::vector<std::unique_ptr<output_file>> out;
  for (const auto& path : o.output) out.push_back(std::make_unique<output_file>(path));

  const auto raw = raw_format(o.raw, app);
  const auto stdin_uses = std::count(o.distorted.begin(), o.distorted.end(), std::string("-"));
  if (o.reference == "-" && stdin_uses > 0)
    throw error(errc::invalid_argument, "-r - and -d - both name standard input; give one of them as a file, a "
                                        "named pipe or a process substitution such as <(ffmpeg ... -f yuv4mpegpipe -)");
  if (stdin_uses > 1)
    throw error(errc::invalid_argument, "-d - names standard input more than once; give the others as files, named "
                                        "pipes or process substitutions such as <(ffmpeg ... -f yuv4mpegpipe -)");
#if defined(VQM_WITH_FFMPEG)
  io::capture_ffmpeg_log();  // FFmpeg's own messages complete vqm's one-line errors instead of printing
#endif
  // The library says an input needs its picture format; here that means the raw flags.
  auto open = [&](const std::string& path) {
    try {
      return io::open_frame_source(path, raw);
    } catch (const error& e) {
      std::string m = e.what();
      if (m.find(io::raw_format_needed) != std::string::npos)
        m += " (give -w, -h, -p and -b)";
      else if (m.find("width, height, pixel format and bit depth given for it") != std::string::npos)
        m += " (-w, -h, -p, -b)";
      else
        throw;
      throw error(e.code(), m);
    }
  };
  auto ref = open(o.reference);
  std::vector<std::unique_ptr<io::frame_source>> dis;
  for (const auto& d : o.distorted) dis.push_back(open(d));
  input_notes decoded(*ref, dis);
  decoded.show(note);
  apply_scaling(o.scale, ref, dis);

  for (const auto& shifted : common_bit_depth(ref, dis)) note(shifted);
  std::vector<io::frame_source*> dis_ptrs;
  for (auto& d : dis) dis_ptrs.push_back(d.get());
  const std::span<io::frame_source* const> dis_span(dis_ptrs);

  // Backend choice: auto prefers Vulkan and falls back to the CPU, saying why on stderr.
  std::vector<report> reps;
  std::string used = "cpu";
#if VQM_HAVE_VULKAN
  if (o.backend != "cpu") {
    std::string why;
    bool ok = vulkan::available(&why);
    // auto: a software rasteriser (llvmpipe, type "cpu") is slower than the Cpu backend; use it only
    // when asked for by --backend vulkan or --gpu-id.
    if (ok && o.backend == "auto" && o.gpu_id < 0) {
      bool hardware = false;
      std::string software;
      for (const auto& d : vulkan::list_devices()) {
        if (d.usable && d.type != "cpu") hardware = true;
        if (d.usable && d.type == "cpu") software = d.name;
      }
      if (!hardware) {
        ok = false;
        why = "the only Vulkan device is the software rasteriser '" + software +
              "', slower than the CPU backend (--backend vulkan uses it anyway)";
      }
    }
    if (!ok && o.backend == "vulkan")
      throw error(errc::backend_unavailable, "Vulkan is not available: " + why +
                                                 " (use --backend cpu)");  // the library's reasons name no CLI flag
    if (ok) {
      std::optional<Vulkan> vk;
      try {
        vulkan::context_options vo;
        vo.device_index = o.gpu_id;
        vk.emplace(vo);
      } catch (const error& e) {
        if (o.backend == "vulkan") throw;
        note(std::string("Vulkan could not start (") + e.what() + "); using the CPU");
      }
      if (vk) {
        used = "vulkan";
        reps = run(*vk, vk->frames_in_flight(), cfg, *ref, dis_span);
      }
    } else {
      note(why.starts_with("the only Vulkan device") ? why + "; using the CPU"
                                                     : "no usable Vulkan device (" + why + "); using the CPU");
    }
  }
#else
  if (o.backend == "vulkan") fail_without_vulkan();
  if (o.backend == "auto") note("this vqm was built without the Vulkan backend; using the CPU");
#endif
  if (o.gpu_id >= 0 && o.backend == "cpu") note("--gpu-id is ignored on the CPU backend");
  if (reps.empty()) {
    const unsigned threads = o.threads ? o.threads : 1;
    Cpu cpu(threads);
    reps = run(cpu, frames_in_flight(threads, ref->format()), cfg, *ref, dis_span);
  }

  decoded.show(note);  // what only the whole stream tells (a variable frame rate)
  for (auto& rep : reps) rep.statistics = statistics;
  if (o.output.empty()) {
    for (std::size_t k = 0; k < reps.size(); ++k) {
      if (n > 1) fmt::print("{}distorted {}:\n", k ? "\n" : "", o.distorted[k]);
      print_summary(reps[k], nf, used);
    }
  } else {
    std::vector<std::string> texts;  // every report written out before any file is replaced
    for (const auto& rep : reps) texts.push_back(write_report(fmt_, rep, nf));
    for (std::size_t k = 0; k < texts.size(); ++k) out[k]->commit(texts[k]);
  }
  return 0;
}

// What failed, in one line with the fix: resource limits get named, not just strerror'ed.
[[nodiscard]] inline std::string describe(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory (a memory limit such as ulimit -v, or too little RAM for this size: try fewer --threads)";
  if (const auto* se = dynamic_cast<const std::system_error*>(&e)) {
    const auto c = se->code();
    if (c == std::errc::resource_unavailable_try_again || c == std::errc::not_enough_memory)
      return std::string("cannot start a thread or map memory: ") + se->what() +
             " (a limit such as ulimit -v or ulimit -u: raise it or try fewer --threads)";
  }
  return e.what();
}

// Writes CLI11's help or version text to stdout: a lost help text (--help >/dev/full) is an error.
[[nodiscard]] inline int print_help(const CLI::App& app, const CLI::Error& e) {
  std::ostringstream out, err;
  const int rc = app.exit(e, out, err);
  write_stderr(err.str());
  try {
    write_all(STDOUT_FILENO, out.str(), "stdout");
  } catch (const std::exception& x) {
    eprint("vqm: error: {}\n", x.what());
    return 1;
  }
  return rc;
}

inline int parse_and_run(int argc, char** argv) {
  options o;
  CLI::App app{"vqm " VQM_VERSION_STRING " — video quality metrics with libvmaf's numbers (VMAF, PSNR, SSIM, MS-SSIM, PSNR-HVS)",
               "vqm"};
  app.set_help_flag("--help", "Print this help and exit");  // -h is the height, as in libvmaf
  app.set_version_flag("-v,--version", std::string("vqm ") + VQM_VERSION_STRING + " (libvmaf 3.x compatible output)");
  const std::string inputs = io::have_ffmpeg ? " video: .y4m, raw .yuv with -w -h -p -b, or any file/URL FFmpeg decodes; '-' "
                                               "for standard input"
                                             : " video: .y4m, or raw .yuv with -w -h -p -b; '-' for standard input";
  app.add_option("-r,--reference", o.reference, "Reference" + inputs);
  app.add_option("-d,--distorted", o.distorted,
                 "Distorted" + inputs + " (repeatable: several distorted against one reference, one -o each)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  add_raw_options(app, o.raw);
  add_scale_options(app, o.scale);
  app.add_option("-m,--model", o.models,
                 "VMAF model: version=NAME (built in: " + builtin_model_list() +
                     ") or path=FILE.json, with :name=N, :enable_transform, :disable_clip, :EXTRACTOR.OPTION=VALUE "
                     "(repeatable; default: version=vmaf_v0.6.1 unless --no_prediction)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  app.add_option("--feature", o.features,
                 "Extra metric NAME[=key=value:key=value]: " + metric_name_list() + " (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  auto* json = app.add_flag("--json", o.json, "Write JSON");
  auto* csv = app.add_flag("--csv", o.csv, "Write CSV");
  auto* xml = app.add_flag("--xml", o.xml, "Write XML (the default)");
  json->excludes(csv)->excludes(xml);
  csv->excludes(xml);
  app.add_option("-o,--output", o.output,
                 "Output file ('-' for stdout); without it a summary goes to stdout (repeatable: one per -d, in order)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  app.add_option("--threads", o.threads, "CPU threads (frames measured in parallel)")->check(non_negative);
  app.add_option("--frame_cnt", o.frame_cnt, "Measure at most this many frames (0: all)")->check(non_negative);
  app.add_option("--subsample", o.subsample, "Measure and report only frames with index % N == 0")
      ->check(non_negative);
  app.add_option("--frame_skip_ref,--skip_ref_frame", o.frame_skip_ref,
                 "Skip the first N frames of the reference before pairing frames")
      ->check(non_negative);
  app.add_option("--frame_skip_dist", o.frame_skip_dist, "Skip the first N frames of the distorted video before pairing frames")
      ->check(non_negative);
  app.add_option("--pool", o.pool,
                 "Pooled statistics to write, in order: min, max, mean, harmonic_mean (libvmaf's, the default), "
                 "stddev, pN (percentile N, e.g. p1,p5,p50)");
  app.add_flag("-q,--quiet", o.quiet, "No progress line or notes on stderr (the summary without -o still prints)");
  app.add_flag("-n,--no_prediction", o.no_prediction, "No VMAF model: compute the --feature metrics only");
  app.add_option("--backend", o.backend, "cpu (default), vulkan or auto")
      ->check(CLI::IsMember({"cpu", "vulkan", "auto"}));
  app.add_option("--gpu-id", o.gpu_id, "Vulkan device index (see --list-gpu)")->check(non_negative);
  app.add_flag("--list-gpu", o.list_gpu, "List Vulkan devices and exit");
  app.add_option("--precision", o.precision, "Score digits: legacy (libvmaf's %.6f, default), max (%.17g) or 1..17 (%.Ng)");
  app.add_option("--compat", o.compat_mode, "none (default) or libvmaf (reproduce libvmaf's quirks bit-exactly)")
      ->check(CLI::IsMember({"none", "libvmaf"}));

  app.footer("libvmaf's flags that vqm does not implement (--sub, --cpumask, --gpumask, --aom_ctc, --nflx_ctc, "
             "--color_*) are refused with what to use instead (docs/cli.md).");
  try {
    // libvmaf's getopt_long command line: unique prefixes spelled out, unsupported flags refused.
    auto args = libvmaf_arguments(argc, argv, app);
    std::vector<char*> ptrs;
    for (auto& a : args) ptrs.push_back(a.data());
    app.parse(static_cast<int>(ptrs.size()), ptrs.data());
  } catch (const usage_error& e) {
    eprint("vqm: error: {}\n", e.what());
    return 2;
  } catch (const CLI::CallForHelp& e) {
    return print_help(app, e);
  } catch (const CLI::CallForVersion& e) {
    return print_help(app, e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (auto& c : msg)
      if (c == '\n') c = ' ';
    eprint("vqm: error: {} (see --help)\n", msg);
    return 2;
  } catch (const std::exception& e) {  // out of memory while parsing
    eprint("vqm: error: {}\n", describe(e));
    return 1;
  }
  try {
    const int rc = run_main(o, app);
    flush_stdout();  // a summary lost to a full disk or a closed pipe is an error
    return rc;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    eprint("vqm: error: {}\n", describe(e));
    return 1;
  }
}

}  // namespace app_detail

// The whole program: parses argv, runs, prints errors (one line on stderr), returns the exit status
// (0 done, 1 failed, 2 usage error). Never throws.
inline int run_cli(int argc, char** argv) noexcept {
  try {
    return app_detail::parse_and_run(argc, argv);
  } catch (const std::exception& e) {  // setting up the parser ran out of memory
    eprint("vqm: error: {}\n", app_detail::describe(e));
  } catch (...) {
    eprint("vqm: error: an unexpected exception\n");
  }
  return 1;
}

}  // namespace vqm::cli
