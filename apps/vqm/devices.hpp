// --devices all|0,2|NAME,...: the Vulkan devices a run spreads over (docs/multi-gpu.md), checked against
// the other flags, chosen from vulkan::list_devices(), and the run on them: one -d in frame blocks
// (run_devices.hpp), several -d spread over the devices (multi_session's groups).
#pragma once

#include <algorithm>
#include <charconv>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "built_backends.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run.hpp"
#include "run_devices.hpp"
#include "run_parts.hpp"

namespace vqm::cli {

// --devices with what it cannot go with: the CPU backend, --gpu-id, a shard of several devices.
inline void check_device_options(const options& o) {
  if (o.devices.empty()) {
    if (o.device_block_given)
      throw error(errc::invalid_argument, "--device-block sets the frames per block of --devices: add --devices all "
                                          "(or drop --device-block)");
    return;
  }
#if !VQM_HAVE_VULKAN
  throw error(errc::backend_unavailable, "--devices picks Vulkan devices, and this vqm was built without the Vulkan "
                                         "backend (drop --devices)");
#endif
  if (o.backend == "cpu")
    throw error(errc::invalid_argument, "--devices " + o.devices + " picks Vulkan devices: add --backend vulkan (or drop "
                                        "--devices; --threads N spreads the CPU backend's work)");
  if (o.gpu_id >= 0)
    throw error(errc::invalid_argument, "--gpu-id and --devices both pick devices: give one (--devices N is --gpu-id N)");
  if (!o.frame_range.empty() && (o.devices == "all" || o.devices.find(',') != std::string::npos))
    throw error(errc::invalid_argument, "--frame-range scores a shard on one device: give --devices N (or --gpu-id N), "
                                        "and the other devices other shards");
}

#if VQM_HAVE_VULKAN
// The device indices `spec` names, in its order, each once: "all" (every usable device, software
// rasterisers such as lavapipe only when there is no other: they are slower than the CPU backend), indices of
// --list-devices, or names (an entry that is not a number takes every usable device whose name contains
// it). A missing index, a name no device has, or one device twice is an error saying what there is.
[[nodiscard]] inline std::vector<int> select_devices(const std::string& spec, std::span<const vulkan::device_info> list) {
  std::string have;
  for (const auto& d : list) have += fmt::format("{}{}: {}{}", have.empty() ? "" : ", ", d.index, d.name, d.usable ? "" : " (not usable)");
  const std::string what = list.empty() ? "this machine has no Vulkan device" : "this machine has " + have;
  const std::string fix = " (vqm --list-devices lists them)";
  std::vector<int> out;
  const auto take = [&](int k, std::string_view entry) {
    if (std::find(out.begin(), out.end(), k) != out.end())
      throw error(errc::invalid_argument, fmt::format("--devices {}: device {} is named twice ({} again; give each "
                                                      "device once)", spec, k, entry));
    out.push_back(k);
  };
  if (spec == "all") {  // the hardware devices; software rasterisers (type "cpu") only where there is none
    const bool hardware = std::any_of(list.begin(), list.end(), [](const auto& d) { return d.usable && d.type != "cpu"; });
    for (const auto& d : list)
      if (d.usable && (!hardware || d.type != "cpu")) out.push_back(d.index);
    if (out.empty()) throw error(errc::backend_unavailable, "--devices all: no usable Vulkan device; " + what + fix);
    return out;
  }
  std::string_view rest = spec;
  while (true) {
    const auto comma = std::min(rest.find(','), rest.size());
    const auto entry = rest.substr(0, comma);
    int k = -1;
    const auto r = std::from_chars(entry.data(), entry.data() + entry.size(), k);
    if (entry.empty())
      throw error(errc::invalid_argument, "--devices " + spec + ": an empty entry (all, or indices and names separated "
                                          "by commas, e.g. 0,2)");
    if (r.ec == std::errc{} && r.ptr == entry.data() + entry.size()) {
      const auto it = std::find_if(list.begin(), list.end(), [&](const auto& d) { return d.index == k; });
      if (it == list.end())
        throw error(errc::invalid_argument, fmt::format("--devices {}: no Vulkan device {}; {} (give indices it has, or "
                                                        "all){}", spec, k, what, fix));
      if (!it->usable)
        throw error(errc::backend_unavailable, fmt::format("--devices {}: device {} ({}) is not usable: {}", spec, k,
                                                           it->name, it->why_not));
      take(k, entry);
    } else {
      bool found = false;
      for (const auto& d : list)
        if (d.usable && d.name.find(entry) != std::string::npos) {
          take(d.index, entry);
          found = true;
        }
      if (!found)
        throw error(errc::invalid_argument, fmt::format("--devices {}: no usable Vulkan device named '{}'; {} (give a "
                                                        "name they have, an index, or all){}", spec, entry, what, fix));
    }
    if (comma == rest.size()) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

// The run on several devices: one Vulkan context each for the whole run. Inputs that seek: one pair in
// contiguous parts (unless --device-block asks for blocks), several distorted in groups, each part or group
// on its device's thread; others: blocks from one read, or one multi_session over the devices.
[[nodiscard]] inline std::vector<report> run_on_vulkan_devices(const std::vector<int>& devices, const options& o,
                                                               const run_config& cfg, opened_inputs& in,
                                                               shard_part* part) {
  io::frame_source& ref = *in.ref;
  const auto dis_list = in.distorted();
  const std::span<io::frame_source* const> dis(dis_list);
  // The contexts start at once (a device's creation and pipeline cache take ~0.1-0.3 s on NVIDIA); the
  // first device's error is the one reported.
  std::vector<std::unique_ptr<Vulkan>> vks(devices.size());
  on_threads(devices.size(), [&](std::size_t k) {
    vulkan::context_options vo;
    vo.device_index = devices[k];
    vks[k] = std::make_unique<Vulkan>(vo);
  });
  std::vector<Vulkan*> ptrs;
  for (auto& v : vks) ptrs.push_back(v.get());
  const std::span<Vulkan* const> all(ptrs);
  const std::size_t depth = ptrs.front()->frames_in_flight();
  if (dis.size() > 1 && !part)
    if (auto reps = run_in_groups(all, depth, o, cfg, in)) return std::move(*reps);
  if (dis.size() > 1 || part) return run(all, depth, cfg, ref, dis, part);
  if (!o.device_block_given)
    if (auto rep = run_in_parts(all, depth, o, cfg, in)) return {std::move(*rep)};
  return {run_on_devices(all, depth, o.device_block, cfg, ref, *dis.front())};
}
#endif

}  // namespace vqm::cli
