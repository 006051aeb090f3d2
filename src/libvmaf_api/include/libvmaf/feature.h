/* vqm's libvmaf 3.2.0 C API: feature options (libvmaf/include/libvmaf/feature.h). */
#ifndef VQM_LIBVMAF_FEATURE_H
#define VQM_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Adds key=val (a NULL *dict starts a new dictionary). 0, or -EINVAL / -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key, const char *val);

/* Frees *dict and sets it to NULL. 0, or -EINVAL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* VQM_LIBVMAF_FEATURE_H */
