// The vqm program's run on Vulkan (backend.hpp's score_on_vulkan): the Vulkan engines and the sessions on
// them compile here, in parallel with main.cpp's unit.
#include "backend.hpp"

namespace vqm::cli {

std::optional<scored> score_on_vulkan(const options& o, const run_config& cfg, opened_inputs& in,
                                      const note_printer& note, shard_part* part) {
  std::optional<Vulkan> vk;
  if (vulkan_wanted(o, note)) {
    int device = o.gpu_id;
    if (!o.devices.empty()) {
      const auto chosen = select_devices(o.devices, vulkan::list_devices());
      if (chosen.size() > 1) return scored{run_on_vulkan_devices(chosen, o, cfg, in, part), "vulkan"};
      device = chosen.front();  // one device: --gpu-id's run
    }
    start_vulkan(o, note, vk, device);
  }
  if (!vk) return std::nullopt;
  const auto dis = in.distorted();
  return scored{run(*vk, vk->frames_in_flight(), cfg, *in.ref, std::span<io::frame_source* const>(dis), part),
                "vulkan"};
}

}  // namespace vqm::cli
