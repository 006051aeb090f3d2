// vqm's libvmaf C API: the context (vmaf_init ... vmaf_close), feature registration, pictures in, scores
// and outputs out. Frames are scored by a vqm::session on the backend VQM_BACKEND names.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "api.hpp"
#include "vqm/output/series_order.hpp"
#include "vqm/output/writers.hpp"
#include "vqm/version.hpp"

namespace vqm::capi {

namespace {
std::atomic<int> log_level{VMAF_LOG_LEVEL_INFO};
const char* const level_names[] = {"NONE", "ERROR", "WARNING", "INFO", "DEBUG"};
}  // namespace

void set_log_level(VmafLogLevel level) noexcept { log_level = level; }

void log(VmafLogLevel level, const char* fmt, ...) {
  if (level == VMAF_LOG_LEVEL_NONE || level > log_level.load()) return;
  std::fprintf(stderr, "libvmaf %s ", level_names[level]);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
}

namespace {

[[nodiscard]] std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// VQM_BACKEND=cpu (default) | vulkan | auto (Vulkan when it starts, else the CPU with a warning).
[[nodiscard]] std::unique_ptr<backend> open_backend(const VmafConfiguration& cfg) {
  const std::string which = env("VQM_BACKEND"), device = env("VQM_DEVICE");
  if (which.empty() || which == "cpu") return make_cpu_backend(cfg.n_threads);
  if (which != "vulkan" && which != "auto")
    throw error(errc::invalid_argument, "VQM_BACKEND=" + which + " is unknown (cpu, vulkan or auto)");
  int index = -1;
  if (!device.empty()) {
    char* end = nullptr;
    const long n = std::strtol(device.c_str(), &end, 10);
    if (*end || n < 0 || n > 1024) throw error(errc::invalid_argument, "VQM_DEVICE=" + device + ": expected a device index (vqm --list-gpu)");
    index = static_cast<int>(n);
  }
  try {
    return make_vulkan_backend(index);
  } catch (const error& e) {
    if (which == "vulkan") throw;
    log(VMAF_LOG_LEVEL_WARNING, "vqm: Vulkan did not start (%s); VQM_BACKEND=auto uses the CPU\n", e.what());
    return make_cpu_backend(cfg.n_threads);
  }
}

[[nodiscard]] picture_format format_of(const VmafPicture& p) {
  picture_format f;
  f.width = p.w[0];
  f.height = p.h[0];
  f.bit_depth = static_cast<std::uint8_t>(p.bpc);
  switch (p.pix_fmt) {
    case VMAF_PIX_FMT_YUV420P: f.chroma = chroma_format::yuv420; break;
    case VMAF_PIX_FMT_YUV422P: f.chroma = chroma_format::yuv422; break;
    case VMAF_PIX_FMT_YUV444P: f.chroma = chroma_format::yuv444; break;
    case VMAF_PIX_FMT_YUV400P: f.chroma = chroma_format::yuv400; break;
    default: throw error(errc::invalid_argument, "picture of unknown pixel format " + std::to_string(p.pix_fmt));
  }
  return f;
}

[[nodiscard]] picture_view view_of(const VmafPicture& p) {
  picture_view v;
  v.format = format_of(p);
  for (int k = 0; k < v.format.planes(); ++k) {
    if (!p.data[k]) throw error(errc::invalid_argument, "picture plane " + std::to_string(k) + " has no data");
    v.planes[k] = {static_cast<const std::byte*>(p.data[k]), p.stride[k], p.w[k], p.h[k]};
  }
  return v;
}

void release(VmafContext& c, std::size_t keep) {
  while (c.held.size() > keep) {
    vmaf_picture_unref(&c.held.front().first);
    vmaf_picture_unref(&c.held.front().second);
    c.held.pop_front();
  }
}

session_config config_of(const VmafContext& c) {
  session_config s;
  for (const auto& m : c.models) s.models.push_back(*m->model);
  s.features = c.features;
  s.mode = compat::libvmaf;
  s.subsample = c.cfg.n_subsample ? c.cfg.n_subsample : 1;
  return s;
}

// The registered metadata callbacks, each with its series' scores in frame order.
void deliver_metadata(VmafContext& c) {
  for (auto& [name, cfg] : c.handlers) {
    if (!cfg.callback) continue;
    for (const auto index : c.table->frames) {
      double v = 0.0;
      try {
        v = at(c, name, static_cast<unsigned>(index));
      } catch (const error&) {
        continue;  // a series the context does not write
      }
      VmafMetadata m{name.data(), static_cast<unsigned>(index), v};
      cfg.callback(cfg.data, &m);
    }
  }
}

int read(VmafContext& c, VmafPicture* ref, VmafPicture* dist, unsigned index) {
  if (c.table) throw error(errc::invalid_argument, "pictures after the flush (vmaf_read_pictures(ctx, NULL, NULL, 0))");
  if (!ref) {  // flush
    c.end = std::chrono::steady_clock::now();
    if (!c.run) throw error(errc::invalid_argument, "flush before any picture was read");
    score_table t = c.run->finish();
    release(c, 0);
    c.table = std::move(t);
    deliver_metadata(c);
    return 0;
  }
  if (index != c.pushed)
    throw error(errc::invalid_argument, "picture index " + std::to_string(index) + " where " + std::to_string(c.pushed) +
                                            " was expected (vqm reads pictures in order: indices 0, 1, 2, ...)");
  const picture_view r = view_of(*ref), d = view_of(*dist);
  if (!c.run) {
    if (c.models.empty() && c.features.empty())
      throw error(errc::invalid_argument, "no features to compute (vmaf_use_features_from_model or vmaf_use_feature first)");
    c.run = c.backend->start(r.format, config_of(c));
    c.width = r.format.width;
    c.height = r.format.height;
    c.begin = std::chrono::steady_clock::now();
  }
  c.held.emplace_back(*ref, *dist);  // the context owns both now
  std::memset(ref, 0, sizeof *ref);
  std::memset(dist, 0, sizeof *dist);
  ++c.pushed;
  try {
    c.run->push(r, d);
  } catch (...) {
    c.run->drain();
    throw;
  }
  release(c, c.run->depth());
  return 0;
}

// What vmaf_write_output writes: the features' series in the table's order (output::threaded_first_series
// first: libvmaf's order depends on n_threads), then the models' series the caller has scored, in the order it first asked for them (libvmaf's
// collector order).
[[nodiscard]] output::report report_of(const VmafContext& c) {
  const auto& t = table_of(c);
  std::vector<std::string> model_series;
  for (const auto& m : c.models)
    for (const auto& n : m->model->output_names()) model_series.push_back(n);
  std::vector<std::size_t> cols;
  const auto first = output::threaded_first_series(c.features, c.cfg.n_threads);
  for (const auto& n : first)
    if (auto k = t.find(n); k && std::find(cols.begin(), cols.end(), *k) == cols.end()) cols.push_back(*k);
  for (std::size_t k = 0; k < t.names.size(); ++k)
    if (std::find(model_series.begin(), model_series.end(), t.names[k]) == model_series.end() &&
        std::find(cols.begin(), cols.end(), k) == cols.end())
      cols.push_back(k);
  for (const auto& n : c.scored)
    if (auto k = t.find(n)) cols.push_back(*k);
  // Imported series: before the features when imported before the first picture, else after them.
  constexpr std::size_t imported_col = std::size_t(-1) / 2;
  std::vector<std::size_t> early, late;
  for (std::size_t s = 0; s < c.imported.size(); ++s) (c.imported[s].early ? early : late).push_back(imported_col + s);
  const auto features_end = cols.end() - static_cast<std::ptrdiff_t>(std::count_if(
      cols.begin(), cols.end(), [&](std::size_t k) { return std::find(model_series.begin(), model_series.end(), t.names[k]) != model_series.end(); }));
  cols.insert(features_end, late.begin(), late.end());
  cols.insert(cols.begin(), early.begin(), early.end());
  output::report r;
  for (auto k : cols) r.names.push_back(k >= imported_col ? c.imported[k - imported_col].name : t.names[k]);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    frame_result f{t.frames[i], true, {}};
    for (auto k : cols)
      f.values.push_back(k >= imported_col ? at(c, c.imported[k - imported_col].name, static_cast<unsigned>(t.frames[i]))
                                           : t.rows[i][k]);
    r.frames.push_back(std::move(f));
  }
  r.aggregate = t.aggregate;
  r.frames_read = t.frames_pushed;
  return r;
}

}  // namespace
}  // namespace vqm::capi

using vqm::capi::guarded;

VQM_API const char* vmaf_version(void) { return "vqm " VQM_VERSION_STRING " (libvmaf 3.2.0 API)"; }

VQM_API int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
  if (!vmaf) return -EINVAL;
  vqm::capi::set_log_level(cfg.log_level);
  return guarded("vmaf_init", [&] {
    auto c = std::make_unique<VmafContext>();
    c->cfg = cfg;
    c->backend = vqm::capi::open_backend(cfg);
    vqm::capi::log(VMAF_LOG_LEVEL_INFO, "vqm %s: scoring on the %s (VQM_BACKEND=cpu|vulkan|auto picks it)\n",
                   VQM_VERSION_STRING, c->backend->description().c_str());
    *vmaf = c.release();
    return 0;
  });
}

VQM_API int vmaf_close(VmafContext* vmaf) {
  if (!vmaf) return -EINVAL;
  if (vmaf->run) {
    try {
      vmaf->run->drain();  // frames in flight read the pictures released below
    } catch (...) {
    }
  }
  vmaf->run.reset();
  vqm::capi::release(*vmaf, 0);
  vmaf->profile.report();
  delete vmaf;
  return 0;
}

namespace {
int use_model(VmafContext* vmaf, const std::shared_ptr<vqm_model_spec>& spec) {
  if (vmaf->run) throw vqm::error(vqm::errc::invalid_argument, "features registered after the first picture");
  // A model used twice (or a collection and its main model) scores once.
  for (const auto& m : vmaf->models)
    if (m == spec) return 0;
  vmaf->models.push_back(spec);
  return 0;
}
}  // namespace

VQM_API int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
  if (!vmaf || !model) return -EINVAL;
  return guarded("vmaf_use_features_from_model", [&] { return use_model(vmaf, model->spec); });
}

VQM_API int vmaf_use_features_from_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection) {
  if (!vmaf || !model_collection) return -EINVAL;
  return guarded("vmaf_use_features_from_model_collection", [&] { return use_model(vmaf, model_collection->spec); });
}

VQM_API int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict) {
  if (!vmaf || !feature_name) return -EINVAL;
  const int err = guarded("vmaf_use_feature", [&] {
    if (vmaf->run) throw vqm::error(vqm::errc::invalid_argument, "features registered after the first picture");
    vqm::feature_request r{feature_name, {}};
    std::string text;
    if (opts_dict)
      for (const auto& [k, v] : opts_dict->items) text += (text.empty() ? "" : ":") + k + "=" + v;
    if (!text.empty()) r.options = vqm::option_map::parse(text);
    (void)vqm::feature_suffix(r.name, r.options);  // an unknown feature or option fails here, not later
    vmaf->features.push_back(std::move(r));
    return 0;
  });
  if (!err) vmaf_feature_dictionary_free(&opts_dict);  // the context took it
  return err;
}

VQM_API int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value, unsigned index) {
  if (!vmaf || !feature_name) return -EINVAL;
  return guarded("vmaf_import_feature_score", [&] {
    if (vmaf->table && vmaf->table->find(feature_name))
      throw vqm::error(vqm::errc::invalid_argument, std::string("feature ") + feature_name + " is computed, not imported");
    auto* s = const_cast<VmafContext::imported_series*>(vqm::capi::imported(*vmaf, feature_name));
    if (!s) s = &vmaf->imported.emplace_back(VmafContext::imported_series{feature_name, {}, vmaf->pushed == 0});
    if (!s->values.emplace(index, value).second)  // as libvmaf: a score is written once
      throw vqm::error(vqm::errc::invalid_argument, std::string("feature \"") + feature_name + "\" cannot be overwritten at index " + std::to_string(index));
    return 0;
  });
}

VQM_API int vmaf_register_metadata_handler(VmafContext* vmaf, VmafMetadataConfiguration cfg) {
  if (!vmaf || !cfg.feature_name || !cfg.callback) return -EINVAL;
  return guarded("vmaf_register_metadata_handler", [&] {
    vmaf->handlers.emplace_back(cfg.feature_name, cfg);
    return 0;
  });
}

VQM_API int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
  if (!vmaf || !cfg.pic_params.w || !cfg.pic_params.h || !cfg.pic_cnt) return -EINVAL;
  VmafPicture probe;  // the parameters vmaf_picture_alloc accepts
  if (const int err = vmaf_picture_alloc(&probe, cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w, cfg.pic_params.h))
    return err;
  vmaf_picture_unref(&probe);
  vmaf->pool = cfg;
  return 0;
}

// The pool's pictures are allocated as they are fetched and freed with their last reference (vqm holds
// a picture only while frames in flight read it): the same contract, without a bound on pic_cnt.
VQM_API int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
  const auto& p = vmaf->pool->pic_params;
  return vmaf_picture_alloc(pic, p.pix_fmt, p.bpc, p.w, p.h);
}

VQM_API int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index) {
  if (!vmaf || !ref != !dist) return -EINVAL;
  return vmaf->profile.time_call(!ref, [&] { return guarded("vmaf_read_pictures", [&] { return vqm::capi::read(*vmaf, ref, dist, index); }); });
}

VQM_API int vmaf_write_output(VmafContext* vmaf, const char* output_path, enum VmafOutputFormat fmt) {
  if (!vmaf || !output_path) return -EINVAL;
  return guarded("vmaf_write_output", [&] {
    using vqm::output::output_format;
    output_format f{};
    switch (fmt) {
      case VMAF_OUTPUT_FORMAT_XML: f = output_format::xml; break;
      case VMAF_OUTPUT_FORMAT_JSON: f = output_format::json; break;
      case VMAF_OUTPUT_FORMAT_CSV: f = output_format::csv; break;
      case VMAF_OUTPUT_FORMAT_SUB: f = output_format::sub; break;
      default: throw vqm::error(vqm::errc::invalid_argument, "unknown output format " + std::to_string(fmt));
    }
    auto r = vqm::capi::report_of(*vmaf);
    r.width = vmaf->width;
    r.height = vmaf->height;
    const double secs = std::chrono::duration<double>(vmaf->end - vmaf->begin).count();
    r.fps = secs > 0 ? static_cast<double>(r.frames_read) / secs : 0.0;
    r.version = vmaf_version();
    const std::string text = vqm::output::write_report(f, r, vqm::output::number_format{});
    std::FILE* out = std::fopen(output_path, "w");
    if (!out) throw vqm::error(vqm::errc::io, std::string("could not open file: ") + output_path);
    const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (std::fclose(out) != 0 || !ok) throw vqm::error(vqm::errc::io, std::string("could not write ") + output_path);
    return 0;
  });
}
