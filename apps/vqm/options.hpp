// The command line: every flag, as libvmaf's `vmaf` tool names it (docs/cli.md), into `options`. Checking
// what the values mean together is validate.hpp's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "checks.hpp"
#include "coverage.hpp"
#include "format_flags.hpp"
#include "raw_input.hpp"
#include "scale_options.hpp"
#include "vqm/io/open.hpp"
#include "vqm/metric_factory.hpp"
#include "vqm/version.hpp"
#include "vqm/vmaf/builtin_models.hpp"

namespace vqm::cli {

// The flags' values, libvmaf's defaults where it has the flag.
struct options {
  std::string reference;
  std::vector<std::string> distorted, output;  // -d and -o are repeatable, paired in order
  raw_options raw;
  scale_options scale;
  std::vector<std::string> features, models;
  bool json = false, csv = false, xml = false, sub = false, quiet = false, list_gpu = false, no_prediction = false;
  unsigned threads = 1;
  bool threads_given = false;  // --threads on the command line: libvmaf's is 0 without it (its output order)
  std::size_t frame_cnt = 0, subsample = 1, frame_skip_ref = 0, frame_skip_dist = 0;
  std::string pool;  // --pool: empty for libvmaf's four statistics
  std::string backend = "cpu", precision = "legacy", compat_mode = "none";
  int gpu_id = -1;
  std::string devices;  // --devices all|0,2|NAME,... (devices.hpp)
  std::size_t device_block = 64;
  bool device_block_given = false;
  std::string frame_range, shard_out;  // --frame-range A:B --shard-out FILE (shard.hpp)
  bool count_frames = false;           // --count-frames (count_frames.hpp)
};

inline std::string builtin_model_list() {
  std::string s;
  for (auto v : vmaf::builtin_versions()) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

// The flags, help and version texts of `app`, bound to `o`.
inline void define_options(CLI::App& app, options& o) {
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
                 "Extra metric NAME[=key=value:key=value]: " + metric_name_list() +
                     " (repeatable; --feature help lists every feature's outputs and options)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  add_format_flags(app, o.json, o.csv, o.xml, o.sub);
  app.add_option("-o,--output", o.output,
                 "Output file ('-' for stdout); without it a summary goes to stdout (repeatable: one per -d, in order)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  app.add_option("--threads", o.threads,
                 "CPU threads (frames measured in parallel); given, the outputs list psnr's and float_motion's "
                 "series first, as libvmaf's do with --threads")
      ->check(non_negative)
      ->each([&o](const std::string&) { o.threads_given = true; });
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
  app.add_option("--devices", o.devices,
                 "Vulkan devices to spread the run over: all, indices or names (e.g. 0,2; see --list-devices); one "
                 "-d: a part of the frames each, several -d: the distorted; the output equals one device's");
  app.add_option("--device-block", o.device_block,
                 "With --devices and one -d: read once and deal blocks of N frames (default 64; what pipes and "
                 "FFmpeg inputs do) instead of a part per device")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
      ->each([&o](const std::string&) { o.device_block_given = true; });
  app.add_flag("--list-devices", o.list_gpu, "List the Vulkan devices and exit");
  // The former names stay in --help under their own heading: CLI11 drops a hidden option's name from its
  // errors ("--gpu-id -2" would be refused without naming --gpu-id).
  app.add_option("--gpu-id", o.gpu_id, "Vulkan device index (as --devices N)")->check(non_negative)->group("Former names");
  app.add_flag("--list-gpu", o.list_gpu, "As --list-devices")->group("Former names");
  app.add_option("--precision", o.precision, "Score digits: legacy (libvmaf's %.6f, default), max (%.17g) or 1..17 (%.Ng)");
  app.add_option("--frame-range", o.frame_range,
                 "A:B: score frames A to B-1 only (0-based, after --frame_skip_*), with the frames around them that "
                 "temporal features read, into --shard-out FILE; vqm merge -o OUT FILE... writes the whole run's output");
  app.add_option("--shard-out", o.shard_out, "The shard file of --frame-range (docs/cli.md, Shards)");
  app.add_flag("--count-frames", o.count_frames,
               "Print the number of frames this run scores (after --frame_skip_*, at most --frame_cnt) and exit: "
               "what --frame-range shards cut (docs/scale.md)");
  app.add_option("--compat", o.compat_mode, "none (default) or libvmaf (reproduce libvmaf's quirks bit-exactly)")
      ->check(CLI::IsMember({"none", "libvmaf"}));

  app.footer(coverage_text() + "\n" +
             "libvmaf's flags that vqm does not implement (--cpumask, --gpumask, --aom_ctc, --nflx_ctc, "
             "--color_*) are refused with what to use instead (docs/cli.md).");
}

}  // namespace vqm::cli
