/* vqm's libvmaf 3.2.0 C API: VMAF models and bootstrap collections (libvmaf/include/libvmaf/model.h). */
#ifndef VQM_LIBVMAF_MODEL_H
#define VQM_LIBVMAF_MODEL_H

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

typedef struct VmafModelConfig {
    const char *name; /* the output series name; NULL: "vmaf" */
    uint64_t flags;   /* enum VmafModelFlags, or-ed */
} VmafModelConfig;

/* A built-in model ("vmaf_v0.6.1", ...). 0, or -EINVAL. */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version);

/* A model file (libvmaf's JSON). 0, or -EINVAL. */
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg, const char *path);

/* Sets the options of one of the model's feature extractors (e.g. "motion", {motion_force_zero: true}). */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name, VmafFeatureDictionary *opts_dict);

void vmaf_model_destroy(VmafModel *model);

typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct { double lo, hi; } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/* A bootstrap collection (vmaf_b_v0.6.3): *model is its main model, *model_collection the collection. */
int vmaf_model_collection_load(VmafModel **model, VmafModelCollection **model_collection, VmafModelConfig *cfg,
                               const char *version);

int vmaf_model_collection_load_from_path(VmafModel **model, VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg, const char *path);

int vmaf_model_collection_feature_overload(VmafModel *model, VmafModelCollection **model_collection,
                                           const char *feature_name, VmafFeatureDictionary *opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* VQM_LIBVMAF_MODEL_H */
