// The Vulkan backend of vqm's libvmaf C API (VQM_BACKEND=vulkan, VQM_DEVICE=N).
#include <optional>
#include <string>

#include "api.hpp"
#if VQM_LIBVMAF_API_VULKAN
#include "vqm/vulkan.hpp"
#endif

namespace vqm::capi {

#if VQM_LIBVMAF_API_VULKAN
namespace {

// vmaf_init checks that the device exists and is usable (cheap: no device is created); the device starts
// with the first picture, so a context that never scores (FFmpeg initialises its filter twice) costs none.
class vulkan_backend final : public backend {
 public:
  explicit vulkan_backend(int device) : device_(device) {
    const auto devices = vulkan::list_devices();  // throws without a loader
    const vulkan::device_info* pick = nullptr;
    for (const auto& d : devices) {
      if (device >= 0 ? d.index != device : !d.usable) continue;
      if (!pick || (device < 0 && d.type == "discrete" && pick->type != "discrete")) pick = &d;
    }
    if (!pick)
      throw error(errc::backend_unavailable, device >= 0 ? "no Vulkan device " + std::to_string(device) + " (VQM_DEVICE; vqm --list-gpu lists them)"
                                                         : "no usable Vulkan device (install a driver, e.g. mesa-vulkan-drivers)");
    if (!pick->usable) throw error(errc::backend_unavailable, "Vulkan device " + pick->name + " cannot run vqm: " + pick->why_not);
    name_ = pick->name;
  }
  [[nodiscard]] std::string description() const override { return "vulkan backend (" + name_ + ")"; }
  [[nodiscard]] std::unique_ptr<runner> start(const picture_format& f, session_config c) override {
    if (!vk_) {
      vulkan::context_options o;
      o.device_index = device_;
      vk_.emplace(o);
    }
    c.depth = vk_->frames_in_flight();
    return std::make_unique<session_runner<Vulkan>>(*vk_, f, std::move(c));
  }

 private:
  int device_;
  std::string name_;
  std::optional<Vulkan> vk_;
};

}  // namespace

std::unique_ptr<backend> make_vulkan_backend(int device) { return std::make_unique<vulkan_backend>(device); }
#else
std::unique_ptr<backend> make_vulkan_backend(int) {
  throw error(errc::backend_unavailable, "this libvmaf.so.3 was built without vqm's Vulkan backend (VQM_BACKEND=cpu)");
}
#endif

}  // namespace vqm::capi
