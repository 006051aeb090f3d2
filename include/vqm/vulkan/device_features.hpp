// The optional device features vqm's kernels use: which to enable on a device vqm creates, and what a
// borrowed device has enabled.
#pragma once

#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

// The optional device features vqm enables when the device has them (queried for borrowed devices).
struct device_features {
  bool float64 = false;            // shaderFloat64: SSIM / MS-SSIM exact accumulation
  bool int64 = false;              // shaderInt64: exact integer SSE
  bool int16 = false;              // shaderInt16
  bool storage_buffer_8bit = false;   // storageBuffer8BitAccess
  bool storage_buffer_16bit = false;  // storageBuffer16BitAccess
  bool int8 = false;               // shaderInt8
  bool timeline_semaphore = false;
  bool host_query_reset = false;
  bool sampler_ycbcr = false;  // samplerYcbcrConversion: multi-planar (NV12/P010) images, for GPU-resident input
};

namespace detail {

[[nodiscard]] inline device_features features_of(const VkPhysicalDeviceFeatures2& f, const VkPhysicalDeviceVulkan11Features& f11,
                                                 const VkPhysicalDeviceVulkan12Features& f12) noexcept {
  device_features d;
  d.float64 = f.features.shaderFloat64;
  d.int64 = f.features.shaderInt64;
  d.int16 = f.features.shaderInt16;
  d.storage_buffer_16bit = f11.storageBuffer16BitAccess;
  d.storage_buffer_8bit = f12.storageBuffer8BitAccess;
  d.int8 = f12.shaderInt8;
  d.timeline_semaphore = f12.timelineSemaphore;
  d.host_query_reset = f12.hostQueryReset;
  d.sampler_ycbcr = f11.samplerYcbcrConversion;
  return d;
}

// The feature chain vqm enables on a device it creates: only what its kernels may use, each when present.
struct feature_chain {
  VkPhysicalDeviceVulkan12Features v12{};
  VkPhysicalDeviceVulkan11Features v11{};
  VkPhysicalDeviceFeatures2 base{};
  feature_chain() noexcept {
    v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    v11.pNext = &v12;
    base.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    base.pNext = &v11;
  }
  feature_chain(const feature_chain&) = delete;  // self-referential
  feature_chain& operator=(const feature_chain&) = delete;
  [[nodiscard]] device_features features() const noexcept { return features_of(base, v11, v12); }
};

inline void enable_supported(const dispatch& fn, VkPhysicalDevice physical, feature_chain& en) {
  feature_chain sup;
  fn.vkGetPhysicalDeviceFeatures2(physical, &sup.base);
  en.base.features.shaderFloat64 = sup.base.features.shaderFloat64;
  en.base.features.shaderInt64 = sup.base.features.shaderInt64;
  en.base.features.shaderInt16 = sup.base.features.shaderInt16;
  en.v11.storageBuffer16BitAccess = sup.v11.storageBuffer16BitAccess;
  en.v12.storageBuffer8BitAccess = sup.v12.storageBuffer8BitAccess;
  en.v12.shaderInt8 = sup.v12.shaderInt8;
  en.v12.timelineSemaphore = sup.v12.timelineSemaphore;
  en.v12.hostQueryReset = sup.v12.hostQueryReset;
  en.v11.samplerYcbcrConversion = sup.v11.samplerYcbcrConversion;
}

// What a borrowed device has: `enabled` = the chain the caller gave vkCreateDevice (the structures vqm
// understands are read from it), or null = every feature the device supports.
[[nodiscard]] inline device_features borrowed_features(const dispatch& fn, VkPhysicalDevice physical,
                                                       const VkPhysicalDeviceFeatures2* enabled) {
  feature_chain c;
  if (!enabled) {
    fn.vkGetPhysicalDeviceFeatures2(physical, &c.base);
    return c.features();
  }
  c.base.features = enabled->features;
  for (auto* p = static_cast<const VkBaseInStructure*>(enabled->pNext); p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES) {
      c.v11 = *reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(p);
      c.v11.pNext = nullptr;
    }
    if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
      c.v12 = *reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(p);
      c.v12.pNext = nullptr;
    }
  }
  return c.features();
}

}  // namespace detail
}  // namespace vqm::vulkan
