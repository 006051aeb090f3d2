// The vqm program as a function, run_cli(argc, argv): flags as libvmaf's `vmaf` tool reads them
// (docs/cli.md). main.cpp calls it; the argv fuzzer (tests/fuzz/fuzz_cli.cpp) calls it in a sandbox
// folder. A run's steps each have a file: options.hpp (the flags), validate.hpp (checking them),
// inputs.hpp, backend.hpp (the choice and the measuring), outputs.hpp; errors.hpp maps failures to
// the exit status.
#pragma once

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "atomic_file.hpp"
#include "backend.hpp"
#include "count_frames.hpp"
#include "errors.hpp"
#include "inputs.hpp"
#include "libvmaf_flags.hpp"
#include "options.hpp"
#include "outputs.hpp"
#include "merge_cli.hpp"
#include "raw_input.hpp"
#include "shard.hpp"
#include "std_streams.hpp"
#include "validate.hpp"
#include "vqm/feature_reference.hpp"
#include "vqm/version.hpp"

namespace vqm::cli {

namespace app_detail {

// A parsed command line, run: the steps in the order their errors are reported.
inline int run_main(const options& o, const CLI::App& app) {
  if (o.list_gpu) return list_gpus();
  if (std::find(o.features.begin(), o.features.end(), "help") != o.features.end()) {
    write_all(STDOUT_FILENO, feature_reference(), "stdout");  // every feature's outputs and options
    return exit_ok;
  }
  check_arguments(o);
  check_count_options(o);
  check_shard_options(o);
  check_device_options(o);
  const note_printer note{o.quiet};
  run_settings settings = make_settings(o, note);  // a count refuses the flags its run would refuse
  if (o.count_frames) {
    check_stdin_uses(o);
    auto in = open_inputs(o, raw_format(o.raw, app), note);
    write_all(STDOUT_FILENO, std::to_string(count_frames(o, in)) + "\n", "stdout");
    return exit_ok;
  }
  if (!o.frame_range.empty()) settings.cfg.range = parse_frame_range(o.frame_range);
  auto out = open_outputs(o.output);  // before any frame is measured: an unwritable -o fails at once
  std::optional<output_file> shard_out;
  if (!o.shard_out.empty()) shard_out.emplace(o.shard_out);
  const auto raw = raw_format(o.raw, app);
  check_stdin_uses(o);
  auto in = open_inputs(o, raw, note);
  shard_part part;
  auto result = score(o, settings.cfg, in, note, shard_out ? &part : nullptr);
  for (auto& rep : result.reports) output::put_first(rep, settings.series_first);  // a shard keeps this order too
  in.decoded.show(note);  // what only the whole stream tells (a variable frame rate)
  if (shard_out) {
    write_shard_file(o, settings, result.reports.front(), part, in.ref->format(), result.backend, *shard_out);
    return exit_ok;
  }
  write_outputs(o, settings, result.reports, result.backend, out);
  return exit_ok;
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
    return exit_failed;
  }
  return rc;
}

inline int parse_and_run(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "merge") return merge_cli(argc - 1, argv + 1);
  options o;
  CLI::App app{"vqm " VQM_VERSION_STRING " — video quality metrics with libvmaf's numbers (VMAF, PSNR, SSIM, MS-SSIM, PSNR-HVS)",
               "vqm"};
  define_options(app, o);
  try {
    // libvmaf's getopt_long command line: unique prefixes spelled out, unsupported flags refused.
    auto args = libvmaf_arguments(argc, argv, app);
    std::vector<char*> ptrs;
    for (auto& a : args) ptrs.push_back(a.data());
    app.parse(static_cast<int>(ptrs.size()), ptrs.data());
  } catch (const CLI::CallForHelp& e) {
    return print_help(app, e);
  } catch (const CLI::CallForVersion& e) {
    return print_help(app, e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (auto& c : msg)
      if (c == '\n') c = ' ';
    eprint("vqm: error: {} (see --help)\n", msg);
    return exit_usage;
  } catch (const std::exception& e) {  // a flag refused (usage_error), or out of memory while parsing
    eprint("vqm: error: {}\n", describe_failure(e));
    return exit_status_of(e);
  }
  try {
    const int rc = run_main(o, app);
    flush_stdout();  // a summary lost to a full disk or a closed pipe is an error
    return rc;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    eprint("vqm: error: {}\n", describe_failure(e));
    return exit_status_of(e);
  }
}

}  // namespace app_detail

// The whole program: parses argv, runs, prints errors (one line on stderr), returns the exit status
// (errors.hpp: 0 done, 1 failed, 2 usage error). Never throws.
inline int run_cli(int argc, char** argv) noexcept {
  try {
    return app_detail::parse_and_run(argc, argv);
  } catch (const std::exception& e) {  // setting up the parser ran out of memory
    eprint("vqm: error: {}\n", describe_failure(e));
  } catch (...) {
    eprint("vqm: error: an unexpected exception\n");
  }
  return exit_failed;
}

}  // namespace vqm::cli
