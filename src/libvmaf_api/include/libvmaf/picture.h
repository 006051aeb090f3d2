/* vqm's libvmaf 3.2.0 C API: pictures. Written from libvmaf's documented API (libvmaf/include/libvmaf/
 * picture.h); the layout, enum values and return codes are libvmaf's, so programs built against libvmaf
 * run on vqm's libvmaf.so.3 unchanged. */
#ifndef VQM_LIBVMAF_PICTURE_H
#define VQM_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef;

/* Planes Y, Cb, Cr: w/h per plane (chroma = luma >> subsampling), stride in bytes, samples uint8_t at
 * bpc 8 and uint16_t above. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* 0, or -EINVAL (no picture, unknown format, bpc outside 8..16) / -ENOMEM. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h);

/* Drops one reference; the memory goes when the last one does. 0, or -EINVAL. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* VQM_LIBVMAF_PICTURE_H */
