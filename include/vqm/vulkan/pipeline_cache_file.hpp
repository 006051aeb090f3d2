// The on-disk VkPipelineCache: where it lives, how it is validated, and the atomic save.
//
// Location: ${XDG_CACHE_HOME:-$HOME/.cache}/vqm/vulkan-pipeline-cache-<deviceUUID>.bin.
// VQM_VULKAN_PIPELINE_CACHE=0 (or "off") disables it; any other non-empty value is a directory used
// instead of the default one (benchmarks point it at a fresh or a populated place).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "vqm/vulkan/loader.hpp"

namespace vqm::vulkan::pipeline_cache_file {

// The file for a device, or an empty path when the cache is disabled or no directory is known.
[[nodiscard]] inline std::filesystem::path path_for(const std::uint8_t (&device_uuid)[VK_UUID_SIZE]) {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* v = std::getenv("VQM_VULKAN_PIPELINE_CACHE"); v && *v) {
    const std::string s(v);
    if (s == "0" || s == "off" || s == "false") return {};
    dir = s;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "vqm";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "vqm";
  } else {
    return {};
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string name = "vulkan-pipeline-cache-";
  for (auto b : device_uuid) {
    name += hex[b >> 4];
    name += hex[b & 15];
  }
  return dir / (name + ".bin");
}

// The file's bytes when its header matches this device and driver; otherwise empty (a stale or foreign
// cache is ignored, then overwritten at save). Never throws.
[[nodiscard]] inline std::vector<char> load(const std::filesystem::path& file, const VkPhysicalDeviceProperties& p) {
  std::vector<char> data;
  if (file.empty()) return data;
  std::ifstream in(file, std::ios::binary);
  if (!in) return data;
  data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  // VkPipelineCacheHeaderVersionOne: length, version, vendorID, deviceID, pipelineCacheUUID.
  constexpr std::size_t header = 16 + VK_UUID_SIZE;
  std::uint32_t f[4];
  if (data.size() < header) return {};
  std::memcpy(f, data.data(), sizeof f);
  if (f[0] < header || f[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || f[2] != p.vendorID || f[3] != p.deviceID ||
      std::memcmp(data.data() + 16, p.pipelineCacheUUID, VK_UUID_SIZE) != 0)
    return {};
  return data;
}

// Writes to a temporary file beside the target, then renames: readers never see a torn file. Best
// effort: a read-only cache directory only costs start-up time, so failures are swallowed.
inline void save(const std::filesystem::path& file, const std::vector<char>& data) noexcept {
  if (file.empty() || data.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  auto tmp = file;
  tmp += ".tmp." + std::to_string(static_cast<long>(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace vqm::vulkan::pipeline_cache_file
