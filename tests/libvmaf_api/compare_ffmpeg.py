#!/usr/bin/env python3
"""FFmpeg's libvmaf filter on libvmaf 3.2.0 and on vqm's libvmaf.so.3: the log files must be identical.

Runs `FFMPEG_DIR/ffmpeg -i DIS -i REF -lavfi libvmaf=OPTIONS:log_fmt=F:log_path=...` twice, once as it is
(the real libvmaf.so.3 beside it, found through its RUNPATH) and once with LD_LIBRARY_PATH=VQM_LIB_DIR
(vqm's), and compares the logs byte for byte, the version and fps fields masked. Exits 77 (ctest: skipped)
when FFMPEG_DIR has no ffmpeg.

  compare_ffmpeg.py FFMPEG_DIR VQM_LIB_DIR REF DIS 'OPTIONS' FORMAT [BACKEND]
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
MASKS = [  # (pattern, replacement): the fields that differ by design
    (re.compile(rb'<VMAF version="[^"]*">'), b'<VMAF version="*">'),
    (re.compile(rb'<fyi fps="[^"]*" />'), b'<fyi fps="*" />'),
    (re.compile(rb'"version": "[^"]*",'), b'"version": "*",'),
    (re.compile(rb'"fps": [^,]*,'), b'"fps": *,'),
]


def masked(data: bytes) -> bytes:
    for pattern, repl in MASKS:
        data = pattern.sub(repl, data, count=1)
    return data


def run(ffmpeg, ref, dis, options, fmt, log, env):
    filt = "libvmaf=" + (options + ":" if options else "") + f"log_fmt={fmt}:log_path={log}"
    cmd = [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "info", "-i", dis, "-i", ref, "-lavfi", filt, "-f", "null", "-"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    text = p.stdout.decode(errors="replace")
    if p.returncode != 0 or not os.path.exists(log):
        sys.exit(f"FAILED: {' '.join(cmd)} (exit {p.returncode}, LD_LIBRARY_PATH={env.get('LD_LIBRARY_PATH', '')}):\n{text}")
    return text


def main():
    if len(sys.argv) not in (7, 8):
        sys.exit(__doc__)
    ffdir, libdir, ref, dis, options, fmt = sys.argv[1:7]
    ffdir = os.environ.get("VQM_FFMPEG_LIBVMAF_DIR", ffdir)
    backend = sys.argv[7] if len(sys.argv) == 8 else "cpu"
    ffmpeg = os.path.join(ffdir, "ffmpeg")
    if not os.access(ffmpeg, os.X_OK):
        print(f"skipped: no FFmpeg at {ffmpeg} (set VQM_FFMPEG_LIBVMAF_DIR)")
        sys.exit(SKIP)
    if not os.path.exists(os.path.join(libdir, "libvmaf.so.3")):
        sys.exit(f"FAILED: no libvmaf.so.3 in {libdir}")
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    env.pop("VQM_BACKEND", None)
    with tempfile.TemporaryDirectory() as tmp:
        real_log, vqm_log = os.path.join(tmp, "real." + fmt), os.path.join(tmp, "vqm." + fmt)
        run(ffmpeg, ref, dis, options, fmt, real_log, env)
        env_vqm = dict(env, LD_LIBRARY_PATH=libdir, VQM_BACKEND=backend)
        out = run(ffmpeg, ref, dis, options, fmt, vqm_log, env_vqm)
        line = f"libvmaf INFO vqm "
        if line not in out or f"scoring on the {backend} backend" not in out:
            sys.exit(f"FAILED: FFmpeg did not load vqm's libvmaf.so.3 from {libdir} on {backend} (no '{line}...: "
                     f"scoring on the {backend} backend' line):\n{out}")
        with open(real_log, "rb") as f:
            real = f.read()
        with open(vqm_log, "rb") as f:
            mine = f.read()
    if masked(real) != masked(mine):
        diff = difflib.unified_diff(masked(real).decode(errors="replace").splitlines(),
                                    masked(mine).decode(errors="replace").splitlines(), "libvmaf", "vqm", lineterm="", n=1)
        sys.exit("FAILED: the logs differ:\n" + "\n".join(list(diff)[:60]))
    frames = masked(real).count(b"frameNum") + masked(real).count(b"}frame: ") + (masked(real).count(b"\n") - 1 if fmt == "csv" else 0)
    print(f"identical {fmt} logs ({len(real)} bytes, {frames} frame entries): libvmaf={options or '(defaults)'} on {backend}")


if __name__ == "__main__":
    main()
