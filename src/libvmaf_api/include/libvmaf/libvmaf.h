/* vqm's libvmaf 3.2.0 C API (libvmaf/include/libvmaf/libvmaf.h), computed by vqm: a program built against
 * libvmaf (FFmpeg's libvmaf filter, bindings) runs on vqm's libvmaf.so.3 unchanged. The layouts, enum
 * values and return codes (0, or a negative errno) are libvmaf's. Environment: VQM_BACKEND=cpu|vulkan
 * (default cpu), VQM_DEVICE=N (the Vulkan device index, as `vqm --list-gpu` numbers them). */
#ifndef VQM_LIBVMAF_H
#define VQM_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/feature.h"
#include "libvmaf/model.h"
#include "libvmaf/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;   /* Cpu backend: frames scored in parallel (0: 1) */
    unsigned n_subsample; /* score frames whose index % n_subsample == 0 (0, 1: every frame) */
    uint64_t cpumask;     /* libvmaf's SIMD mask: vqm's numbers do not depend on it */
    uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);

int vmaf_use_features_from_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection);

/* Takes ownership of opts_dict on success (free it yourself only on failure). */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name, VmafFeatureDictionary *opts_dict);

int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name, double value, unsigned index);

/* A score as it is written: handed to a metadata callback. */
typedef struct VmafMetadata {
    char *feature_name;
    unsigned picture_index;
    double score;
} VmafMetadata;

typedef struct VmafMetadataConfiguration {
    char *feature_name; /* the series whose scores the callback receives */
    void (*callback)(void *data, VmafMetadata *metadata);
    void *data;
} VmafMetadataConfiguration;

/* vqm calls the callback once per scored frame of the series, in frame order, at the flush. */
int vmaf_register_metadata_handler(VmafContext *vmaf, VmafMetadataConfiguration cfg);

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg);

int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

/* Queues a pair (the context takes both pictures' references); ref = dist = NULL flushes. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist, unsigned index);

int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score, unsigned index);

int vmaf_score_at_index_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score, unsigned index);

int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name, double *score, unsigned index);

int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model, enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method, VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);

int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name, enum VmafPoolingMethod pool_method,
                              double *score, unsigned index_low, unsigned index_high);

int vmaf_close(VmafContext *vmaf);

int vmaf_write_output(VmafContext *vmaf, const char *output_path, enum VmafOutputFormat fmt);

const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VQM_LIBVMAF_H */
