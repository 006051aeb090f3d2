// vqm's libvmaf C API: pictures (libvmaf's layout: one 32-byte aligned block, rows padded to 32 samples'
// worth of bytes, chroma sizes luma >> subsampling) and feature-option dictionaries.
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "api.hpp"

// The reference count behind VmafPicture::ref: the picture's memory goes with the last reference.
struct VmafRef {
  std::atomic<long> count{1};
  void* memory = nullptr;
};

VQM_API int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h) {
  if (!pic || pix_fmt == VMAF_PIX_FMT_UNKNOWN || pix_fmt > VMAF_PIX_FMT_YUV400P || bpc < 8 || bpc > 16) return -EINVAL;
  std::memset(pic, 0, sizeof *pic);
  pic->pix_fmt = pix_fmt;
  pic->bpc = bpc;
  const unsigned ss_hor = pix_fmt != VMAF_PIX_FMT_YUV444P, ss_ver = pix_fmt == VMAF_PIX_FMT_YUV420P;
  const unsigned bytes = bpc > 8 ? 2 : 1;
  pic->w[0] = w;
  pic->h[0] = h;
  if (pix_fmt != VMAF_PIX_FMT_YUV400P) {
    pic->w[1] = pic->w[2] = w >> ss_hor;
    pic->h[1] = pic->h[2] = h >> ss_ver;
  }
  std::size_t size = 0, offset[3] = {};
  for (int p = 0; p < 3; ++p) {
    pic->stride[p] = static_cast<std::ptrdiff_t>(((pic->w[p] + 31u) & ~31u) * bytes);
    offset[p] = size;
    size += static_cast<std::size_t>(pic->stride[p]) * pic->h[p];
  }
  if (size == 0) return -EINVAL;
  auto* ref = new (std::nothrow) VmafRef;
  void* mem = std::aligned_alloc(32, (size + 31u) & ~std::size_t{31});
  if (!ref || !mem) {
    delete ref;
    std::free(mem);
    std::memset(pic, 0, sizeof *pic);
    return -ENOMEM;
  }
  std::memset(mem, 0, size);
  ref->memory = mem;
  pic->ref = ref;
  for (int p = 0; p < 3; ++p)
    if (pic->h[p]) pic->data[p] = static_cast<unsigned char*>(mem) + offset[p];
  return 0;
}

VQM_API int vmaf_picture_unref(VmafPicture* pic) {
  if (!pic || !pic->ref) return -EINVAL;
  if (pic->ref->count.fetch_sub(1) == 1) {
    std::free(pic->ref->memory);
    delete pic->ref;
  }
  std::memset(pic, 0, sizeof *pic);
  return 0;
}

VQM_API int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val) {
  if (!dict || !key || !val) return -EINVAL;
  return vqm::capi::guarded("vmaf_feature_dictionary_set", [&] {
    if (!*dict) *dict = new VmafFeatureDictionary;
    // A key set again takes the new value (the last one wins, as on libvmaf's command line).
    for (auto& [k, v] : (*dict)->items)
      if (k == key) {
        v = val;
        return 0;
      }
    (*dict)->items.emplace_back(key, val);
    return 0;
  });
}

VQM_API int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
  if (!dict) return -EINVAL;
  delete *dict;
  *dict = nullptr;
  return 0;
}
