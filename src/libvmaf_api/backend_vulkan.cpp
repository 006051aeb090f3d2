// The Vulkan backend of vqm's libvmaf C API (VQM_BACKEND=vulkan, VQM_DEVICE=N).
#include <string>

#include "api.hpp"
#if VQM_LIBVMAF_API_VULKAN
#include "vqm/vulkan.hpp"
#endif

namespace vqm::capi {

#if VQM_LIBVMAF_API_VULKAN
namespace {

class vulkan_backend final : public backend {
 public:
  explicit vulkan_backend(int device) : vk_(options(device)) {}
  [[nodiscard]] std::string description() const override { return "vulkan backend (" + vk_.context().name() + ")"; }
  [[nodiscard]] std::unique_ptr<runner> start(const picture_format& f, session_config c) override {
    c.depth = vk_.frames_in_flight();
    return std::make_unique<session_runner<Vulkan>>(vk_, f, std::move(c));
  }

 private:
  static vulkan::context_options options(int device) {
    vulkan::context_options o;
    o.device_index = device;
    return o;
  }
  Vulkan vk_;
};

}  // namespace

std::unique_ptr<backend> make_vulkan_backend(int device) { return std::make_unique<vulkan_backend>(device); }
#else
std::unique_ptr<backend> make_vulkan_backend(int) {
  throw error(errc::backend_unavailable, "this libvmaf.so.3 was built without vqm's Vulkan backend (VQM_BACKEND=cpu)");
}
#endif

}  // namespace vqm::capi
