// Minimal Vulkan plumbing for the lpf backend (instance/device or the caller's handles, RAII buffers).
// Interim: the shared include/vqm/vulkan/ infrastructure did not exist when this was written; the lpf
// backend should move onto it once it lands.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "vqm/error.hpp"

namespace vqm::lpf::detail::vk {

inline void check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  const errc c = (r == VK_ERROR_INITIALIZATION_FAILED || r == VK_ERROR_INCOMPATIBLE_DRIVER ||
                  r == VK_ERROR_EXTENSION_NOT_PRESENT || r == VK_ERROR_FEATURE_NOT_PRESENT)
                     ? errc::backend_unavailable
                     : errc::device;
  throw error(c, std::string("lpf vulkan: ") + what + " failed (VkResult " + std::to_string(int(r)) + ")");
}

// Handles of a device the caller already owns; the backend neither creates nor destroys them.
struct device_handles {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;  // must support compute and transfer
};

// Owns an instance + device when it created them.
class context {
 public:
  context() { create(); }
  explicit context(const device_handles& h) : h_(h), owned_(false) { query(); }
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  ~context() {
    if (!owned_) return;
    if (h_.device) vkDestroyDevice(h_.device, nullptr);
    if (h_.instance) vkDestroyInstance(h_.instance, nullptr);
  }
  [[nodiscard]] const device_handles& handles() const { return h_; }
  [[nodiscard]] VkDevice device() const { return h_.device; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const VkPhysicalDeviceLimits& limits() const { return props_.limits; }

  std::uint32_t memory_type(std::uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback) const {
    for (VkMemoryPropertyFlags f : {want, fallback})
      for (std::uint32_t i = 0; i < mem_.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mem_.memoryTypes[i].propertyFlags & f) == f) return i;
    throw error(errc::device, "lpf vulkan: no suitable memory type");
  }

 private:
  void query() {
    vkGetPhysicalDeviceProperties(h_.physical, &props_);
    vkGetPhysicalDeviceMemoryProperties(h_.physical, &mem_);
    name_ = props_.deviceName;
  }
  void create() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vqm-lpf";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    check(vkCreateInstance(&ici, nullptr, &h_.instance), "vkCreateInstance (is a Vulkan driver installed?)");
    std::uint32_t n = 0;
    vkEnumeratePhysicalDevices(h_.instance, &n, nullptr);
    std::vector<VkPhysicalDevice> devs(n);
    vkEnumeratePhysicalDevices(h_.instance, &n, devs.data());
    // Prefer a discrete GPU, then any device with the storage features and a compute queue.
    int best = -1, best_score = -1;
    std::uint32_t best_family = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devs[i], &p);
      if (p.apiVersion < VK_API_VERSION_1_2) continue;
      VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
      VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
      VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
      vkGetPhysicalDeviceFeatures2(devs[i], &f2);
      if (!f12.storageBuffer8BitAccess || !f11.storageBuffer16BitAccess) continue;
      std::uint32_t qn = 0;
      vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, nullptr);
      std::vector<VkQueueFamilyProperties> qs(qn);
      vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, qs.data());
      for (std::uint32_t q = 0; q < qn; ++q) {
        if (!(qs[q].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
        const int score = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 3
                          : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2 : 1;
        if (score > best_score) best = int(i), best_score = score, best_family = q;
        break;
      }
    }
    if (best < 0)
      throw error(errc::backend_unavailable,
                  "lpf vulkan: no Vulkan 1.2 device with storageBuffer8BitAccess/16BitAccess and a compute queue");
    h_.physical = devs[std::size_t(best)];
    h_.queue_family = best_family;
    const float prio = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = best_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.storageBuffer8BitAccess = VK_TRUE;
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    f11.storageBuffer16BitAccess = VK_TRUE;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f11};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    check(vkCreateDevice(h_.physical, &dci, nullptr, &h_.device), "vkCreateDevice");
    vkGetDeviceQueue(h_.device, best_family, 0, &h_.queue);
    query();
  }

  device_handles h_;
  bool owned_ = true;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties mem_{};
  std::string name_;
};

// A buffer with its own memory; grows (never shrinks) so steady-state batches allocate nothing.
class buffer {
 public:
  buffer() = default;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() { reset(); }

  void init(const context* ctx, VkBufferUsageFlags usage, bool host) {
    ctx_ = ctx;
    usage_ = usage;
    host_ = host;
  }
  // Ensures capacity >= bytes; returns true when the VkBuffer changed (descriptors must be rewritten).
  bool reserve(VkDeviceSize bytes) {
    if (bytes <= size_ && buf_) return false;
    reset();
    VkDeviceSize cap = 4096;
    while (cap < bytes) cap *= 2;
    VkDevice d = ctx_->device();
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = cap;
    bci.usage = usage_;
    check(vkCreateBuffer(d, &bci, nullptr, &buf_), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d, buf_, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    mai.memoryTypeIndex = host_ ? ctx_->memory_type(req.memoryTypeBits, hv | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, hv)
                               : ctx_->memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    check(vkAllocateMemory(d, &mai, nullptr, &mem_), "vkAllocateMemory");
    check(vkBindBufferMemory(d, buf_, mem_, 0), "vkBindBufferMemory");
    if (host_) check(vkMapMemory(d, mem_, 0, VK_WHOLE_SIZE, 0, &map_), "vkMapMemory");
    size_ = cap;
    return true;
  }
  [[nodiscard]] VkBuffer get() const { return buf_; }
  [[nodiscard]] VkDeviceSize size() const { return size_; }
  [[nodiscard]] void* map() const { return map_; }

 private:
  void reset() {
    if (!ctx_) return;
    VkDevice d = ctx_->device();
    if (buf_) vkDestroyBuffer(d, buf_, nullptr);
    if (mem_) vkFreeMemory(d, mem_, nullptr);  // unmaps implicitly
    buf_ = VK_NULL_HANDLE;
    mem_ = VK_NULL_HANDLE;
    map_ = nullptr;
    size_ = 0;
  }
  const context* ctx_ = nullptr;
  VkBufferUsageFlags usage_ = 0;
  bool host_ = false;
  VkBuffer buf_ = VK_NULL_HANDLE;
  VkDeviceMemory mem_ = VK_NULL_HANDLE;
  void* map_ = nullptr;
  VkDeviceSize size_ = 0;
};

}  // namespace vqm::lpf::detail::vk
