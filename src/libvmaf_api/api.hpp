// vqm's libvmaf C API: the objects behind libvmaf's opaque handles, the backends a context scores on, and
// libvmaf's log lines. The C entry points are in picture.cpp, model.cpp and context.cpp.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "call_profile.hpp"
#include "libvmaf/libvmaf.h"
#include "vqm/error.hpp"
#include "vqm/session.hpp"
#include "vqm/vmaf/builtin_models.hpp"

// Only the C API leaves the library (-fvisibility=hidden elsewhere).
#define VQM_API extern "C" __attribute__((visibility("default")))

struct VmafFeatureDictionary {
  std::vector<std::pair<std::string, std::string>> items;
};

// A model as loaded: where from and with which options, so that a feature overload reloads it.
struct vqm_model_spec {
  std::string version, path;  // one of them
  vqm::vmaf::load_options options;
  std::optional<vqm::vmaf::model> model;
  void load() {
    model = path.empty() ? vqm::vmaf::builtin_model(version, options) : vqm::vmaf::model_from_file(path, options);
  }
};

struct VmafModel {
  std::shared_ptr<vqm_model_spec> spec;
};

struct VmafModelCollection {
  std::shared_ptr<vqm_model_spec> spec;  // shared with the VmafModel the load returned
};

namespace vqm::capi {

// libvmaf's vmaf_log: "libvmaf LEVEL message" on stderr when `level` is within the context's level.
void log(VmafLogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void set_log_level(VmafLogLevel level) noexcept;

// Runs `f`, turning exceptions into libvmaf's return codes and an error line (`what` says which call).
template <class F>
int guarded(const char* what, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: out of memory\n", what);
    return -ENOMEM;
  } catch (const std::exception& e) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: %s\n", what, e.what());
    return -EINVAL;
  } catch (...) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: an unexpected exception\n", what);
    return -EINVAL;
  }
}

// One scoring run on a backend: a vqm::session fed host pictures.
class runner {
 public:
  virtual ~runner() = default;
  // The views must stay valid until depth() later frames are pushed or finish() returns.
  virtual void push(const picture_view& ref, const picture_view& dis) = 0;
  [[nodiscard]] virtual std::size_t depth() const noexcept = 0;
  virtual void drain() = 0;
  [[nodiscard]] virtual score_table finish() = 0;
};

// A backend (the device opened once, in vmaf_init), starting runs.
class backend {
 public:
  virtual ~backend() = default;
  [[nodiscard]] virtual std::string description() const = 0;  // "cpu backend (2 threads)", "vulkan backend (NAME)"
  [[nodiscard]] virtual std::unique_ptr<runner> start(const picture_format& f, session_config c) = 0;
};

[[nodiscard]] std::unique_ptr<backend> make_cpu_backend(unsigned threads);
// Throws vqm::error when Vulkan is unavailable or the library was built without it.
[[nodiscard]] std::unique_ptr<backend> make_vulkan_backend(int device_index);

template <class B>
class session_runner final : public runner {
 public:
  session_runner(B& b, const picture_format& f, session_config c) : session_(b, f, std::move(c)) {}
  void push(const picture_view& ref, const picture_view& dis) override { session_.push(ref, dis); }
  [[nodiscard]] std::size_t depth() const noexcept override { return session_.depth(); }
  void drain() override { session_.drain(); }
  [[nodiscard]] score_table finish() override { return session_.finish(); }

 private:
  session<B> session_;
};

}  // namespace vqm::capi

struct VmafContext {
  VmafConfiguration cfg{};
  std::unique_ptr<vqm::capi::backend> backend;
  std::vector<std::shared_ptr<vqm_model_spec>> models;  // in vmaf_use_features_from_model* order
  std::vector<vqm::feature_request> features;           // vmaf_use_feature, in order
  std::unique_ptr<vqm::capi::runner> run;                // from the first picture on
  std::deque<std::pair<VmafPicture, VmafPicture>> held;  // pictures frames in flight read
  std::size_t pushed = 0;
  unsigned width = 0, height = 0;
  std::chrono::steady_clock::time_point begin, end;
  vqm::capi::call_profile profile;  // VQM_PROFILE=1
  std::optional<vqm::score_table> table;  // after the flush
  // The models' series in the order the caller first asked for their scores: libvmaf writes a model's
  // series into its outputs when it is scored, so vmaf_write_output lists them in this order after the
  // features' (and leaves out models never scored).
  std::vector<std::string> scored;
  // vmaf_import_feature_score: series by name, in the order first imported; `early` when imported before
  // the first picture (libvmaf then lists it before the computed features).
  struct imported_series {
    std::string name;
    std::map<unsigned, double> values;
    bool early = false;
  };
  std::vector<imported_series> imported;
  std::optional<VmafPictureConfiguration> pool;  // vmaf_preallocate_pictures
  std::vector<std::pair<std::string, VmafMetadataConfiguration>> handlers;  // vmaf_register_metadata_handler
};

namespace vqm::capi {
// The scores after the flush (scores.cpp): the table, or a series' value at a frame (computed or imported).
[[nodiscard]] const score_table& table_of(const VmafContext& c);
[[nodiscard]] double at(const VmafContext& c, std::string_view name, unsigned index);
[[nodiscard]] const VmafContext::imported_series* imported(const VmafContext& c, std::string_view name);  // or null
}  // namespace vqm::capi
