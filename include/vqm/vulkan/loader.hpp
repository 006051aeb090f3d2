// The Vulkan loader, opened at run time, and the function tables every vqm Vulkan component calls.
//
// vqm::vulkan does not link libvulkan: a machine without a loader must still start (the CLI then falls
// back to the CPU) and get a clear vqm::error instead of a dynamic-linker failure. So every Vulkan
// function is called through a `dispatch` table loaded with vkGetInstanceProcAddr/vkGetDeviceProcAddr,
// which also skips the loader's trampoline for device functions.
#pragma once

// VK_NO_PROTOTYPES is left to the includer: vqm never calls a prototype (every call goes through
// `dispatch`), so declaring them links nothing, and defining the macro here would hide them from the
// includer's own code for good (<vulkan/vulkan.h> is include-guarded). Both ways are tested
// (tests/package/consumer/vulkan*.cpp).
#include <vulkan/vulkan.h>

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "vqm/error.hpp"

namespace vqm::vulkan {

// Functions resolved with vkGetInstanceProcAddr(nullptr, ...).
#define VQM_VK_GLOBAL_FUNCTIONS(X)         \
  X(vkCreateInstance)                      \
  X(vkEnumerateInstanceExtensionProperties) \
  X(vkEnumerateInstanceLayerProperties)    \
  X(vkEnumerateInstanceVersion)

// Functions resolved with vkGetInstanceProcAddr(instance, ...). Extension entries may stay null.
#define VQM_VK_INSTANCE_FUNCTIONS(X)            \
  X(vkDestroyInstance)                          \
  X(vkEnumeratePhysicalDevices)                 \
  X(vkGetPhysicalDeviceProperties)              \
  X(vkGetPhysicalDeviceProperties2)             \
  X(vkGetPhysicalDeviceFeatures)                \
  X(vkGetPhysicalDeviceFeatures2)               \
  X(vkGetPhysicalDeviceQueueFamilyProperties)   \
  X(vkGetPhysicalDeviceMemoryProperties)        \
  X(vkGetPhysicalDeviceFormatProperties)        \
  X(vkEnumerateDeviceExtensionProperties)       \
  X(vkCreateDevice)                             \
  X(vkGetDeviceProcAddr)                        \
  X(vkCreateDebugUtilsMessengerEXT)             \
  X(vkDestroyDebugUtilsMessengerEXT)

// Functions resolved with vkGetDeviceProcAddr(device, ...).
#define VQM_VK_DEVICE_FUNCTIONS(X)     \
  X(vkDestroyDevice)                   \
  X(vkGetDeviceQueue)                  \
  X(vkDeviceWaitIdle)                  \
  X(vkQueueSubmit)                     \
  X(vkQueueWaitIdle)                   \
  X(vkCreateBuffer)                    \
  X(vkDestroyBuffer)                   \
  X(vkGetBufferMemoryRequirements)     \
  X(vkAllocateMemory)                  \
  X(vkFreeMemory)                      \
  X(vkBindBufferMemory)                \
  X(vkMapMemory)                       \
  X(vkUnmapMemory)                     \
  X(vkFlushMappedMemoryRanges)         \
  X(vkInvalidateMappedMemoryRanges)    \
  X(vkCreateShaderModule)              \
  X(vkDestroyShaderModule)             \
  X(vkCreatePipelineCache)             \
  X(vkDestroyPipelineCache)            \
  X(vkGetPipelineCacheData)            \
  X(vkCreateComputePipelines)          \
  X(vkDestroyPipeline)                 \
  X(vkCreatePipelineLayout)            \
  X(vkDestroyPipelineLayout)           \
  X(vkCreateDescriptorSetLayout)       \
  X(vkDestroyDescriptorSetLayout)      \
  X(vkCreateDescriptorPool)            \
  X(vkDestroyDescriptorPool)           \
  X(vkResetDescriptorPool)             \
  X(vkAllocateDescriptorSets)          \
  X(vkFreeDescriptorSets)              \
  X(vkUpdateDescriptorSets)            \
  X(vkCreateCommandPool)               \
  X(vkDestroyCommandPool)              \
  X(vkResetCommandPool)                \
  X(vkAllocateCommandBuffers)          \
  X(vkFreeCommandBuffers)              \
  X(vkBeginCommandBuffer)              \
  X(vkEndCommandBuffer)                \
  X(vkResetCommandBuffer)              \
  X(vkCmdBindPipeline)                 \
  X(vkCmdBindDescriptorSets)           \
  X(vkCmdPushConstants)                \
  X(vkCmdDispatch)                     \
  X(vkCmdDispatchIndirect)             \
  X(vkCmdCopyBuffer)                   \
  X(vkCmdCopyImageToBuffer)            \
  X(vkCmdCopyBufferToImage)            \
  X(vkCreateImage)                     \
  X(vkDestroyImage)                    \
  X(vkGetImageMemoryRequirements)      \
  X(vkBindImageMemory)                 \
  X(vkCmdFillBuffer)                   \
  X(vkCmdUpdateBuffer)                 \
  X(vkCmdPipelineBarrier)              \
  X(vkCmdWriteTimestamp)               \
  X(vkCmdResetQueryPool)               \
  X(vkCreateFence)                     \
  X(vkDestroyFence)                    \
  X(vkResetFences)                     \
  X(vkWaitForFences)                   \
  X(vkGetFenceStatus)                  \
  X(vkCreateSemaphore)                 \
  X(vkDestroySemaphore)                \
  X(vkCreateQueryPool)                 \
  X(vkDestroyQueryPool)                \
  X(vkGetQueryPoolResults)

// The function table: one per context (device functions belong to one VkDevice).
struct dispatch {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define VQM_VK_MEMBER(name) PFN_##name name = nullptr;
  VQM_VK_GLOBAL_FUNCTIONS(VQM_VK_MEMBER)
  VQM_VK_INSTANCE_FUNCTIONS(VQM_VK_MEMBER)
  VQM_VK_DEVICE_FUNCTIONS(VQM_VK_MEMBER)
#undef VQM_VK_MEMBER

  void load_global(PFN_vkGetInstanceProcAddr gipa) {
    vkGetInstanceProcAddr = gipa;
#define VQM_VK_LOAD(name) name = reinterpret_cast<PFN_##name>(gipa(VK_NULL_HANDLE, #name));
    VQM_VK_GLOBAL_FUNCTIONS(VQM_VK_LOAD)
#undef VQM_VK_LOAD
    if (!vkCreateInstance)
      throw error(errc::backend_unavailable, "the Vulkan loader does not provide vkCreateInstance (broken install?)");
  }
  void load_instance(VkInstance instance) {
#define VQM_VK_LOAD(name) name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
    VQM_VK_INSTANCE_FUNCTIONS(VQM_VK_LOAD)
#undef VQM_VK_LOAD
    if (!vkGetPhysicalDeviceFeatures2 || !vkGetPhysicalDeviceProperties2)
      throw error(errc::backend_unavailable, "the Vulkan instance lacks Vulkan 1.1 entry points (need Vulkan 1.2)");
  }
  // Every listed device function is core Vulkan 1.0; a null one means a broken driver.
  void load_device(VkDevice device) {
#define VQM_VK_LOAD(name)                                                                        \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name));                       \
  if (!name) throw error(errc::backend_unavailable, "the Vulkan driver does not provide " #name);
    VQM_VK_DEVICE_FUNCTIONS(VQM_VK_LOAD)
#undef VQM_VK_LOAD
  }
};

inline constexpr const char* no_loader_message =
    "no Vulkan loader (libvulkan.so.1) found: install libvulkan1 and a driver (e.g. mesa-vulkan-drivers)";

// Opens a loader library (not cached; the process-wide one is loader()). Throws backend_unavailable.
[[nodiscard]] inline PFN_vkGetInstanceProcAddr open_loader(const char* path) {
  void* lib = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw error(errc::backend_unavailable, no_loader_message);
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(::dlsym(lib, "vkGetInstanceProcAddr"));
  if (!gipa) {
    ::dlclose(lib);
    throw error(errc::backend_unavailable,
                std::string(path) + " has no vkGetInstanceProcAddr: not a Vulkan loader (reinstall libvulkan1)");
  }
  return gipa;  // the library stays loaded for the process lifetime (drivers dislike being unloaded)
}

// The process-wide loader: libvulkan.so.1, or the file named by VQM_VULKAN_LOADER (for tests and
// unusual installs). Opened once; a failure is remembered and rethrown with the same message.
[[nodiscard]] inline PFN_vkGetInstanceProcAddr loader() {
  static std::once_flag once;
  static PFN_vkGetInstanceProcAddr gipa = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    const char* path = std::getenv("VQM_VULKAN_LOADER");
    try {
      gipa = open_loader(path && *path ? path : "libvulkan.so.1");
    } catch (const error& e) {
      failure = e.what();
    }
  });
  if (!gipa) throw error(errc::backend_unavailable, failure);
  return gipa;
}

[[nodiscard]] inline const char* result_name(VkResult r) noexcept {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default: return "VkResult";
  }
}

// Throws a vqm::error naming the failed call and the problem; `what` says what was being done.
inline void check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  const std::string code = std::string(result_name(r)) + " (" + std::to_string(static_cast<int>(r)) + ")";
  switch (r) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      throw error(errc::device, std::string("Vulkan: out of device memory while ") + what +
                                    " (use a smaller input, fewer frames in flight, or another GPU)");
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      throw error(errc::device, std::string("Vulkan: out of host memory while ") + what);
    case VK_ERROR_DEVICE_LOST:
      throw error(errc::device, std::string("Vulkan: device lost while ") + what +
                                    " (driver reset or GPU fault; see the kernel log)");
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
      throw error(errc::backend_unavailable, std::string("Vulkan: ") + what + " failed: " + code);
    default:
      throw error(errc::device, std::string("Vulkan: ") + what + " failed: " + code);
  }
}

}  // namespace vqm::vulkan
