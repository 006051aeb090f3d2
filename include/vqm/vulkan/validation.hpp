// validation_messenger: the Khronos validation layer on an instance vqm creates, with a debug-utils
// messenger counting the errors it reports (context_options::enable_validation; the validation test).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/device_probe.hpp"
#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

class validation_messenger {
 public:
  static constexpr const char* layer = "VK_LAYER_KHRONOS_validation";

  validation_messenger() = default;
  validation_messenger(const validation_messenger&) = delete;
  validation_messenger& operator=(const validation_messenger&) = delete;

  // Throws backend_unavailable unless the layer and VK_EXT_debug_utils are installed.
  static void require(const dispatch& fn) {
    if (!detail::has_layer(fn, layer))
      throw error(errc::backend_unavailable,
                  "Vulkan validation requested but VK_LAYER_KHRONOS_validation is not installed "
                  "(install vulkan-validationlayers)");
    if (!detail::has_instance_extension(fn, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !detail::has_instance_extension(fn, VK_EXT_DEBUG_UTILS_EXTENSION_NAME, layer))
      throw error(errc::backend_unavailable, "Vulkan validation requested but VK_EXT_debug_utils is missing");
  }

  // Chained into VkInstanceCreateInfo too, so that instance creation errors are caught.
  [[nodiscard]] VkDebugUtilsMessengerCreateInfoEXT create_info() {
    VkDebugUtilsMessengerCreateInfoEXT mi{};
    mi.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = &on_message;
    mi.pUserData = this;
    return mi;
  }

  void attach(const dispatch& fn, VkInstance instance) {
    if (!fn.vkCreateDebugUtilsMessengerEXT)
      throw error(errc::backend_unavailable, "Vulkan validation requested but vkCreateDebugUtilsMessengerEXT is missing");
    const auto mi = create_info();
    check(fn.vkCreateDebugUtilsMessengerEXT(instance, &mi, nullptr, &messenger_), "creating the debug messenger");
  }
  void detach(const dispatch& fn, VkInstance instance) noexcept {
    if (messenger_ && fn.vkDestroyDebugUtilsMessengerEXT) fn.vkDestroyDebugUtilsMessengerEXT(instance, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }

  [[nodiscard]] std::uint32_t errors() const noexcept { return errors_.load(); }
  [[nodiscard]] std::vector<std::string> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<validation_messenger*>(user);
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      self->errors_.fetch_add(1);
      std::lock_guard lock(self->mutex_);
      if (self->messages_.size() < 16) self->messages_.emplace_back(data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
  }

  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::atomic<std::uint32_t> errors_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

}  // namespace vqm::vulkan
