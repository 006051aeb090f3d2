// Device probing without a context: the loader's instance-level queries (layers, extensions), a bare
// instance for enumeration, why a device can or cannot run vqm, list_devices() and available().
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

struct device_info {
  int index = 0;
  std::string name;
  std::string type;  // "discrete", "integrated", "virtual", "cpu", "other"
  std::uint32_t api_version = 0;
  bool usable = false;
  std::string why_not;  // when !usable
};

namespace detail {

[[nodiscard]] inline const char* device_type_name(VkPhysicalDeviceType t) noexcept {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

[[nodiscard]] inline int device_rank(VkPhysicalDeviceType t) noexcept {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

// A compute-capable queue family, preferring a compute-only one (async compute engines), or -1.
[[nodiscard]] inline int compute_family(const dispatch& fn, VkPhysicalDevice pd) {
  std::uint32_t n = 0;
  fn.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> q(n);
  fn.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q.data());
  int best = -1;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[i].queueCount == 0) continue;
    if (best < 0) best = static_cast<int>(i);
    // A dedicated compute family (no graphics) on discrete GPUs runs beside any display work.
    if (!(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (q[best].queueFlags & VK_QUEUE_GRAPHICS_BIT))
      best = static_cast<int>(i);
  }
  return best;
}

// Why a physical device cannot run vqm ("" when it can).
[[nodiscard]] inline std::string why_unusable(const dispatch& fn, VkPhysicalDevice pd) {
  VkPhysicalDeviceProperties p{};
  fn.vkGetPhysicalDeviceProperties(pd, &p);
  if (p.apiVersion < VK_API_VERSION_1_2)
    return "Vulkan " + std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
           std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + " device; vqm needs Vulkan 1.2";
  if (compute_family(fn, pd) < 0) return "no compute queue";
  return {};
}

inline bool has_layer(const dispatch& fn, const char* name) {
  std::uint32_t n = 0;
  if (!fn.vkEnumerateInstanceLayerProperties) return false;
  fn.vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> l(n);
  fn.vkEnumerateInstanceLayerProperties(&n, l.data());
  return std::any_of(l.begin(), l.end(), [&](const VkLayerProperties& x) { return std::strcmp(x.layerName, name) == 0; });
}

inline bool has_instance_extension(const dispatch& fn, const char* name, const char* layer = nullptr) {
  std::uint32_t n = 0;
  fn.vkEnumerateInstanceExtensionProperties(layer, &n, nullptr);
  std::vector<VkExtensionProperties> e(n);
  fn.vkEnumerateInstanceExtensionProperties(layer, &n, e.data());
  return std::any_of(e.begin(), e.end(),
                     [&](const VkExtensionProperties& x) { return std::strcmp(x.extensionName, name) == 0; });
}

// vkCreateInstance failing with VK_ERROR_OUT_OF_HOST_MEMORY is, in practice, the loader rejecting a
// driver manifest it cannot parse (a garbage ICD JSON), not a full memory: say so, as "unavailable".
inline void check_instance_result(VkResult r) {
  if (r != VK_ERROR_OUT_OF_HOST_MEMORY) return;
  std::string env;
  for (const char* name : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"})
    if (const char* v = std::getenv(name); v && *v) env += std::string(env.empty() ? "" : ", ") + name + "=" + v;
  throw error(errc::backend_unavailable,
              "the Vulkan loader could not create an instance (VK_ERROR_OUT_OF_HOST_MEMORY, which it also reports for "
              "a malformed driver manifest" +
                  (env.empty() ? std::string(" (/usr/share/vulkan/icd.d/*.json)") : "; check " + env) +
                  "): fix the driver installation");
}

// A bare instance for enumeration (list_devices, available): no layers, no extensions.
class probe_instance {
 public:
  probe_instance() {
    fn_.load_global(loader());
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "vqm";
    app.pEngineName = "vqm";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    const VkResult r = fn_.vkCreateInstance(&ci, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
      throw error(errc::backend_unavailable,
                  "no Vulkan driver found (the loader reports VK_ERROR_INCOMPATIBLE_DRIVER): install a driver "
                  "(e.g. mesa-vulkan-drivers)");
    detail::check_instance_result(r);
    check(r, "vkCreateInstance");
    fn_.load_instance(instance_);
  }
  probe_instance(const probe_instance&) = delete;
  probe_instance& operator=(const probe_instance&) = delete;
  ~probe_instance() {
    if (instance_) fn_.vkDestroyInstance(instance_, nullptr);
  }
  [[nodiscard]] const dispatch& fn() const noexcept { return fn_; }
  [[nodiscard]] std::vector<VkPhysicalDevice> devices() const {
    std::uint32_t n = 0;
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> d(n);
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, d.data()), "vkEnumeratePhysicalDevices");
    d.resize(n);
    return d;
  }

 private:
  dispatch fn_;
  VkInstance instance_ = VK_NULL_HANDLE;
};

[[nodiscard]] inline std::vector<device_info> describe_devices(const dispatch& fn,
                                                               const std::vector<VkPhysicalDevice>& devs) {
  std::vector<device_info> out;
  for (std::size_t i = 0; i < devs.size(); ++i) {
    VkPhysicalDeviceProperties p{};
    fn.vkGetPhysicalDeviceProperties(devs[i], &p);
    device_info d;
    d.index = static_cast<int>(i);
    d.name = p.deviceName;
    d.type = device_type_name(p.deviceType);
    d.api_version = p.apiVersion;
    d.why_not = why_unusable(fn, devs[i]);
    d.usable = d.why_not.empty();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace detail

// Every physical device, with whether vqm can use it. Throws backend_unavailable without a loader.
[[nodiscard]] inline std::vector<device_info> list_devices() {
  detail::probe_instance inst;
  return detail::describe_devices(inst.fn(), inst.devices());
}

// Whether some usable Vulkan device exists (the probe of `--backend auto`); never throws.
[[nodiscard]] inline bool available(std::string* why = nullptr) noexcept {
  try {
    const auto devs = list_devices();
    if (devs.empty()) {
      if (why) *why = "no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers)";
      return false;
    }
    for (const auto& d : devs)
      if (d.usable) return true;
    if (why) *why = "no usable Vulkan device: " + devs.front().name + ": " + devs.front().why_not;
    return false;
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
}

}  // namespace vqm::vulkan
