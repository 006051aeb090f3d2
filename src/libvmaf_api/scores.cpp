// vqm's libvmaf C API: scores after the flush, per frame and pooled (libvmaf's min, max, mean and
// harmonic mean over the frames n_subsample keeps), for models, features, imported series and bootstrap
// collections.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api.hpp"
#include "vqm/io/pooling.hpp"

namespace vqm::capi {

namespace {

// The series `name` (an output name, or libvmaf's internal name of one) or null.
[[nodiscard]] std::optional<std::size_t> column(const score_table& t, std::string_view name) {
  if (auto k = t.find(name)) return k;
  return t.find(vmaf::alias_of(name));
}

}  // namespace

const VmafContext::imported_series* imported(const VmafContext& c, std::string_view name) {
  for (const auto& s : c.imported)
    if (s.name == name) return &s;
  return nullptr;
}

const score_table& table_of(const VmafContext& c) {
  if (!c.table) throw error(errc::invalid_argument, "no scores before the flush (vmaf_read_pictures(ctx, NULL, NULL, 0))");
  return *c.table;
}

double at(const VmafContext& c, std::string_view name, unsigned index) {
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

namespace {

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

}  // namespace
}  // namespace vqm::capi

using vqm::capi::guarded;

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

