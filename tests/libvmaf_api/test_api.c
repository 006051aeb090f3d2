/* Calls libvmaf's C API as its documentation describes (vqm's libvmaf.so.3, or libvmaf's own: the same
 * binary runs on either through LD_LIBRARY_PATH): models, a bootstrap collection, a feature overload,
 * features with options, pictures, the flush, per-frame and pooled scores of models, collections and
 * features, the four output formats, and the error returns of misuse. Asserts what the API promises and
 * prints every score at 17 digits, so compare_api.py can require the same lines from both libraries.
 *
 *   test_api REF.y4m DIS.y4m OUT_PREFIX     (8-bit 4:2:0 Y4M) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf.h>

static int failures = 0;
#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                     \
        }                                                                   \
    } while (0)

typedef struct {
    FILE *f;
    unsigned w, h;
} Y4m;

static int y4m_open(Y4m *y, const char *path)
{
    char line[512];
    y->f = fopen(path, "rb");
    if (!y->f || !fgets(line, sizeof line, y->f) || strncmp(line, "YUV4MPEG2 ", 10)) return -1;
    const char *w = strstr(line, " W"), *h = strstr(line, " H"), *c = strstr(line, " C");
    if (!w || !h || (c && strncmp(c, " C420", 5))) return -1;
    y->w = (unsigned)atoi(w + 2);
    y->h = (unsigned)atoi(h + 2);
    return 0;
}

/* The next frame into a new picture (from the context's preallocated ones when `pool` is given): 1, or 0
 * at the end. */
static int y4m_read(Y4m *y, VmafPicture *pic, VmafContext *pool)
{
    char line[128];
    if (!fgets(line, sizeof line, y->f)) return 0;
    int err = pool ? vmaf_fetch_preallocated_picture(pool, pic)
                   : vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, 8, y->w, y->h);
    CHECK(err == 0);
    for (int p = 0; p < 3; p++) {
        const unsigned w = p ? (y->w + 1) / 2 : y->w, h = p ? (y->h + 1) / 2 : y->h;
        unsigned char *row = malloc(w);
        for (unsigned r = 0; r < h; r++) {
            CHECK(fread(row, 1, w, y->f) == w);
            if (r < pic->h[p]) memcpy((unsigned char *)pic->data[p] + r * pic->stride[p], row, pic->w[p]);
        }
        free(row);
    }
    return 1;
}

typedef struct {
    unsigned count;
    double values[64];
    unsigned index[64];
} Received;

static void on_score(void *data, VmafMetadata *m)
{
    Received *r = data;
    if (r->count < 64) {
        r->index[r->count] = m->picture_index;
        r->values[r->count] = m->score;
    }
    r->count++;
}

static void print_pooled(VmafContext *vmaf, VmafModel *model, const char *what, unsigned frames)
{
    for (int m = VMAF_POOL_METHOD_MIN; m < VMAF_POOL_METHOD_NB; m++) {
        double s = 0;
        int err = model ? vmaf_score_pooled(vmaf, model, m, &s, 0, frames - 1)
                        : vmaf_feature_score_pooled(vmaf, what, m, &s, 0, frames - 1);
        CHECK(err == 0);
        printf("pooled %s %d %.17g\n", what, m, s);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_api REF.y4m DIS.y4m OUT_PREFIX\n");
        return 2;
    }
    CHECK(vmaf_version() && *vmaf_version());

    /* Misuse: negative errno codes, nothing allocated. */
    /* One thread: libvmaf's output column order then follows the registration order (with threads it
     * follows which extractor finishes first). cpumask 63: libvmaf's scalar path. */
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 1, .n_subsample = 1, .cpumask = 63};
    CHECK(vmaf_init(NULL, cfg) == -EINVAL);
    VmafPicture bad;
    CHECK(vmaf_picture_alloc(&bad, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&bad, VMAF_PIX_FMT_YUV420P, 7, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == -EINVAL);
    VmafModel *none = NULL;
    VmafModelConfig none_cfg = {0};
    CHECK(vmaf_model_load(&none, &none_cfg, "no_such_model_version") < 0);
    CHECK(none == NULL);

    VmafContext *vmaf = NULL;
    CHECK(vmaf_init(&vmaf, cfg) == 0 && vmaf);

    VmafModelConfig cfg_default = {.name = NULL, .flags = VMAF_MODEL_FLAGS_DEFAULT};
    VmafModelConfig cfg_neg = {.name = "vmaf_neg", .flags = VMAF_MODEL_FLAG_DISABLE_CLIP};
    VmafModelConfig cfg_b = {.name = "vmaf_b", .flags = VMAF_MODEL_FLAGS_DEFAULT};
    VmafModel *model = NULL, *neg = NULL, *boot = NULL;
    VmafModelCollection *collection = NULL;
    CHECK(vmaf_model_load(&model, &cfg_default, "vmaf_v0.6.1") == 0 && model);
    CHECK(vmaf_model_load(&neg, &cfg_neg, "vmaf_v0.6.1neg") == 0 && neg);
    CHECK(vmaf_model_collection_load(&boot, &collection, &cfg_b, "vmaf_b_v0.6.3") == 0 && boot && collection);

    /* An overload the model already has (vmaf_v0.6.1neg's adm_enhn_gain_limit): the same features. */
    VmafFeatureDictionary *overload = NULL;
    CHECK(vmaf_feature_dictionary_set(&overload, "adm_enhn_gain_limit", "1.0") == 0 && overload);
    CHECK(vmaf_model_feature_overload(neg, "adm", overload) == 0);

    CHECK(vmaf_use_features_from_model(vmaf, model) == 0);
    CHECK(vmaf_use_features_from_model(vmaf, neg) == 0);
    CHECK(vmaf_use_features_from_model_collection(vmaf, collection) == 0);
    VmafFeatureDictionary *psnr_opts = NULL;
    CHECK(vmaf_feature_dictionary_set(&psnr_opts, "enable_apsnr", "true") == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", psnr_opts) == 0); /* the context owns psnr_opts now */
    CHECK(vmaf_use_feature(vmaf, "float_ssim", NULL) == 0);
    VmafFeatureDictionary *unused = NULL;
    CHECK(vmaf_feature_dictionary_set(&unused, "enable_chroma", "false") == 0);
    CHECK(vmaf_use_feature(vmaf, "no_such_feature", unused) < 0);
    CHECK(vmaf_feature_dictionary_free(&unused) == 0 && unused == NULL); /* ours again after a failure */

    Y4m ref, dis;
    if (y4m_open(&ref, argv[1]) || y4m_open(&dis, argv[2])) {
        fprintf(stderr, "cannot read %s or %s (8-bit 4:2:0 Y4M)\n", argv[1], argv[2]);
        return 2;
    }
    /* The distorted pictures come from the context's pool. */
    VmafPicture unused_pic;
    CHECK(vmaf_fetch_preallocated_picture(vmaf, &unused_pic) == -EINVAL); /* no pool yet */
    VmafPictureConfiguration pool_cfg = {.pic_params = {.w = dis.w, .h = dis.h, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P},
                                         .pic_cnt = 4};
    CHECK(vmaf_preallocate_pictures(vmaf, pool_cfg) == 0);

    unsigned frames = 0;
    for (;;) {
        VmafPicture r, d;
        const int have_r = y4m_read(&ref, &r, NULL), have_d = y4m_read(&dis, &d, vmaf);
        CHECK(have_r == have_d);
        if (!have_r || !have_d) break;
        /* A score computed elsewhere, imported beside the features. */
        CHECK(vmaf_import_feature_score(vmaf, "external_metric", 0.25 * frames + 1.0, frames) == 0);
        CHECK(vmaf_import_feature_score(vmaf, "external_metric", 2.0, frames) < 0); /* written once */
        CHECK(vmaf_read_pictures(vmaf, &r, &d, frames) == 0); /* the context unrefs them */
        frames++;
    }
    fclose(ref.f);
    fclose(dis.f);
    CHECK(frames > 1);
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0); /* flush */
    printf("frames %u\n", frames);

    const char *features[] = {"VMAF_integer_feature_adm2_score", "VMAF_integer_feature_vif_scale0_score",
                              "VMAF_integer_feature_motion2_score", "psnr_y", "psnr_cb", "psnr_cr", "float_ssim", "external_metric"};
    for (unsigned i = 0; i < frames; i++) {
        double s = 0;
        CHECK(vmaf_score_at_index(vmaf, model, &s, i) == 0);
        printf("vmaf %u %.17g\n", i, s);
        CHECK(vmaf_score_at_index(vmaf, neg, &s, i) == 0);
        printf("vmaf_neg %u %.17g\n", i, s);
        CHECK(vmaf_score_at_index(vmaf, boot, &s, i) == 0);
        printf("vmaf_b %u %.17g\n", i, s);
        VmafModelCollectionScore cs;
        memset(&cs, 0, sizeof cs);
        CHECK(vmaf_score_at_index_model_collection(vmaf, collection, &cs, i) == 0);
        CHECK(cs.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
        CHECK(cs.bootstrap.ci.p95.lo <= cs.bootstrap.bagging_score && cs.bootstrap.bagging_score <= cs.bootstrap.ci.p95.hi);
        printf("vmaf_b bootstrap %u %.17g %.17g %.17g %.17g\n", i, cs.bootstrap.bagging_score, cs.bootstrap.stddev,
               cs.bootstrap.ci.p95.lo, cs.bootstrap.ci.p95.hi);
        for (unsigned k = 0; k < sizeof features / sizeof *features; k++) {
            CHECK(vmaf_feature_score_at_index(vmaf, features[k], &s, i) == 0);
            printf("%s %u %.17g\n", features[k], i, s);
        }
    }
    double s = 0;
    CHECK(vmaf_score_at_index(vmaf, model, &s, frames + 5) < 0);     /* no such frame */
    CHECK(vmaf_feature_score_at_index(vmaf, "no_such_feature", &s, 0) < 0);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_UNKNOWN, &s, 0, frames - 1) < 0);
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 2, 1) < 0); /* low > high */

    print_pooled(vmaf, model, "vmaf", frames);
    print_pooled(vmaf, neg, "vmaf_neg", frames);
    print_pooled(vmaf, NULL, "psnr_y", frames);
    print_pooled(vmaf, NULL, "float_ssim", frames);
    print_pooled(vmaf, NULL, "external_metric", frames);
    double mean = 0;
    for (unsigned i = 0; i < frames; i++) {
        CHECK(vmaf_score_at_index(vmaf, model, &s, i) == 0);
        mean += s;
    }
    CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, frames - 1) == 0);
    CHECK(s == mean / frames); /* libvmaf's pooled mean: a serial sum over the frames, then one division */

    /* vqm only: libvmaf 3.2.0 fails this call once the per-frame collection scores were asked for (it
     * writes the collection's series again). The pooled mean of each series is the mean of its frames. */
    if (strncmp(vmaf_version(), "vqm", 3) == 0) {
        VmafModelCollectionScore pooled, frame;
        memset(&pooled, 0, sizeof pooled);
        CHECK(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &pooled, 0, frames - 1) == 0);
        double bagging = 0, hi = 0;
        for (unsigned i = 0; i < frames; i++) {
            CHECK(vmaf_score_at_index_model_collection(vmaf, collection, &frame, i) == 0);
            bagging += frame.bootstrap.bagging_score;
            hi += frame.bootstrap.ci.p95.hi;
        }
        CHECK(pooled.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
        CHECK(pooled.bootstrap.bagging_score == bagging / frames);
        CHECK(pooled.bootstrap.ci.p95.hi == hi / frames);
    }

    const char *ext[] = {"", "xml", "json", "csv", "sub"};
    for (int f = VMAF_OUTPUT_FORMAT_XML; f <= VMAF_OUTPUT_FORMAT_SUB; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%s", argv[3], ext[f]);
        CHECK(vmaf_write_output(vmaf, path, (enum VmafOutputFormat)f) == 0);
    }
    CHECK(vmaf_write_output(vmaf, "/nonexistent-folder/out.xml", VMAF_OUTPUT_FORMAT_XML) < 0);

    /* A second context with a metadata callback: every score of a feature handed over, frame by frame. */
    VmafContext *second = NULL;
    CHECK(vmaf_init(&second, cfg) == 0);
    CHECK(vmaf_use_features_from_model(second, model) == 0);
    static Received received;
    VmafMetadataConfiguration handler = {.feature_name = "VMAF_integer_feature_vif_scale1_score", .callback = on_score,
                                         .data = &received};
    CHECK(vmaf_register_metadata_handler(second, handler) == 0);
    Y4m ref2, dis2;
    CHECK(y4m_open(&ref2, argv[1]) == 0 && y4m_open(&dis2, argv[2]) == 0);
    for (unsigned i = 0;; i++) {
        VmafPicture r, d;
        if (!y4m_read(&ref2, &r, NULL)) break;
        CHECK(y4m_read(&dis2, &d, NULL));
        CHECK(vmaf_read_pictures(second, &r, &d, i) == 0);
    }
    fclose(ref2.f);
    fclose(dis2.f);
    CHECK(vmaf_read_pictures(second, NULL, NULL, 0) == 0);
    CHECK(received.count == frames);
    for (unsigned k = 0; k < received.count && k < 64; k++) {
        double v = 0;
        CHECK(vmaf_feature_score_at_index(second, handler.feature_name, &v, received.index[k]) == 0 && v == received.values[k]);
        printf("callback %u %.17g\n", received.index[k], received.values[k]);
    }
    CHECK(vmaf_close(second) == 0);

    vmaf_model_destroy(model);
    vmaf_model_destroy(neg);
    vmaf_model_collection_destroy(collection);
    vmaf_model_destroy(boot);
    CHECK(vmaf_close(vmaf) == 0);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
