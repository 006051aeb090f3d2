// vqm::vulkan::context: one Vulkan device and compute queue shared by every vqm Vulkan component.
//
// Either creates its own instance + device (discrete GPU preferred) or borrows the caller's handles
// (borrowed_device), never destroying borrowed ones. Holds the function table (fn()), the device's
// properties and the features vqm enabled, and the persistent VkPipelineCache (pipeline_cache_file.hpp).
// Probing without a context: device_probe.hpp; features: device_features.hpp; validation: validation.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/executor.hpp"
#include "vqm/vulkan/device_features.hpp"
#include "vqm/vulkan/device_probe.hpp"
#include "vqm/vulkan/loader.hpp"
#include "vqm/vulkan/pipeline_cache_file.hpp"
#include "vqm/vulkan/raii.hpp"
#include "vqm/vulkan/validation.hpp"

namespace vqm::vulkan {

struct context_options {
  int device_index = -1;           // -1 = best: discrete preferred; otherwise list_devices()' index
  bool enable_validation = false;  // Khronos validation layer + a debug-utils messenger counting errors
  bool pipeline_cache = true;      // the on-disk VkPipelineCache (also off with VQM_VULKAN_PIPELINE_CACHE=0)
  // The caller's executor for the host copies of a frame's planes (it must outlive the context); null:
  // vqm's own thread pool. Either way at most VQM_VULKAN_COPY_THREADS (default min(4, cores)) threads.
  executor* pool = nullptr;
};

// Where a context's creation time went (milliseconds; zero for the steps a borrowed device skips).
struct init_timings {
  double instance = 0;  // loader + vkCreateInstance (the driver's instance set-up)
  double select = 0;    // enumerating and ranking physical devices
  double device = 0;    // vkCreateDevice + function table
  double cache = 0;     // properties, pipeline cache file + vkCreatePipelineCache
};

// The caller's Vulkan objects a context runs on: they must outlive it and are never destroyed by it. The
// device must be Vulkan 1.2 and `queue_family` must support compute.
struct borrowed_device {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  std::uint32_t queue_index = 0;
  // The caller's vkGetInstanceProcAddr; null: libvulkan.so.1's.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  // The feature chain given to vkCreateDevice; null: every feature the device supports is enabled.
  const VkPhysicalDeviceFeatures2* enabled_features = nullptr;
};

class context {
 public:
  // Creates an instance, picks a device (options.device_index, or the best one) and creates a device
  // with one compute queue.
  explicit context(const context_options& o = {}) : options_(o), owns_(true) {
    using clock = std::chrono::steady_clock;
    auto t = clock::now();
    auto lap = [&](double& into) {
      const auto now = clock::now();
      into = std::chrono::duration<double, std::milli>(now - t).count();
      t = now;
    };
    fn_.load_global(loader());
    try {
      create_instance();
      lap(timings_.instance);
      pick_device();
      lap(timings_.select);
      create_device();
      lap(timings_.device);
      finish_init();
      lap(timings_.cache);
    } catch (...) {
      destroy();  // the destructor does not run for a throwing constructor
      throw;
    }
  }

  // Borrows the caller's device (see borrowed_device).
  explicit context(const borrowed_device& b, const context_options& o = {}) : options_(o), owns_(false) {
    if (!b.instance || !b.physical_device || !b.device)
      throw error(errc::invalid_argument, "vqm::vulkan::context: null VkInstance/VkPhysicalDevice/VkDevice given");
    fn_.load_global(b.get_instance_proc_addr ? b.get_instance_proc_addr : loader());
    instance_ = b.instance;
    fn_.load_instance(instance_);
    physical_ = b.physical_device;
    if (auto why = detail::why_unusable(fn_, physical_); !why.empty())
      throw error(errc::backend_unavailable, "the given Vulkan device cannot run vqm: " + why);
    std::uint32_t n = 0;
    fn_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    fn_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, q.data());
    if (b.queue_family >= n || !(q[b.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT) ||
        b.queue_index >= q[b.queue_family].queueCount)
      throw error(errc::invalid_argument, "vqm::vulkan::context: queue family " + std::to_string(b.queue_family) +
                                              " index " + std::to_string(b.queue_index) +
                                              " is not a compute queue of the given device");
    family_ = b.queue_family;
    device_ = b.device;
    fn_.vkGetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
        fn_.vkGetInstanceProcAddr(instance_, "vkGetDeviceProcAddr"));
    fn_.load_device(device_);
    fn_.vkGetDeviceQueue(device_, family_, b.queue_index, &queue_);
    features_ = detail::borrowed_features(fn_, physical_, b.enabled_features);
    finish_init();
  }

  context(const context&) = delete;
  context& operator=(const context&) = delete;

  ~context() {
    if (device_) fn_.vkDeviceWaitIdle(device_);
    save_pipeline_cache();
    destroy();
  }

  [[nodiscard]] const dispatch& fn() const noexcept { return fn_; }
  [[nodiscard]] VkInstance instance() const noexcept { return instance_; }
  [[nodiscard]] VkPhysicalDevice physical_device() const noexcept { return physical_; }
  [[nodiscard]] VkDevice device() const noexcept { return device_; }
  [[nodiscard]] VkQueue queue() const noexcept { return queue_; }
  [[nodiscard]] std::uint32_t queue_family() const noexcept { return family_; }
  [[nodiscard]] const VkPhysicalDeviceProperties& properties() const noexcept { return props_; }
  [[nodiscard]] const VkPhysicalDeviceLimits& limits() const noexcept { return props_.limits; }
  [[nodiscard]] const VkPhysicalDeviceMemoryProperties& memory_properties() const noexcept { return mem_; }
  [[nodiscard]] std::string name() const { return props_.deviceName; }
  [[nodiscard]] const device_features& features() const noexcept { return features_; }
  [[nodiscard]] bool has_float64() const noexcept { return features_.float64; }
  [[nodiscard]] bool has_int64() const noexcept { return features_.int64; }
  [[nodiscard]] std::uint32_t subgroup_size() const noexcept { return subgroup_size_; }
  // True when device-local memory is also host-visible everywhere (CPU devices, integrated GPUs):
  // uploads can then skip the staging copy.
  [[nodiscard]] bool unified_memory() const noexcept { return unified_; }
  [[nodiscard]] VkPipelineCache pipeline_cache() const noexcept { return cache_.get(); }
  [[nodiscard]] const std::filesystem::path& pipeline_cache_path() const noexcept { return cache_path_; }
  [[nodiscard]] bool owns_device() const noexcept { return owns_; }
  [[nodiscard]] const context_options& options() const noexcept { return options_; }
  [[nodiscard]] const init_timings& timings() const noexcept { return timings_; }

  // Validation messages of severity error seen so far (only with enable_validation) and the first few.
  [[nodiscard]] std::uint32_t validation_errors() const noexcept { return validation_.errors(); }
  [[nodiscard]] std::vector<std::string> validation_messages() const { return validation_.messages(); }

  // A memory type index among `type_bits` with all `required` flags, preferring one that also has
  // `preferred`. Throws errc::device when none has `required`.
  [[nodiscard]] std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                                          VkMemoryPropertyFlags preferred = 0) const {
    for (VkMemoryPropertyFlags want : {required | preferred, required})
      for (std::uint32_t i = 0; i < mem_.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (mem_.memoryTypes[i].propertyFlags & want) == want) return i;
    throw error(errc::device, "Vulkan device " + name() + " has no memory type with the required properties");
  }

  // The queue is externally synchronised; every vqm submission goes through this lock.
  void submit(const VkSubmitInfo& info, VkFence fence) const {
    std::lock_guard lock(queue_mutex_);
    check(fn_.vkQueueSubmit(queue_, 1, &info, fence), "submitting work to the compute queue");
  }
  [[nodiscard]] std::mutex& queue_mutex() const noexcept { return queue_mutex_; }

  // Writes the pipeline cache now (it is also written at destruction).
  void save_pipeline_cache() const noexcept {
    if (!cache_ || cache_path_.empty()) return;
    std::size_t size = 0;
    if (fn_.vkGetPipelineCacheData(device_, cache_.get(), &size, nullptr) != VK_SUCCESS || size == 0) return;
    std::vector<char> data(size);
    if (fn_.vkGetPipelineCacheData(device_, cache_.get(), &size, data.data()) != VK_SUCCESS) return;
    data.resize(size);
    if (data == loaded_cache_) return;  // nothing new compiled
    pipeline_cache_file::save(cache_path_, data);
  }

 private:
  void destroy() noexcept {
    cache_.reset();
    if (!owns_) return;
    if (device_) fn_.vkDestroyDevice(device_, nullptr);
    validation_.detach(fn_, instance_);
    if (instance_) fn_.vkDestroyInstance(instance_, nullptr);
    device_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
  }

  void create_instance() {
    std::vector<const char*> layers, exts;
    if (options_.enable_validation) {
      validation_messenger::require(fn_);
      layers.push_back(validation_messenger::layer);
      exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "vqm";
    app.pEngineName = "vqm";
    app.apiVersion = VK_API_VERSION_1_2;
    auto mi = validation_.create_info();
    VkInstanceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pNext = options_.enable_validation ? &mi : nullptr;  // also catches instance creation errors
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = static_cast<std::uint32_t>(exts.size());
    ci.ppEnabledExtensionNames = exts.data();
    const VkResult r = fn_.vkCreateInstance(&ci, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
      throw error(errc::backend_unavailable,
                  "no Vulkan driver found (VK_ERROR_INCOMPATIBLE_DRIVER): install a driver (e.g. "
                  "mesa-vulkan-drivers)");
    detail::check_instance_result(r);
    check(r, "creating the Vulkan instance");
    fn_.load_instance(instance_);
    if (options_.enable_validation) validation_.attach(fn_, instance_);
  }

  void pick_device() {
    std::uint32_t n = 0;
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, nullptr), "enumerating Vulkan devices");
    std::vector<VkPhysicalDevice> devs(n);
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, devs.data()), "enumerating Vulkan devices");
    devs.resize(n);
    if (devs.empty())
      throw error(errc::backend_unavailable,
                  "no Vulkan device found: install a driver (e.g. mesa-vulkan-drivers)");
    const auto info = detail::describe_devices(fn_, devs);
    if (options_.device_index >= 0) {
      if (options_.device_index >= static_cast<int>(devs.size()))
        throw error(errc::invalid_argument, "Vulkan device index " + std::to_string(options_.device_index) +
                                                " does not exist: " + std::to_string(devs.size()) +
                                                " device(s) found, indices 0.." + std::to_string(devs.size() - 1) +
                                                " (list_devices() lists them)");
      const auto& d = info[static_cast<std::size_t>(options_.device_index)];
      if (!d.usable)
        throw error(errc::backend_unavailable,
                    "Vulkan device " + std::to_string(d.index) + " (" + d.name + ") cannot run vqm: " + d.why_not);
      physical_ = devs[static_cast<std::size_t>(options_.device_index)];
    } else {
      int best = -1, best_rank = -1;
      for (std::size_t i = 0; i < devs.size(); ++i) {
        if (!info[i].usable) continue;
        VkPhysicalDeviceProperties p{};
        fn_.vkGetPhysicalDeviceProperties(devs[i], &p);
        if (detail::device_rank(p.deviceType) > best_rank) best = static_cast<int>(i), best_rank = detail::device_rank(p.deviceType);
      }
      if (best < 0)
        throw error(errc::backend_unavailable,
                    "no usable Vulkan device: " + info.front().name + ": " + info.front().why_not);
      physical_ = devs[static_cast<std::size_t>(best)];
    }
    family_ = static_cast<std::uint32_t>(detail::compute_family(fn_, physical_));
  }

  void create_device() {
    detail::feature_chain en;
    detail::enable_supported(fn_, physical_, en);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{};
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = family_;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{};
    di.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    di.pNext = &en.base;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    check(fn_.vkCreateDevice(physical_, &di, nullptr, &device_), "creating the Vulkan device");
    fn_.load_device(device_);
    fn_.vkGetDeviceQueue(device_, family_, 0, &queue_);
    features_ = en.features();
  }

  void finish_init() {
    VkPhysicalDeviceSubgroupProperties sg{};
    sg.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceIDProperties id{};
    id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    id.pNext = &sg;
    VkPhysicalDeviceProperties2 p2{};
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p2.pNext = &id;
    fn_.vkGetPhysicalDeviceProperties2(physical_, &p2);
    props_ = p2.properties;
    subgroup_size_ = sg.subgroupSize;
    fn_.vkGetPhysicalDeviceMemoryProperties(physical_, &mem_);
    unified_ = true;
    for (std::uint32_t i = 0; i < mem_.memoryTypeCount; ++i) {
      const auto f = mem_.memoryTypes[i].propertyFlags;
      if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) unified_ = false;
    }
    // The pipeline cache: from disk when enabled and valid for this driver, else empty.
    if (options_.pipeline_cache) cache_path_ = pipeline_cache_file::path_for(id.deviceUUID);
    loaded_cache_ = pipeline_cache_file::load(cache_path_, props_);
    VkPipelineCacheCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    ci.initialDataSize = loaded_cache_.size();
    ci.pInitialData = loaded_cache_.empty() ? nullptr : loaded_cache_.data();
    VkPipelineCache c = VK_NULL_HANDLE;
    if (fn_.vkCreatePipelineCache(device_, &ci, nullptr, &c) != VK_SUCCESS) {
      loaded_cache_.clear();  // a driver that rejects the blob: start empty
      ci.initialDataSize = 0;
      ci.pInitialData = nullptr;
      check(fn_.vkCreatePipelineCache(device_, &ci, nullptr, &c), "creating the pipeline cache");
    }
    cache_ = handle<VkPipelineCache>(device_, c, fn_.vkDestroyPipelineCache);
  }

  context_options options_;
  init_timings timings_;
  bool owns_ = true;
  dispatch fn_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties mem_{};
  device_features features_{};
  std::uint32_t subgroup_size_ = 0;
  bool unified_ = false;
  std::filesystem::path cache_path_;
  std::vector<char> loaded_cache_;
  handle<VkPipelineCache> cache_;
  mutable std::mutex queue_mutex_;
  validation_messenger validation_;
};

}  // namespace vqm::vulkan
