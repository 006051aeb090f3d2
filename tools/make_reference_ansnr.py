#!/usr/bin/env python3
"""Regenerates tests/data/reference-ansnr/: libvmaf 3.2's float_ansnr values for the fixture pairs.

usage: make_reference_ansnr.py LIBVMAF_SO VMAF_CLI FIXTURE_DIR OUT_DIR [PAIR...]
  e.g. tools/make_reference_ansnr.py ../shared/tools/ffmpeg-libvmaf/libvmaf.so.3 \
           ../shared/tools/libvmaf/vmaf ../shared/fixtures tests/data/reference-ansnr

libvmaf's `vmaf` CLI (3.2.0) prints scores with %.6f and has no --precision option, so the 17-digit
values come from the same libvmaf 3.2.0 (commit f85a8536) through its C API, loaded with ctypes: one
context a pair, cpumask 63 (libvmaf's scalar path), one thread, `vmaf_use_feature("float_ansnr")`,
`vmaf_feature_score_at_index` per frame and `vmaf_feature_score_pooled` (min, max, mean,
harmonic_mean), each double written as Python's repr (shortest digits that round-trip exactly). Every value is then checked
against the stock CLI run on the same pair (`--feature float_ansnr --no_prediction --cpumask 63
--threads 1 --json`, raw planar input): the script stops if any %.6f print differs.
"""
import ctypes
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

FEATURE = "float_ansnr"
OUTPUTS = ["float_ansnr", "float_anpsnr"]
POOLS = [("min", 1), ("max", 2), ("mean", 3), ("harmonic_mean", 4)]  # enum VmafPoolingMethod
PIX_FMT = {"420": 1, "422": 2, "444": 3, "400": 4}  # enum VmafPixelFormat
SKIP = {"motorcycle_1920x1080_420p8_x264crf30"}  # its fixture is not bundled in tests/data/fixtures.tar.xz


class Picture(ctypes.Structure):  # libvmaf/picture.h, VmafPicture
    _fields_ = [("pix_fmt", ctypes.c_int), ("bpc", ctypes.c_uint), ("w", ctypes.c_uint * 3),
                ("h", ctypes.c_uint * 3), ("stride", ctypes.c_ssize_t * 3), ("data", ctypes.c_void_p * 3),
                ("ref", ctypes.c_void_p), ("priv", ctypes.c_void_p)]


class Config(ctypes.Structure):  # libvmaf/libvmaf.h, VmafConfiguration
    _fields_ = [("log_level", ctypes.c_int), ("n_threads", ctypes.c_uint), ("n_subsample", ctypes.c_uint),
                ("cpumask", ctypes.c_uint64), ("gpumask", ctypes.c_uint64)]


def read_y4m(path):
    """(header dict, list of frames as (planes bytes...)), planes as Y4M stores them."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"\n")
    tags = {t[:1].decode(): t[1:].decode() for t in data[:end].split()[1:]}
    w, h, cs = int(tags["W"]), int(tags["H"]), tags.get("C", "420jpeg")
    sub = "400" if cs.startswith("mono") else cs[:3]
    m = re.fullmatch(r"(?:mono|\d{3})(?:p(\d+))?.*", cs)
    bpc = int(m.group(1)) if m and m.group(1) else 8
    bps = 2 if bpc > 8 else 1
    cw = {"420": (w + 1) // 2, "422": (w + 1) // 2, "444": w, "400": 0}[sub]
    ch = {"420": (h + 1) // 2, "422": h, "444": h, "400": 0}[sub]
    sizes = [w * h * bps, cw * ch * bps, cw * ch * bps]
    frames, pos = [], end + 1
    while pos < len(data):
        pos = data.index(b"\n", pos) + 1  # FRAME line
        planes = []
        for s in sizes:
            planes.append(data[pos:pos + s])
            pos += s
        frames.append(planes)
    return {"width": w, "height": h, "y4m_colorspace": "C" + cs, "sub": sub, "bitdepth": bpc,
            "cw": cw, "ch": ch, "bps": bps}, frames


def fill(lib, pic, hdr, planes):
    fmt = PIX_FMT[hdr["sub"]]
    if lib.vmaf_picture_alloc(ctypes.byref(pic), fmt, hdr["bitdepth"], hdr["width"], hdr["height"]):
        raise RuntimeError("vmaf_picture_alloc failed")
    dims = [(hdr["width"], hdr["height"]), (hdr["cw"], hdr["ch"]), (hdr["cw"], hdr["ch"])]
    for p in range(3 if hdr["sub"] != "400" else 1):
        w, h = dims[p]
        # libvmaf's chroma planes are luma >> subsampling (floor): copy the rows and columns both have.
        rows, cols = min(h, pic.h[p]), min(w, pic.w[p]) * hdr["bps"]
        for y in range(rows):
            row = planes[p][y * w * hdr["bps"]:y * w * hdr["bps"] + cols]
            ctypes.memmove(pic.data[p] + y * pic.stride[p], row, cols)


def libvmaf_values(lib, hdr, ref, dis):
    ctx = ctypes.c_void_p()
    if lib.vmaf_init(ctypes.byref(ctx), Config(0, 1, 0, 63, 0)):
        raise RuntimeError("vmaf_init failed")
    if lib.vmaf_use_feature(ctx, FEATURE.encode(), None):
        raise RuntimeError("vmaf_use_feature failed")
    for i, (r, d) in enumerate(zip(ref, dis)):
        pr, pd = Picture(), Picture()
        fill(lib, pr, hdr, r)
        fill(lib, pd, hdr, d)
        if lib.vmaf_read_pictures(ctx, ctypes.byref(pr), ctypes.byref(pd), i):
            raise RuntimeError("vmaf_read_pictures failed")
    if lib.vmaf_read_pictures(ctx, None, None, 0):
        raise RuntimeError("flushing failed")
    n, score = len(ref), ctypes.c_double()
    metrics, pooled = {}, {}
    for name in OUTPUTS:
        metrics[name] = []
        for i in range(n):
            if lib.vmaf_feature_score_at_index(ctx, name.encode(), ctypes.byref(score), i):
                raise RuntimeError(f"no {name} at {i}")
            metrics[name].append(score.value)
        pooled[name] = {}
        for key, method in POOLS:
            if lib.vmaf_feature_score_pooled(ctx, name.encode(), method, ctypes.byref(score), 0, n - 1):
                raise RuntimeError(f"no pooled {name}")
            pooled[name][key] = score.value
    lib.vmaf_close(ctx)
    return metrics, pooled


def cli_values(cli, hdr, ref_frames, dis_frames, tmp):
    """The stock CLI on raw planar input (its Y4M reader fails on odd sizes). Its raw reader takes chroma
    planes of luma >> subsampling (floor), so odd sizes are cropped to that; gray goes as 4:2:0 with
    mid-grey chroma. float_ansnr reads luma only."""
    sub = "420" if hdr["sub"] == "400" else hdr["sub"]
    w, h, bps = hdr["width"], hdr["height"], hdr["bps"]
    cw, ch = (w if sub == "444" else w >> 1), (h >> 1 if sub == "420" else h)
    mid = (1 << (hdr["bitdepth"] - 1)).to_bytes(bps, "little")
    paths = []
    for tag, frames in (("ref", ref_frames), ("dis", dis_frames)):
        path = os.path.join(tmp, tag + ".yuv")
        with open(path, "wb") as f:
            for planes in frames:
                f.write(planes[0])
                for c in (1, 2):
                    if hdr["sub"] == "400":
                        f.write(mid * (cw * ch))
                    else:
                        f.write(b"".join(planes[c][y * hdr["cw"] * bps:(y * hdr["cw"] + cw) * bps] for y in range(ch)))
        paths.append(path)
    out = os.path.join(tmp, "out.json")
    subprocess.run([cli, "-r", paths[0], "-d", paths[1], "-w", str(hdr["width"]), "-h", str(hdr["height"]),
                    "-p", sub, "-b", str(hdr["bitdepth"]), "--feature", FEATURE, "--no_prediction",
                    "--cpumask", "63", "--threads", "1", "-q", "--json", "-o", out], check=True,
                   capture_output=True)
    with open(out) as f:
        return json.load(f)


def synthetic_cases():
    """Small pictures (3x3 up, where the 5x5 filter's mirrors overlap) at every depth, samples from a fixed
    LCG with the extremes mixed in, and the edge cases of the two scores: a flat reference at the offset
    (signal 0: float_ansnr is 10·log10(0) = -inf) and identical pictures (noise 0: the cap)."""
    state = [12345]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) % (1 << 31)
        return state[0] % n

    cases = []
    for bpc in (8, 10, 12, 16):
        top = (1 << bpc) - 1
        for w, h in ((3, 3), (3, 7), (7, 3), (4, 4), (5, 6), (6, 5), (9, 4)):
            ref = [[0, top][rnd(2)] if rnd(5) == 0 else rnd(top + 1) for _ in range(w * h)]
            dis = [min(top, max(0, v + rnd(41) - 20)) if rnd(7) else [0, top][rnd(2)] for v in ref]
            cases.append((w, h, bpc, ref, dis))
    mid = 128
    cases.append((4, 3, 8, [mid] * 12, [mid + (i % 3) for i in range(12)]))  # signal 0
    cases.append((3, 4, 8, [mid] * 12, [mid] * 12))  # signal and noise 0
    cases.append((5, 5, 10, [rnd(1024) for _ in range(25)], None))  # identical (dis = ref)
    return cases


def synthetic_values(lib, w, h, bpc, ref, dis):
    bps = 2 if bpc > 8 else 1
    hdr = {"width": w, "height": h, "sub": "420", "bitdepth": bpc, "cw": (w + 1) // 2, "ch": (h + 1) // 2,
           "bps": bps}
    grey = (1 << (bpc - 1)).to_bytes(bps, "little") * (hdr["cw"] * hdr["ch"])

    def planes(v):
        return [b"".join(x.to_bytes(bps, "little") for x in v), grey, grey]

    metrics, _ = libvmaf_values(lib, hdr, [planes(ref)], [planes(dis)])
    return {k: v[0] for k, v in metrics.items()}


def finite(v):
    return v if v == v and abs(v) != float("inf") else repr(v)  # JSON has no inf: "-inf" as the other references


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    so, cli, fixtures, out_dir = sys.argv[1:5]
    only = set(sys.argv[5:])
    lib = ctypes.CDLL(os.path.abspath(so))
    lib.vmaf_init.argtypes = [ctypes.POINTER(ctypes.c_void_p), Config]
    for f in ("vmaf_use_feature", "vmaf_read_pictures", "vmaf_feature_score_at_index", "vmaf_feature_score_pooled",
              "vmaf_close"):
        getattr(lib, f).argtypes = None
    lib.vmaf_use_feature.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    lib.vmaf_read_pictures.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]
    lib.vmaf_feature_score_at_index.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_double),
                                                ctypes.c_uint]
    lib.vmaf_feature_score_pooled.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                              ctypes.POINTER(ctypes.c_double), ctypes.c_uint, ctypes.c_uint]
    lib.vmaf_close.argtypes = [ctypes.c_void_p]
    lib.vmaf_version.restype = ctypes.c_char_p
    version = lib.vmaf_version().decode()
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(fixtures, "pairs.txt")) as f:
        pairs = [line.split() for line in f if line.strip()]
    checked = 0
    for pair, ref_file, dis_file in pairs:
        if pair in SKIP or (only and pair not in only):
            continue
        hdr, ref = read_y4m(os.path.join(fixtures, ref_file))
        hdr_d, dis = read_y4m(os.path.join(fixtures, dis_file))
        assert {k: hdr[k] for k in ("width", "height", "bitdepth", "sub")} == \
            {k: hdr_d[k] for k in ("width", "height", "bitdepth", "sub")}, pair
        metrics, pooled = libvmaf_values(lib, hdr, ref, dis)
        with tempfile.TemporaryDirectory() as tmp:
            printed = cli_values(cli, hdr, ref, dis, tmp)
        for name in OUTPUTS:
            for i, v in enumerate(metrics[name]):
                want = printed["frames"][i]["metrics"][name]
                if f"{v:.6f}" != f"{want:.6f}":
                    sys.exit(f"{pair} {name} frame {i}: C API {v!r}, CLI {want}")
                checked += 1
            for key, _ in POOLS:
                if f"{pooled[name][key]:.6f}" != f"{printed['pooled_metrics'][name][key]:.6f}":
                    sys.exit(f"{pair} pooled {name} {key}: C API {pooled[name][key]!r}, CLI differs")
                checked += 1

        def side(file, h, frames):
            return {"file": file, "sha256": sha256(os.path.join(fixtures, file)), "width": h["width"],
                    "height": h["height"], "y4m_colorspace": h["y4m_colorspace"], "bitdepth": h["bitdepth"],
                    "frames": len(frames)}

        doc = {
            "pair": pair,
            "reference": side(ref_file, hdr, ref),
            "distorted": side(dis_file, hdr_d, dis),
            "libvmaf": {"library": "libvmaf.so.3 (libvmaf 3.2.0 release build, float extractors enabled)",
                        "library_sha256": sha256(so), "version": version,
                        "precision": "exact: repr of the C API's doubles (vmaf_feature_score_at_index/_pooled)",
                        "scalar_path": "cpumask 63", "cli_check": "every value equals the stock CLI's %.6f print"},
            "threads": 1,
            "frames": len(ref),
            "features": {FEATURE: {"cli_args": "--feature " + FEATURE, "status": "ok", "metrics": metrics,
                                   "pooled": pooled}},
        }
        text = json.dumps(doc, indent=1)
        with open(os.path.join(out_dir, pair + ".json"), "w") as f:
            f.write(text + "\n")
        print(pair, len(ref), "frames")
    print(checked, "values equal the CLI's prints")
    if only:
        return
    # Small synthetic pictures (the fixtures start at 8x8): values through the C API only (the CLI prints
    # the same doubles; the pairs above check that).
    small = []
    for w, h, bpc, ref, dis in synthetic_cases():
        dis = ref if dis is None else dis
        v = synthetic_values(lib, w, h, bpc, ref, dis)
        small.append({"width": w, "height": h, "bitdepth": bpc, "ref": ref, "dis": dis,
                      "metrics": {k: finite(x) for k, x in v.items()}})
    os.makedirs(os.path.join(out_dir, "small"), exist_ok=True)
    with open(os.path.join(out_dir, "small", "synthetic.json"), "w") as f:
        f.write(json.dumps({"libvmaf": version, "library_sha256": sha256(so), "cases": small}) + "\n")
    print(len(small), "small synthetic pictures")


if __name__ == "__main__":
    main()
