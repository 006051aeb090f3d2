// gpu_profiler: GPU timestamps between the stages of each frame (VQM_VULKAN_PROFILE=1, for benchmarks).
// Each mark waits for all earlier work (bottom of pipe), so profiling serialises frames: read the stage
// times from it, the throughput from an unprofiled run. The report goes to stderr when the backend dies.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/raii.hpp"

namespace vqm::vulkan::detail {

class gpu_profiler {
 public:
  static constexpr std::uint32_t per_slot = 32;

  [[nodiscard]] static bool wanted() noexcept {
    const char* v = std::getenv("VQM_VULKAN_PROFILE");
    return v && *v && *v != '0';
  }

  gpu_profiler(const context& ctx, std::size_t slots) : ctx_(ctx), labels_(slots) {
    VkQueryPoolCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = static_cast<std::uint32_t>(slots) * per_slot;
    VkQueryPool p = VK_NULL_HANDLE;
    check(ctx.fn().vkCreateQueryPool(ctx.device(), &ci, nullptr, &p), "creating a timestamp query pool");
    pool_ = handle<VkQueryPool>(ctx.device(), p, ctx.fn().vkDestroyQueryPool);
  }
  gpu_profiler(const gpu_profiler&) = delete;
  gpu_profiler& operator=(const gpu_profiler&) = delete;
  ~gpu_profiler() { std::fputs(report().c_str(), stderr); }

  void begin(VkCommandBuffer cb, std::size_t slot) {
    ctx_.fn().vkCmdResetQueryPool(cb, pool_.get(), static_cast<std::uint32_t>(slot) * per_slot, per_slot);
    labels_[slot].clear();
    mark(cb, slot, "begin");
  }
  void mark(VkCommandBuffer cb, std::size_t slot, const char* label) {
    auto& l = labels_[slot];
    if (l.size() >= per_slot) return;
    ctx_.fn().vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_.get(),
                                  static_cast<std::uint32_t>(slot * per_slot + l.size()));
    l.push_back(label);
  }
  // After the slot's fence: accumulates the time since the previous mark under each label.
  void collect(std::size_t slot) {
    auto& l = labels_[slot];
    if (l.size() < 2) return;
    std::vector<std::uint64_t> ts(l.size());
    if (ctx_.fn().vkGetQueryPoolResults(ctx_.device(), pool_.get(), static_cast<std::uint32_t>(slot * per_slot),
                                        static_cast<std::uint32_t>(l.size()), ts.size() * 8, ts.data(), 8,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
      return;
    const double ns = ctx_.limits().timestampPeriod;
    for (std::size_t i = 1; i < l.size(); ++i) {
      auto& a = acc_[l[i]];
      a.first += static_cast<double>(ts[i] - ts[i - 1]) * ns;
      ++a.second;
    }
    auto& f = acc_["frame"];
    f.first += static_cast<double>(ts.back() - ts.front()) * ns;
    ++f.second;
    l.clear();
  }
  // Host-side set-up time since t0 (ms), reported once per label.
  void host_time(const char* label, std::chrono::steady_clock::time_point t0) {
    host_[label] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  [[nodiscard]] std::string report() const {
    std::string s = "vqm gpu profile (mean us per frame):";
    for (const auto& [k, v] : acc_) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " %s=%.1f", k.c_str(), v.first / 1e3 / static_cast<double>(v.second));
      s += buf;
    }
    for (const auto& [k, v] : host_) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " %s=%.2f", k.c_str(), v);
      s += buf;
    }
    return s + "\n";
  }

 private:
  const context& ctx_;
  handle<VkQueryPool> pool_;
  std::vector<std::vector<std::string>> labels_;
  std::map<std::string, std::pair<double, std::uint64_t>> acc_;
  std::map<std::string, double> host_;
};

}  // namespace vqm::vulkan::detail
