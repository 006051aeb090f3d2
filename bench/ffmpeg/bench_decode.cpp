// Decode benchmark (issue #8): frames per second of a 1080p H.264 pair decoded by vqm::ffmpeg alone, and
// decoded + scored with all five metrics (VMAF vmaf_v0.6.1 and its features, PSNR, SSIM, MS-SSIM,
// PSNR-HVS) on the Cpu and, when built with it, the Vulkan backend, the way the CLI runs (a decode thread
// per input, frames in flight).
//
//   vqm_bench_decode [--ref FILE --dis FILE] [--frames N] [--threads T] [--work DIR] [--backend cpu|vulkan|all]
//                    [--repeat R]
//
// Without --ref/--dis the pair is made with the ffmpeg tool from its testsrc2 source: N frames of
// 1920x1080 yuv420p, the reference at x264 crf 18 and the distorted at crf 35 (in --work, default the
// current directory; reused when present).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "vqm/cpu.hpp"
#include "vqm/io/ffmpeg_reader.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "vqm/vqm.hpp"
#ifdef VQM_BENCH_VULKAN
#include "vqm/vulkan.hpp"
#endif

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

std::string make(const fs::path& dir, const std::string& name, int frames, int crf) {
  const auto path = dir / name;
  if (fs::exists(path)) return path.string();
  const std::string cmd = "ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v " +
                          std::to_string(frames) + " -pix_fmt yuv420p -c:v libx264 -preset fast -crf " +
                          std::to_string(crf) + " '" + path.string() + "'";
  std::fprintf(stderr, "making %s\n", path.string().c_str());
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "ffmpeg failed: %s\n", cmd.c_str());
    std::exit(1);
  }
  return path.string();
}

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Decode only: both inputs in lockstep, as the CLI reads them.
// Both figures are timed from the first read (the inputs opened, a session's programs built), so that the
// ratio is the steady state of a long run, not set-up.
double decode_only(const std::string& ref, const std::string& dis, std::size_t& frames) {
  vqm::io::ffmpeg_reader r(ref), d(dis);
  const auto t0 = clock_type::now();
  vqm::picture a, b;
  frames = 0;
  while (r.read(a) && d.read(b)) ++frames;
  return static_cast<double>(frames) / seconds_since(t0);
}

vqm::session_config five_metrics(std::size_t depth) {
  vqm::session_config cfg;
  cfg.models.push_back(vqm::vmaf::builtin_model("vmaf_v0.6.1"));
  for (const char* f : {"psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"})
    cfg.features.push_back(vqm::parse_feature_request(f));
  cfg.depth = std::max<std::size_t>(1, depth);
  return cfg;
}

// Decode + score on one backend, as the CLI runs it: a ring of depth + 1 decoded pictures per input.
template <class B>
double decode_and_score(B& backend, std::size_t depth, const std::string& ref, const std::string& dis,
                        std::size_t& frames) {
  vqm::io::ffmpeg_reader r(ref), d(dis);
  vqm::session<B> s(backend, r.format(), five_metrics(depth));
  const auto t0 = clock_type::now();
  depth = s.depth();
  std::vector<vqm::picture> ring_r(depth + 1), ring_d(depth + 1);
  frames = 0;
  for (;; ++frames) {
    auto& pr = ring_r[frames % (depth + 1)];
    auto& pd = ring_d[frames % (depth + 1)];
    if (!r.read(pr) || !d.read(pd)) break;
    s.push(pr, pd);
  }
  s.drain();
  const auto table = s.finish();
  const double fps = static_cast<double>(frames) / seconds_since(t0);
  const auto vmaf = table.column("vmaf");
  double mean = 0;
  for (double v : vmaf) mean += v;
  std::printf("  (vmaf mean %.6f over %zu frames)\n", vmaf.empty() ? 0.0 : mean / static_cast<double>(vmaf.size()),
              vmaf.size());
  return fps;
}

}  // namespace

int main(int argc, char** argv) {
  std::string ref, dis;
  int frames = 240;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  fs::path work = fs::current_path();
  std::string backend = "all";
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--ref") ref = next();
    else if (a == "--dis") dis = next();
    else if (a == "--frames") frames = std::stoi(next());
    else if (a == "--threads") threads = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--work") work = next();
    else if (a == "--backend") backend = next();
    else if (a == "--repeat") repeat = std::max(1, std::stoi(next()));
    else {
      std::fprintf(stderr, "usage: %s [--ref FILE --dis FILE] [--frames N] [--threads T] [--work DIR] [--backend cpu|vulkan|all] "
                   "[--repeat R]\n", argv[0]);
      return a == "--help" ? 0 : 2;
    }
  }
  if (backend != "cpu" && backend != "vulkan" && backend != "all") {
    std::fprintf(stderr, "--backend takes cpu, vulkan or all\n");
    return 2;
  }
#ifndef VQM_BENCH_VULKAN
  if (backend == "vulkan") {
    std::fprintf(stderr, "this build has no Vulkan backend (configure with VQM_VULKAN=ON)\n");
    return 2;
  }
#endif
  if (ref.empty() != dis.empty()) {
    std::fprintf(stderr, "give both --ref and --dis, or neither\n");
    return 2;
  }
  if (ref.empty()) {
    fs::create_directories(work);
    ref = make(work, "testsrc2_1080p_" + std::to_string(frames) + "_crf18.mp4", frames, 18);
    dis = make(work, "testsrc2_1080p_" + std::to_string(frames) + "_crf35.mp4", frames, 35);
  }
  try {
    std::size_t n = 0;
    std::printf("pair: %s / %s\ncpu threads: %u (hardware %u)\n", ref.c_str(), dis.c_str(), threads,
                std::thread::hardware_concurrency());
    (void)decode_only(ref, dis, n);  // warm the page cache and the decoders' code
    // Runs alternate (decode only, then each backend) so that a machine's drift shows in every column.
#ifdef VQM_BENCH_VULKAN
    std::optional<vqm::Vulkan> vk;
    if (backend != "cpu") {
      vqm::vulkan::context_options o;
      if (const char* g = std::getenv("VQM_BENCH_GPU")) o.device_index = std::atoi(g);
      vk.emplace(std::make_shared<vqm::vulkan::context>(o));
    }
#endif
    for (int k = 0; k < repeat; ++k) {
      const double dec = decode_only(ref, dis, n);
      std::printf("decode only:                 %8.2f fps (%zu frame pairs)\n", dec, n);
      if (backend != "vulkan") {
        vqm::Cpu cpu(threads);
        const double all = decode_and_score(cpu, threads, ref, dis, n);
        std::printf("decode + 5 metrics (cpu):    %8.2f fps (%zu frame pairs), %.1f%% of decode only\n", all, n,
                    100.0 * all / dec);
      }
#ifdef VQM_BENCH_VULKAN
      if (backend != "cpu") {
        const double all = decode_and_score(*vk, vk->frames_in_flight(), ref, dis, n);
        std::printf("decode + 5 metrics (vulkan): %8.2f fps (%zu frame pairs), %.1f%% of decode only [%s]\n", all, n,
                    100.0 * all / dec, vk->context().name().c_str());
      }
#endif
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
