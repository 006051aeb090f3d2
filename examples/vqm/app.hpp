// vqm: compare a distorted video with its reference and write libvmaf-compatible scores.
// Flags follow libvmaf's `vmaf` tool; see docs/cli.md.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "atomic_file.hpp"
#include "checks.hpp"
#include "libvmaf_flags.hpp"
#include "number_format.hpp"
#include "raw_input.hpp"
#include "run.hpp"
#include "scale_options.hpp"
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

namespace {

using namespace vqm;

struct options {
  std::string reference;
  std::vector<std::string> distorted, output;  // -d and -o are repeatable, paired in order
  cli::raw_options raw;
  cli::scale_options scale;
  std::vector<std::string> features, models;
  bool json = false, csv = false, xml = false, quiet = false, list_gpu = false, no_prediction = false;
  unsigned threads = 1;
  std::size_t frame_cnt = 0, subsample = 1, frame_skip_ref = 0, frame_skip_dist = 0;
  std::string pool;  // --pool: empty for libvmaf's four statistics
  std::string backend = "cpu", precision = "legacy", compat_mode = "none";
  int gpu_id = -1;
};

std::string builtin_model_list() {
  std::string s;
  for (auto v : vmaf::builtin_versions()) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

[[maybe_unused]] [[noreturn]] void fail_without_vulkan() {
  throw error(errc::backend_unavailable, "this vqm was built without the Vulkan backend; use --backend cpu");
}

void print_summary(const cli::report& r, const cli::number_format& nf, std::string_view backend) {
  fmt::print("vqm: {} frames ({} measured), {}x{}, {} backend\n", r.frames_read, r.frames.size(), r.width, r.height,
             backend);
  std::size_t width = 26;  // the names in one column, however long (VMAF_integer_feature_motion_sad_score)
  for (const auto& n : r.names) width = std::max(width, n.size());
  if (!r.custom_pool()) {  // the pooled mean of each output
    for (std::size_t k = 0; k < r.names.size(); ++k)
      fmt::print("  {:<{}} {}\n", r.names[k], width, nf.literal(r.pooled(k).mean));
  } else {  // --pool: a column per statistic, under its name
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> col(r.statistics.size());
    for (std::size_t i = 0; i < col.size(); ++i) col[i] = r.statistics[i].name.size();
    for (std::size_t k = 0; k < r.names.size(); ++k) {
      auto& row = cells.emplace_back();
      for (const auto& [stat, v] : r.pooled_values(k)) {
        row.push_back(nf.literal(v));
        col[row.size() - 1] = std::max(col[row.size() - 1], row.back().size());
      }
    }
    std::string line = fmt::format("  {:<{}}", "", width);
    for (std::size_t i = 0; i < col.size(); ++i) line += fmt::format(" {:>{}}", r.statistics[i].name, col[i]);
    fmt::print("{}\n", line);
    for (std::size_t k = 0; k < r.names.size(); ++k) {
      line = fmt::format("  {:<{}}", r.names[k], width);
      for (std::size_t i = 0; i < col.size(); ++i) line += fmt::format(" {:>{}}", cells[k][i], col[i]);
      fmt::print("{}\n", line);
    }
  }
  for (const auto& [name, v] : r.aggregate) fmt::print("  {:<{}} {}\n", name, width, nf.literal(v));
}

int list_gpus() {
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

int run_main(const options& o, CLI::App& app) {
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
  for (std::size_t k = 0; k < o.output.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (o.output[j] == o.output[k])
        throw error(errc::invalid_argument, "-o " + o.output[k] + " is given twice: give each -d its own -o");

  cli::run_config cfg;
  for (const auto& f : o.features) cfg.features.push_back(cli::parse_feature(f));
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
  const auto nf = cli::number_format::parse(o.precision);
  const auto fmt_ = o.json ? cli::output_format::json : o.csv ? cli::output_format::csv : cli::output_format::xml;
  cli::check_threads(o.threads);
  // The destinations are checked (a regular file's temp created) before any frame is measured; all are
  // written only once every distorted has been scored.
  std::vector<std::unique_ptr<cli::output_file>> out;
  for (const auto& path : o.output) out.push_back(std::make_unique<cli::output_file>(path));

  const auto raw = cli::raw_format(o.raw, app);
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
  cli::apply_scaling(o.scale, ref, dis);

  auto note = [&](const std::string& s) {
    if (!o.quiet) fmt::print(stderr, "vqm: note: {}\n", s);
  };
  for (const auto& shifted : cli::common_bit_depth(ref, dis)) note(shifted);
  std::vector<io::frame_source*> dis_ptrs;
  for (auto& d : dis) dis_ptrs.push_back(d.get());
  const std::span<io::frame_source* const> dis_span(dis_ptrs);

  // Backend choice: auto prefers Vulkan and falls back to the CPU, saying why on stderr.
  std::vector<cli::report> reps;
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
        reps = cli::run(*vk, vk->frames_in_flight(), cfg, *ref, dis_span);
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
    reps = cli::run(cpu, cli::frames_in_flight(threads, ref->format()), cfg, *ref, dis_span);
  }

  for (auto& rep : reps) rep.statistics = statistics;
  if (o.output.empty()) {
    for (std::size_t k = 0; k < reps.size(); ++k) {
      if (n > 1) fmt::print("{}distorted {}:\n", k ? "\n" : "", o.distorted[k]);
      print_summary(reps[k], nf, used);
    }
  } else {
    std::vector<std::string> texts;  // every report written out before any file is replaced
    for (const auto& rep : reps) texts.push_back(cli::write_report(fmt_, rep, nf));
    for (std::size_t k = 0; k < texts.size(); ++k) out[k]->commit(texts[k]);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
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
  cli::add_raw_options(app, o.raw);
  cli::add_scale_options(app, o.scale);
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
  app.add_option("--threads", o.threads, "CPU threads (frames measured in parallel)")->check(cli::non_negative);
  app.add_option("--frame_cnt", o.frame_cnt, "Measure at most this many frames (0: all)")->check(cli::non_negative);
  app.add_option("--subsample", o.subsample, "Measure and report only frames with index % N == 0")
      ->check(cli::non_negative);
  app.add_option("--frame_skip_ref,--skip_ref_frame", o.frame_skip_ref,
                 "Skip the first N frames of the reference before pairing frames")
      ->check(cli::non_negative);
  app.add_option("--frame_skip_dist", o.frame_skip_dist, "Skip the first N frames of the distorted video before pairing frames")
      ->check(cli::non_negative);
  app.add_option("--pool", o.pool,
                 "Pooled statistics to write, in order: min, max, mean, harmonic_mean (libvmaf's, the default), "
                 "stddev, pN (percentile N, e.g. p1,p5,p50)");
  app.add_flag("-q,--quiet", o.quiet, "No progress line or notes on stderr (the summary without -o still prints)");
  app.add_flag("-n,--no_prediction", o.no_prediction, "No VMAF model: compute the --feature metrics only");
  app.add_option("--backend", o.backend, "cpu (default), vulkan or auto")
      ->check(CLI::IsMember({"cpu", "vulkan", "auto"}));
  app.add_option("--gpu-id", o.gpu_id, "Vulkan device index (see --list-gpu)");
  app.add_flag("--list-gpu", o.list_gpu, "List Vulkan devices and exit");
  app.add_option("--precision", o.precision, "Score digits: legacy (libvmaf's %.6f, default), max (%.17g) or 1..17 (%.Ng)");
  app.add_option("--compat", o.compat_mode, "none (default) or libvmaf (reproduce libvmaf's quirks bit-exactly)")
      ->check(CLI::IsMember({"none", "libvmaf"}));

  app.footer("libvmaf's flags that vqm does not implement (--sub, --cpumask, --gpumask, --aom_ctc, --nflx_ctc, "
             "--color_*) are refused with what to use instead (docs/cli.md).");
  try {
    // libvmaf's getopt_long command line: unique prefixes spelled out, unsupported flags refused.
    auto args = cli::libvmaf_arguments(argc, argv, app);
    std::vector<char*> ptrs;
    for (auto& a : args) ptrs.push_back(a.data());
    app.parse(static_cast<int>(ptrs.size()), ptrs.data());
  } catch (const cli::usage_error& e) {
    fmt::print(stderr, "vqm: error: {}\n", e.what());
    return 2;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (auto& c : msg)
      if (c == '\n') c = ' ';
    fmt::print(stderr, "vqm: error: {} (see --help)\n", msg);
    return 2;
  }
  try {
    const int rc = run_main(o, app);
    cli::flush_stdout();  // a summary lost to a full disk or a closed pipe is an error
    return rc;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "vqm: error: {}\n", e.what());
    return 1;
  }
}
