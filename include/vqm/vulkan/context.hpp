// vqm::vulkan::context: one Vulkan device and compute queue shared by every vqm Vulkan component.
//
// Either creates its own instance + device (discrete GPU preferred) or borrows the caller's handles,
// never destroying borrowed ones. Holds the function table (fn()), the device's properties and the
// features vqm enabled, and the persistent VkPipelineCache (pipeline_cache_file.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/vulkan/loader.hpp"
#include "vqm/vulkan/pipeline_cache_file.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::vulkan {

struct context_options {
  int device_index = -1;           // -1 = best: discrete preferred; otherwise list_devices()' index
  bool enable_validation = false;  // Khronos validation layer + a debug-utils messenger counting errors
  bool pipeline_cache = true;      // the on-disk VkPipelineCache (also off with VQM_VULKAN_PIPELINE_CACHE=0)
};

// Where a context's creation time went (milliseconds; zero for the steps a borrowed device skips).
struct init_timings {
  double instance = 0;  // loader + vkCreateInstance (the driver's instance set-up)
  double select = 0;    // enumerating and ranking physical devices
  double device = 0;    // vkCreateDevice + function table
  double cache = 0;     // properties, pipeline cache file + vkCreatePipelineCache
};

struct device_info {
  int index = 0;
  std::string name;
  std::string type;  // "discrete", "integrated", "virtual", "cpu", "other"
  std::uint32_t api_version = 0;
  bool usable = false;
  std::string why_not;  // when !usable
};

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
                  "): fix the driver installation or use --backend cpu");
}

// A bare instance for enumeration (list_devices, available): no layers, no extensions.
class probe_instance {
 public:
  probe_instance() {
    fn_.load_global(loader());
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vqm";
    app.pEngineName = "vqm";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    const VkResult r = fn_.vkCreateInstance(&ci, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
      throw error(errc::backend_unavailable,
                  "no Vulkan driver found (the loader reports VK_ERROR_INCOMPATIBLE_DRIVER): install a driver "
                  "(e.g. mesa-vulkan-drivers) or use --backend cpu");
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

  // Borrows the caller's objects: they must outlive this context and are never destroyed by it. The
  // device must be Vulkan 1.2 and `queue_family` must support compute. `enabled` describes the device
  // features the caller enabled (pass the chain given to vkCreateDevice); null = assume every feature
  // the device supports is enabled. `gipa` = the caller's vkGetInstanceProcAddr (null: libvulkan.so.1).
  context(VkInstance instance, VkPhysicalDevice physical, VkDevice device, std::uint32_t queue_family,
          std::uint32_t queue_index = 0, PFN_vkGetInstanceProcAddr gipa = nullptr,
          const VkPhysicalDeviceFeatures2* enabled = nullptr, const context_options& o = {})
      : options_(o), owns_(false) {
    if (!instance || !physical || !device)
      throw error(errc::invalid_argument, "vqm::vulkan::context: null VkInstance/VkPhysicalDevice/VkDevice given");
    fn_.load_global(gipa ? gipa : loader());
    instance_ = instance;
    fn_.load_instance(instance_);
    physical_ = physical;
    if (auto why = detail::why_unusable(fn_, physical_); !why.empty())
      throw error(errc::backend_unavailable, "the given Vulkan device cannot run vqm: " + why);
    std::uint32_t n = 0;
    fn_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    fn_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, q.data());
    if (queue_family >= n || !(q[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT) ||
        queue_index >= q[queue_family].queueCount)
      throw error(errc::invalid_argument, "vqm::vulkan::context: queue family " + std::to_string(queue_family) +
                                              " index " + std::to_string(queue_index) +
                                              " is not a compute queue of the given device");
    family_ = queue_family;
    device_ = device;
    fn_.vkGetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
        fn_.vkGetInstanceProcAddr(instance_, "vkGetDeviceProcAddr"));
    fn_.load_device(device_);
    fn_.vkGetDeviceQueue(device_, family_, queue_index, &queue_);
    read_features(enabled);
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
  [[nodiscard]] std::uint32_t validation_errors() const noexcept { return validation_errors_.load(); }
  [[nodiscard]] std::vector<std::string> validation_messages() const {
    std::lock_guard lock(messages_mutex_);
    return messages_;
  }

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
    if (messenger_ && fn_.vkDestroyDebugUtilsMessengerEXT) fn_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) fn_.vkDestroyInstance(instance_, nullptr);
    device_ = VK_NULL_HANDLE;
    messenger_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
  }

  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<context*>(user);
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      self->validation_errors_.fetch_add(1);
      std::lock_guard lock(self->messages_mutex_);
      if (self->messages_.size() < 16) self->messages_.emplace_back(data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
  }

  VkDebugUtilsMessengerCreateInfoEXT messenger_info() {
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = &on_message;
    mi.pUserData = this;
    return mi;
  }

  void create_instance() {
    std::vector<const char*> layers, exts;
    const char* validation = "VK_LAYER_KHRONOS_validation";
    if (options_.enable_validation) {
      if (!detail::has_layer(fn_, validation))
        throw error(errc::backend_unavailable,
                    "Vulkan validation requested but VK_LAYER_KHRONOS_validation is not installed "
                    "(install vulkan-validationlayers)");
      if (!detail::has_instance_extension(fn_, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
          !detail::has_instance_extension(fn_, VK_EXT_DEBUG_UTILS_EXTENSION_NAME, validation))
        throw error(errc::backend_unavailable, "Vulkan validation requested but VK_EXT_debug_utils is missing");
      layers.push_back(validation);
      exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vqm";
    app.pEngineName = "vqm";
    app.apiVersion = VK_API_VERSION_1_2;
    auto mi = messenger_info();
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
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
                  "mesa-vulkan-drivers) or use --backend cpu");
    detail::check_instance_result(r);
    check(r, "creating the Vulkan instance");
    fn_.load_instance(instance_);
    if (options_.enable_validation) {
      if (!fn_.vkCreateDebugUtilsMessengerEXT)
        throw error(errc::backend_unavailable, "Vulkan validation requested but vkCreateDebugUtilsMessengerEXT is missing");
      check(fn_.vkCreateDebugUtilsMessengerEXT(instance_, &mi, nullptr, &messenger_), "creating the debug messenger");
    }
  }

  void pick_device() {
    std::uint32_t n = 0;
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, nullptr), "enumerating Vulkan devices");
    std::vector<VkPhysicalDevice> devs(n);
    check(fn_.vkEnumeratePhysicalDevices(instance_, &n, devs.data()), "enumerating Vulkan devices");
    devs.resize(n);
    if (devs.empty())
      throw error(errc::backend_unavailable,
                  "no Vulkan device found: install a driver (e.g. mesa-vulkan-drivers) or use --backend cpu");
    const auto info = detail::describe_devices(fn_, devs);
    if (options_.device_index >= 0) {
      if (options_.device_index >= static_cast<int>(devs.size()))
        throw error(errc::invalid_argument, "Vulkan device index " + std::to_string(options_.device_index) +
                                                " does not exist: " + std::to_string(devs.size()) +
                                                " device(s) found, indices 0.." + std::to_string(devs.size() - 1) +
                                                " (see --list-gpu)");
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
    VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features s11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &s12};
    VkPhysicalDeviceFeatures2 sup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &s11};
    fn_.vkGetPhysicalDeviceFeatures2(physical_, &sup);
    // Enable only what vqm's kernels may use, each when present.
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features e11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &e12};
    VkPhysicalDeviceFeatures2 en{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &e11};
    en.features.shaderFloat64 = sup.features.shaderFloat64;
    en.features.shaderInt64 = sup.features.shaderInt64;
    en.features.shaderInt16 = sup.features.shaderInt16;
    e11.storageBuffer16BitAccess = s11.storageBuffer16BitAccess;
    e12.storageBuffer8BitAccess = s12.storageBuffer8BitAccess;
    e12.shaderInt8 = s12.shaderInt8;
    e12.timelineSemaphore = s12.timelineSemaphore;
    e12.hostQueryReset = s12.hostQueryReset;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = family_;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &en};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    check(fn_.vkCreateDevice(physical_, &di, nullptr, &device_), "creating the Vulkan device");
    fn_.load_device(device_);
    fn_.vkGetDeviceQueue(device_, family_, 0, &queue_);
    set_features(en, e11, e12);
  }

  void read_features(const VkPhysicalDeviceFeatures2* enabled) {
    VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features s11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &s12};
    VkPhysicalDeviceFeatures2 sup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &s11};
    if (!enabled) {
      fn_.vkGetPhysicalDeviceFeatures2(physical_, &sup);
      set_features(sup, s11, s12);
      return;
    }
    // Walk the caller's chain for the structures we understand.
    sup.features = enabled->features;
    s11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    s12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    for (auto* p = static_cast<const VkBaseInStructure*>(enabled->pNext); p; p = p->pNext) {
      if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES)
        s11 = *reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(p);
      if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
        s12 = *reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(p);
    }
    set_features(sup, s11, s12);
  }

  void set_features(const VkPhysicalDeviceFeatures2& f, const VkPhysicalDeviceVulkan11Features& f11,
                    const VkPhysicalDeviceVulkan12Features& f12) {
    features_.float64 = f.features.shaderFloat64;
    features_.int64 = f.features.shaderInt64;
    features_.int16 = f.features.shaderInt16;
    features_.storage_buffer_16bit = f11.storageBuffer16BitAccess;
    features_.storage_buffer_8bit = f12.storageBuffer8BitAccess;
    features_.int8 = f12.shaderInt8;
    features_.timeline_semaphore = f12.timelineSemaphore;
    features_.host_query_reset = f12.hostQueryReset;
  }

  void finish_init() {
    VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &sg};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
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
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
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
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
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
  std::atomic<std::uint32_t> validation_errors_{0};
  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
};

}  // namespace vqm::vulkan
