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

[[nodiscard]] double at(const VmafContext& c, std::string_view name, unsigned index);

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

// The series `name` (an output name, or libvmaf's internal name of one) or null.
[[nodiscard]] std::optional<std::size_t> column(const score_table& t, std::string_view name) {
  if (auto k = t.find(name)) return k;
  return t.find(vmaf::alias_of(name));
}

[[nodiscard]] const score_table& table_of(const VmafContext& c) {
  if (!c.table) throw error(errc::invalid_argument, "no scores before the flush (vmaf_read_pictures(ctx, NULL, NULL, 0))");
  return *c.table;
}

[[nodiscard]] const VmafContext::imported_series* imported(const VmafContext& c, std::string_view name) {
  for (const auto& s : c.imported)
    if (s.name == name) return &s;
  return nullptr;
}

[[nodiscard]] double at(const VmafContext& c, std::string_view name, unsigned index) {
  if (const auto* s = imported(c, name)) {
    const auto v = s->values.find(index);
    if (v == s->values.end()) throw error(errc::invalid_argument, "no imported score of " + std::string(name) + " at frame " + std::to_string(index));
    return v->second;
  }
  const auto& t = table_of(c);
  const auto k = column(t, name);
  if (!k) throw error(errc::invalid_argument, "no feature or model named '" + std::string(name) + "' was computed");
  const auto r = std::find(t.frames.begin(), t.frames.end(), index);
  if (r == t.frames.end()) throw error(errc::invalid_argument, "no score of frame " + std::to_string(index) + " (not read, or subsampled out)");
  return t.rows[static_cast<std::size_t>(r - t.frames.begin())][*k];
}

// libvmaf's pooling over the frames low..high that n_subsample keeps.
[[nodiscard]] double pooled(const VmafContext& c, std::string_view name, VmafPoolingMethod method, unsigned low, unsigned high) {
  if (low > high || method <= VMAF_POOL_METHOD_UNKNOWN || method >= VMAF_POOL_METHOD_NB)
    throw error(errc::invalid_argument, "bad pooling method or interval");
  const unsigned s = c.cfg.n_subsample;
  std::vector<double> v;
  for (unsigned i = low; i <= high; ++i) {
    if (s > 1 && i % s) continue;
    v.push_back(at(c, name, i));
    if (i == high) break;  // high may be UINT_MAX
  }
  const auto p = io::pool(v);
  switch (method) {
    case VMAF_POOL_METHOD_MIN: return p.min;
    case VMAF_POOL_METHOD_MAX: return p.max;
    case VMAF_POOL_METHOD_MEAN: return p.mean;
    default: return p.harmonic_mean;
  }
}

// Records that the caller asked for the scores of `names` (a model's series).
void note_scored(VmafContext& c, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (std::find(c.scored.begin(), c.scored.end(), n) == c.scored.end()) c.scored.push_back(n);
}

// With n_threads > 0 libvmaf 3.2.0's outputs list psnr's and float_motion's series first (in registration
// order, float_motion's motion3 with them), then the other features' in registration order: measured with
// FFmpeg's filter and libvmaf's API (psnr, float_motion, float_ssim, float_psnr, psnr_hvs, float_ms_ssim,
// ciede, float_moment, float_vif, the integer VMAF features; 1 to 4 threads, the same every run).
[[nodiscard]] std::vector<std::string> threaded_first_series(const VmafContext& c) {
  std::vector<std::string> out;
  if (c.cfg.n_threads == 0) return out;
  for (const auto& req : c.features) {
    if (req.name != "psnr" && req.name != "float_motion") continue;
    const auto suffix = feature_suffix(req.name, req.options);
    registry::all::for_each([&]<class E>() {
      if (E::algorithm::feature_name != req.name) return;
      for (const auto& o : E::algorithm::provided) out.push_back(printed_name(o, suffix));
    });
  }
  return out;
}

// What vmaf_write_output writes: the features' series in the table's order (threaded_first_series
// first), then the models' series the caller has scored, in the order it first asked for them (libvmaf's
// collector order).
[[nodiscard]] output::report report_of(const VmafContext& c) {
  const auto& t = table_of(c);
  std::vector<std::string> model_series;
  for (const auto& m : c.models)
    for (const auto& n : m->model->output_names()) model_series.push_back(n);
  std::vector<std::size_t> cols;
  const auto first = threaded_first_series(c);
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
  return guarded("vmaf_read_pictures", [&] { return vqm::capi::read(*vmaf, ref, dist, index); });
}

VQM_API int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index) {
  if (!vmaf || !model || !score) return -EINVAL;
  return guarded("vmaf_score_at_index", [&] {
    *score = vqm::capi::at(*vmaf, model->spec->model->name(), index);
    vqm::capi::note_scored(*vmaf, {model->spec->model->name()});
    return 0;
  });
}

VQM_API int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score, unsigned index) {
  if (!vmaf || !feature_name || !score) return -EINVAL;
  return guarded("vmaf_feature_score_at_index", [&] {
    *score = vqm::capi::at(*vmaf, feature_name, index);
    return 0;
  });
}

VQM_API int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, enum VmafPoolingMethod pool_method, double* score,
                              unsigned index_low, unsigned index_high) {
  if (!vmaf || !model || !score) return -EINVAL;
  return guarded("vmaf_score_pooled", [&] {
    *score = vqm::capi::pooled(*vmaf, model->spec->model->name(), pool_method, index_low, index_high);
    vqm::capi::note_scored(*vmaf, {model->spec->model->name()});
    return 0;
  });
}

VQM_API int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name, enum VmafPoolingMethod pool_method,
                                      double* score, unsigned index_low, unsigned index_high) {
  if (!vmaf || !feature_name || !score) return -EINVAL;
  return guarded("vmaf_feature_score_pooled", [&] {
    *score = vqm::capi::pooled(*vmaf, feature_name, pool_method, index_low, index_high);
    return 0;
  });
}

namespace {
// A collection's bagging score, stddev and 95 % interval, each from its own series (N_bagging, ...).
template <class Get>
void collection_score(VmafContext& c, const VmafModelCollection& mc, VmafModelCollectionScore* out, Get get) {
  const std::string n = mc.spec->model->name();
  VmafModelCollectionScore s{};
  s.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
  s.bootstrap.bagging_score = get(n + "_bagging");
  s.bootstrap.stddev = get(n + "_stddev");
  s.bootstrap.ci.p95.lo = get(n + "_ci_p95_lo");
  s.bootstrap.ci.p95.hi = get(n + "_ci_p95_hi");
  *out = s;
  const auto series = mc.spec->model->output_names();  // N, then the members, bagging, stddev, CI
  vqm::capi::note_scored(c, {series.begin() + 1, series.end()});
}
}  // namespace

VQM_API int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                                 VmafModelCollectionScore* score, unsigned index) {
  if (!vmaf || !model_collection || !score) return -EINVAL;
  return guarded("vmaf_score_at_index_model_collection", [&] {
    collection_score(*vmaf, *model_collection, score, [&](const std::string& n) { return vqm::capi::at(*vmaf, n, index); });
    return 0;
  });
}

VQM_API int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                               enum VmafPoolingMethod pool_method, VmafModelCollectionScore* score,
                                               unsigned index_low, unsigned index_high) {
  if (!vmaf || !model_collection || !score) return -EINVAL;
  return guarded("vmaf_score_pooled_model_collection", [&] {
    collection_score(*vmaf, *model_collection, score, [&](const std::string& n) {
      return vqm::capi::pooled(*vmaf, n, pool_method, index_low, index_high);
    });
    return 0;
  });
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
