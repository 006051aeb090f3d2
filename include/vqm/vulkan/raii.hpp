// handle<T>: a move-only owner of one Vulkan device-level object (buffer, memory, pipeline, fence, ...).
//
// It keeps the VkDevice and the destroy function it was created with, so it needs no context pointer and
// works for every object destroyed by `void vkDestroyX(VkDevice, T, const VkAllocationCallbacks*)`
// (vkFreeMemory has the same shape).
#pragma once

#include <utility>

#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan {

template <class T>
class handle {
 public:
  using destroy_fn = void(VKAPI_PTR*)(VkDevice, T, const VkAllocationCallbacks*);

  handle() = default;
  handle(VkDevice device, T h, destroy_fn destroy) noexcept : device_(device), h_(h), destroy_(destroy) {}
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;
  handle(handle&& o) noexcept
      : device_(o.device_), h_(std::exchange(o.h_, T(VK_NULL_HANDLE))), destroy_(o.destroy_) {}
  handle& operator=(handle&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      h_ = std::exchange(o.h_, T(VK_NULL_HANDLE));
      destroy_ = o.destroy_;
    }
    return *this;
  }
  ~handle() { reset(); }

  void reset() noexcept {
    if (h_ != T(VK_NULL_HANDLE) && destroy_) destroy_(device_, h_, nullptr);
    h_ = T(VK_NULL_HANDLE);
  }
  [[nodiscard]] T get() const noexcept { return h_; }
  operator T() const noexcept { return h_; }  // NOLINT: handles go straight into Vulkan calls
  explicit operator bool() const noexcept { return h_ != T(VK_NULL_HANDLE); }
  [[nodiscard]] T release() noexcept { return std::exchange(h_, T(VK_NULL_HANDLE)); }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T h_ = T(VK_NULL_HANDLE);
  destroy_fn destroy_ = nullptr;
};

}  // namespace vqm::vulkan
