#!/usr/bin/env python3
"""test_api (a C program of libvmaf's API) on vqm's libvmaf.so.3, and, where libvmaf 3.2.0's own is at
hand, on it too: both runs must pass their checks, print the same scores (17 digits) and write the same
output files (version and fps masked).

  compare_api.py TEST_API VQM_LIB_DIR LIBVMAF_DIR REF.y4m DIS.y4m

LIBVMAF_DIR holds libvmaf's libvmaf.so.3 (the FFmpeg folder's); without it only vqm's run is checked and
the comparison is reported skipped (exit 77) after that run passed.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_ffmpeg import SKIP, masked  # noqa: E402

FORMATS = ("xml", "json", "csv", "sub")


def run(test_api, libdir, ref, dis, prefix, extra_env=None):
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    env.pop("VQM_BACKEND", None)
    env.update(extra_env or {})
    p = subprocess.run([test_api, ref, dis, prefix], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAILED: test_api on {libdir} (exit {p.returncode}):\n{p.stderr.decode(errors='replace')}")
    files = {}
    for f in FORMATS:
        with open(f"{prefix}.{f}", "rb") as fh:
            files[f] = masked(fh.read())
    return p.stdout, files


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    test_api, vqm_dir, libvmaf_dir, ref, dis = sys.argv[1:]
    libvmaf_dir = os.environ.get("VQM_FFMPEG_LIBVMAF_DIR", libvmaf_dir)
    with tempfile.TemporaryDirectory() as tmp:
        mine, mine_files = run(test_api, vqm_dir, ref, dis, os.path.join(tmp, "vqm"))
        if not os.path.exists(os.path.join(libvmaf_dir, "libvmaf.so.3")):
            print(f"test_api passed on vqm; skipped the comparison: no libvmaf.so.3 in {libvmaf_dir}")
            sys.exit(SKIP)
        # libvmaf's own leaks are not ours to report (the program itself is checked in vqm's run).
        asan = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        real, real_files = run(test_api, libvmaf_dir, ref, dis, os.path.join(tmp, "real"), {"ASAN_OPTIONS": asan})
    if mine != real:
        a, b = real.decode().splitlines(), mine.decode().splitlines()
        diff = [f"line {i + 1}: libvmaf {x!r} vqm {y!r}" for i, (x, y) in enumerate(zip(a, b)) if x != y]
        sys.exit(f"FAILED: the scores differ ({len(a)} lines from libvmaf, {len(b)} from vqm):\n" + "\n".join(diff[:20]))
    for f in FORMATS:
        if mine_files[f] != real_files[f]:
            a, b = real_files[f].decode().splitlines(), mine_files[f].decode().splitlines()
            diff = [f"line {i + 1}:\n  libvmaf {x}\n  vqm     {y}" for i, (x, y) in enumerate(zip(a, b)) if x != y]
            sys.exit(f"FAILED: the {f} outputs differ ({len(a)} / {len(b)} lines):\n" + "\n".join(diff[:10]))
    print(f"identical: {len(mine.splitlines())} score lines and the xml, json, csv and sub outputs")


if __name__ == "__main__":
    main()
