// vqm's libvmaf C API: models and bootstrap collections, built-in (vmaf_model_load) or from a JSON file.
#include <cerrno>
#include <memory>
#include <string>

#include "api.hpp"

namespace {

using vqm::capi::guarded;

// cfg's name (NULL: "vmaf") and flags as vqm's load options.
vqm::vmaf::load_options options_of(const VmafModelConfig* cfg) {
  vqm::vmaf::load_options lo;
  if (cfg && cfg->name) lo.name = cfg->name;
  if (cfg) {
    lo.disable_clip = (cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP) != 0;
    lo.enable_transform = (cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) != 0;
  }
  return lo;
}

std::shared_ptr<vqm_model_spec> load(const VmafModelConfig* cfg, const char* version, const char* path) {
  auto spec = std::make_shared<vqm_model_spec>();
  if (version) spec->version = version;
  if (path) spec->path = path;
  spec->options = options_of(cfg);
  spec->load();
  return spec;
}

// Appends "FEATURE.KEY=VALUE" overloads and reloads (the model's features take them, SPEC-vmaf B.8).
void overload(vqm_model_spec& spec, const char* feature_name, const VmafFeatureDictionary* opts) {
  if (!feature_name || !opts) throw vqm::error(vqm::errc::invalid_argument, "no feature name or options");
  auto next = spec;
  for (const auto& [k, v] : opts->items) next.options.overloads.emplace_back(std::string(feature_name) + "." + k, v);
  next.load();
  spec = std::move(next);
}

}  // namespace

VQM_API int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
  if (!model || !cfg || !version) return -EINVAL;
  return guarded("vmaf_model_load", [&] {
    auto spec = load(cfg, version, nullptr);
    if (spec->model->is_collection())
      throw vqm::error(vqm::errc::invalid_argument, std::string(version) + " is a model collection (vmaf_model_collection_load loads it)");
    *model = new VmafModel{std::move(spec)};
    return 0;
  });
}

VQM_API int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path) {
  if (!model || !cfg || !path) return -EINVAL;
  return guarded("vmaf_model_load_from_path", [&] {
    auto spec = load(cfg, nullptr, path);
    if (spec->model->is_collection())
      throw vqm::error(vqm::errc::invalid_argument, std::string(path) + " is a model collection (vmaf_model_collection_load_from_path loads it)");
    *model = new VmafModel{std::move(spec)};
    return 0;
  });
}

VQM_API int vmaf_model_feature_overload(VmafModel* model, const char* feature_name, VmafFeatureDictionary* opts_dict) {
  if (!model) return -EINVAL;
  const int err = guarded("vmaf_model_feature_overload", [&] {
    overload(*model->spec, feature_name, opts_dict);
    return 0;
  });
  if (!err) vmaf_feature_dictionary_free(&opts_dict);  // the model took it
  return err;
}

VQM_API void vmaf_model_destroy(VmafModel* model) { delete model; }

namespace {
int load_collection(const char* what, VmafModel** model, VmafModelCollection** collection, VmafModelConfig* cfg,
                    const char* version, const char* path) {
  if (!model || !collection || !cfg || (!version && !path)) return -EINVAL;
  return guarded(what, [&] {
    auto spec = load(cfg, version, path);
    if (!spec->model->is_collection())
      throw vqm::error(vqm::errc::invalid_argument, std::string(version ? version : path) + " is not a model collection");
    auto m = std::make_unique<VmafModel>(VmafModel{spec});
    *collection = new VmafModelCollection{std::move(spec)};
    *model = m.release();
    return 0;
  });
}
}  // namespace

VQM_API int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection, VmafModelConfig* cfg,
                                       const char* version) {
  return load_collection("vmaf_model_collection_load", model, model_collection, cfg, version, nullptr);
}

VQM_API int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                                 VmafModelConfig* cfg, const char* path) {
  return load_collection("vmaf_model_collection_load_from_path", model, model_collection, cfg, nullptr, path);
}

VQM_API int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                                   const char* feature_name, VmafFeatureDictionary* opts_dict) {
  if (!model || !model_collection || !*model_collection) return -EINVAL;
  const int err = guarded("vmaf_model_collection_feature_overload", [&] {
    overload(*(*model_collection)->spec, feature_name, opts_dict);
    return 0;
  });
  if (!err) vmaf_feature_dictionary_free(&opts_dict);
  return err;
}

VQM_API void vmaf_model_collection_destroy(VmafModelCollection* model_collection) { delete model_collection; }
