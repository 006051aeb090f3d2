// vqm_gpu_resident: frames made on the GPU and scored there, with no readback of pixels. A compute shader
// (the stand-in for a GPU decoder) writes a reference and a distorted NV12 frame into the caller's buffers;
// vqm::Vulkan copies them on the device into its own input (vulkan::gpu_picture), synchronised by one
// timeline semaphore, and a session computes VMAF (vmaf_v0.6.1) and psnr per frame.
//
//   vqm_gpu_resident [--frames N] [--size WxH] [--verify]
//
// --verify generates the same frames again, reads them back to host memory, scores them from there and
// checks that every value is identical (exit status 1 otherwise).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "generator.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "vqm/vulkan.hpp"

namespace {

struct args {
  std::uint64_t frames = 10;
  std::uint32_t width = 320, height = 180;
  bool verify = false;
};

args parse(int argc, char** argv) {
  args a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view s = argv[i];
    const bool more = i + 1 < argc;
    if (s == "--frames" && more) {
      a.frames = std::strtoull(argv[++i], nullptr, 10);
    } else if (s == "--size" && more && std::sscanf(argv[++i], "%ux%u", &a.width, &a.height) == 2) {
    } else if (s == "--verify") {
      a.verify = true;
    } else {
      throw vqm::error(vqm::errc::invalid_argument, "usage: vqm_gpu_resident [--frames N] [--size WxH] [--verify] (got '" +
                                                        std::string(s) + "')");
    }
  }
  return a;
}

vqm::session_config config() {
  vqm::session_config c;
  c.models.push_back(vqm::vmaf::builtin_model("vmaf_v0.6.1"));
  c.features.push_back({"psnr", {}});
  c.mode = vqm::compat::libvmaf;
  return c;
}

}  // namespace

int main(int argc, char** argv) try {
  const args a = parse(argc, argv);
  vqm::Vulkan gpu;
  const auto f = vqm::make_format(*vqm::find_pixel_format("nv12"), a.width, a.height);
  auto cfg = config();
  cfg.depth = gpu.frames_in_flight();
  // One generator buffer per frame vqm may hold, plus the one being generated.
  example::generator gen(gpu.context(), f, static_cast<std::uint32_t>(cfg.depth + 1));
  vqm::session<vqm::Vulkan> s(gpu, f, cfg);
  for (std::uint64_t t = 0; t < a.frames; ++t) {
    const auto [ref, dis] = gen.generate(t);
    s.push(ref, dis);  // the frame waits on the generator's semaphore value on the GPU, not here
  }
  const vqm::score_table table = s.finish();
  const auto vmaf = table.column("vmaf"), psnr = table.column("psnr_y");
  std::printf("%s, %s\n", gpu.context().name().c_str(), vqm::describe(f).c_str());
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    std::printf("frame %zu: vmaf %.6f psnr_y %.6f\n", table.frames[r], vmaf[r], psnr[r]);
  if (!a.verify) return 0;

  // The same frames from host memory through the ordinary upload path.
  vqm::session<vqm::Vulkan> host(gpu, f, cfg);
  std::vector<vqm::picture> refs(a.frames), diss(a.frames);
  for (std::uint64_t t = 0; t < a.frames; ++t) {
    gen.read_back(t, refs[t], diss[t]);
    host.push(refs[t].view(), diss[t].view());
  }
  const vqm::score_table want = host.finish();
  std::size_t values = 0, differ = 0;
  if (want.names != table.names || want.rows.size() != table.rows.size()) {
    std::printf("verify: the host run has other series or frames\n");
    return 1;
  }
  for (std::size_t r = 0; r < want.rows.size(); ++r)
    for (std::size_t k = 0; k < want.names.size(); ++k, ++values)
      if (!(want.rows[r][k] == table.rows[r][k])) {
        if (++differ <= 5)
          std::printf("verify: frame %zu %s: gpu-resident %.17g, host %.17g\n", want.frames[r], want.names[k].c_str(),
                      table.rows[r][k], want.rows[r][k]);
      }
  if (differ) {
    std::printf("verify: %zu of %zu values differ\n", differ, values);
    return 1;
  }
  std::printf("verify: %zu values of %zu frames identical to the host-memory run\n", values, want.rows.size());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "vqm_gpu_resident: %s\n", e.what());
  return 1;
}
