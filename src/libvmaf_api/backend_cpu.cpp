// The Cpu backend of vqm's libvmaf C API (n_threads frames in parallel).
#include <algorithm>
#include <string>

#include "api.hpp"
#include "vqm/cpu.hpp"

namespace vqm::capi {
namespace {

class cpu_backend final : public backend {
 public:
  explicit cpu_backend(unsigned threads) : threads_(std::max(1u, threads)), cpu_(threads_) {}
  [[nodiscard]] std::string description() const override {
    return "cpu backend (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
  }
  [[nodiscard]] std::unique_ptr<runner> start(const picture_format& f, session_config c) override {
    c.depth = threads_;  // frames in flight: one per thread (the numbers do not depend on it)
    return std::make_unique<session_runner<Cpu>>(cpu_, f, std::move(c));
  }

 private:
  unsigned threads_;
  Cpu cpu_;
};

}  // namespace

std::unique_ptr<backend> make_cpu_backend(unsigned threads) { return std::make_unique<cpu_backend>(threads); }

}  // namespace vqm::capi
