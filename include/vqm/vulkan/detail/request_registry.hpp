// The requests (option sets) a program family has seen in this process, so that a program key — an
// integer — names one: the cache keys programs by (make, index), the program reads its request back.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace vqm::vulkan::detail {

// Same(a, b): whether two requests make the same program.
template <class Request, auto Same>
class request_registry {
 public:
  static std::uint32_t index(const Request& q) {
    auto& r = get();
    const std::lock_guard lock(r.m);
    for (std::size_t i = 0; i < r.seen.size(); ++i)
      if (Same(r.seen[i], q)) return static_cast<std::uint32_t>(i);
    r.seen.push_back(q);
    return static_cast<std::uint32_t>(r.seen.size() - 1);
  }
  static Request at(std::uint32_t i) {
    auto& r = get();
    const std::lock_guard lock(r.m);
    return r.seen.at(i);
  }

 private:
  struct state {
    std::mutex m;
    std::vector<Request> seen;
  };
  static state& get() {
    static state r;
    return r;
  }
};

}  // namespace vqm::vulkan::detail
