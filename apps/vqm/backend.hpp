// The backend a run measures on: --backend cpu, vulkan or auto (Vulkan when a usable hardware device
// exists, else the CPU with a note saying why), and --list-gpu.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "built_backends.hpp"
#include "checks.hpp"
#include "devices.hpp"
#include "errors.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run.hpp"
#include "std_streams.hpp"

namespace vqm::cli {

[[maybe_unused]] [[noreturn]] inline void fail_without_vulkan() {
  throw error(errc::backend_unavailable, "this vqm was built without the Vulkan backend; use --backend cpu");
}

// --list-gpu: the devices on stdout; none is a failure.
inline int list_gpus() {
#if VQM_HAVE_VULKAN
  const auto devices = vulkan::list_devices();
  if (devices.empty()) {
    std::string why;
    (void)vulkan::available(&why);  // only for `why`
    fmt::print("no Vulkan device found{}\n", why.empty() ? "" : ": " + why);
    return exit_failed;
  }
  for (const auto& d : devices)
    fmt::print("{}: {} ({}, Vulkan {}.{}.{}){}\n", d.index, d.name, d.type, d.api_version >> 22,
               (d.api_version >> 12) & 0x3ff, d.api_version & 0xfff, d.usable ? "" : " — not usable: " + d.why_not);
  return exit_ok;
#else
  fail_without_vulkan();
#endif
}

#if VQM_HAVE_VULKAN
// Whether to try Vulkan: --backend vulkan or auto, with a usable device; auto takes a software
// rasteriser (llvmpipe, type "cpu") only when --gpu-id names it, as it is slower than the Cpu backend.
// --backend vulkan without one is an error; auto says why it uses the CPU.
[[nodiscard]] inline bool vulkan_wanted(const options& o, const note_printer& note) {
  if (o.backend == "cpu") return false;
  std::string why;
  bool ok = vulkan::available(&why);
  if (ok && o.backend == "auto" && o.gpu_id < 0 && o.devices.empty()) {
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
  if (!ok)
    note(why.starts_with("the only Vulkan device") ? why + "; using the CPU"
                                                   : "no usable Vulkan device (" + why + "); using the CPU");
  return ok;
}

// Starts the device into `vk`; with auto, a device that fails to start leaves `vk` empty (the CPU runs).
inline void start_vulkan(const options& o, const note_printer& note, std::optional<Vulkan>& vk, int device) {
  try {
    vulkan::context_options vo;
    vo.device_index = device;
    vk.emplace(vo);
  } catch (const error& e) {
    if (o.backend == "vulkan") throw;
    note(std::string("Vulkan could not start (") + e.what() + "); using the CPU");
  }
}
#endif

// The reports of every distorted against the reference, and the backend that measured them.
struct scored {
  std::vector<report> reports;
  std::string backend;
};

#if VQM_HAVE_VULKAN
// The run on Vulkan when it is wanted and starts; empty: the CPU runs. Compiled in a translation unit of its
// own (score_vulkan.cpp): the Vulkan half of the program builds beside the rest, not after it (CI time).
[[nodiscard]] std::optional<scored> score_on_vulkan(const options& o, const run_config& cfg, opened_inputs& in,
                                                    const note_printer& note, shard_part* part);
#endif

[[nodiscard]] inline scored score(const options& o, const run_config& cfg, opened_inputs& in, const note_printer& note,
                                  shard_part* part = nullptr) {
#if VQM_HAVE_VULKAN
  if (auto on_vulkan = score_on_vulkan(o, cfg, in, note, part)) return std::move(*on_vulkan);
#else
  if (o.backend == "vulkan") fail_without_vulkan();
  if (o.backend == "auto") note("this vqm was built without the Vulkan backend; using the CPU");
#endif
  if (o.gpu_id >= 0 && o.backend == "cpu") note("--gpu-id is ignored on the CPU backend");
  const unsigned threads = o.threads ? o.threads : 1;
  Cpu cpu(threads);
  const auto dis = in.distorted();
  return {run(cpu, frames_in_flight(threads, in.ref->format()), cfg, *in.ref, std::span<io::frame_source* const>(dis),
              part),
          "cpu"};
}

}  // namespace vqm::cli
