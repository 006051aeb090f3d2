// Decode benchmark (issue #8): frames per second of a 1080p H.264 pair decoded by vqm::ffmpeg alone, and
// decoded + scored with all five metrics (VMAF vmaf_v0.6.1 and its features, PSNR, SSIM, MS-SSIM,
// PSNR-HVS) on the Cpu backend, the way the CLI runs (a decode thread per input, frames in flight).
//
//   vqm_bench_decode [--ref FILE --dis FILE] [--frames N] [--threads T] [--work DIR]
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
double decode_only(const std::string& ref, const std::string& dis, std::size_t& frames) {
  const auto t0 = clock_type::now();
  vqm::io::ffmpeg_reader r(ref), d(dis);
  vqm::picture a, b;
  frames = 0;
  while (r.read(a) && d.read(b)) ++frames;
  return static_cast<double>(frames) / seconds_since(t0);
}

double decode_and_score(const std::string& ref, const std::string& dis, unsigned threads, std::size_t& frames) {
  const auto t0 = clock_type::now();
  vqm::io::ffmpeg_reader r(ref), d(dis);
  vqm::Cpu cpu(threads);
  vqm::session_config cfg;
  cfg.models.push_back(vqm::vmaf::builtin_model("vmaf_v0.6.1"));
  for (const char* f : {"psnr", "float_ssim", "float_ms_ssim", "psnr_hvs"})
    cfg.features.push_back(vqm::parse_feature_request(f));
  cfg.depth = std::max(1u, threads);
  vqm::session<vqm::Cpu> s(cpu, r.format(), cfg);
  const std::size_t depth = s.depth();
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
    else {
      std::fprintf(stderr, "usage: %s [--ref FILE --dis FILE] [--frames N] [--threads T] [--work DIR]\n", argv[0]);
      return a == "--help" ? 0 : 2;
    }
  }
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
    const double dec = decode_only(ref, dis, n);
    std::printf("decode only:              %8.2f fps (%zu frame pairs)\n", dec, n);
    const double all = decode_and_score(ref, dis, threads, n);
    std::printf("decode + 5 metrics (cpu): %8.2f fps (%zu frame pairs)\n", all, n);
    std::printf("scoring keeps %.1f%% of decode-only throughput\n", 100.0 * all / dec);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
