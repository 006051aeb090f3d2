#!/usr/bin/env python3
"""The CLI's default-precision XML, JSON and CSV against libvmaf's writers, byte for byte.

usage: check_libvmaf_layout.py VQM FIXTURE_DIR REFERENCE_DIR PAIR [PAIR...]

For every model run of each PAIR in REFERENCE_DIR (libvmaf's values at 17 digits, its series order and
pooled values), the file libvmaf's `vmaf` writes at its default precision is rebuilt here with
libvmaf 3.2's output.c layout (printf "%.6f", "%.16f" for a non-zero fraction below 1e-6, null for
non-finite JSON values) and compared with what `vqm ... --model version=V [--json|--csv]` writes. Only
the two run-dependent header fields differ by design (libvmaf's version string and the measured fps)
and are masked on both sides. Exits 1 on any difference, printing the first differing line.
"""
import json
import math
import os
import re
import shlex
import subprocess
import sys


def num(v):
    if isinstance(v, str):
        v = float(v)
    frac = abs(v - math.trunc(v)) if math.isfinite(v) else 0.0
    if frac != 0.0 and frac < 1e-6:
        return "%.16f" % v
    return "%.6f" % v


def literal(v):
    if isinstance(v, str):
        v = float(v)
    if math.isnan(v):
        return "-nan" if math.copysign(1, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return num(v)


def jnum(v):
    if isinstance(v, str):
        v = float(v)
    return num(v) if math.isfinite(v) else "null"


def xml(run, w, h, nframes):
    names = list(run["metrics"].keys())
    out = ['<VMAF version="VERSION">', '  <params qualityWidth="%d" qualityHeight="%d" />' % (w, h),
           '  <fyi fps="FPS" />', "  <frames>"]
    for i in range(nframes):
        out.append('    <frame frameNum="%d" ' % i + "".join('%s="%s" ' % (n, literal(run["metrics"][n][i])) for n in names) + "/>")
    out += ["  </frames>", "  <pooled_metrics>"]
    for n in names:
        p = run["pooled"][n]
        out.append('    <metric name="%s" ' % n + "".join('%s="%s" ' % (k, literal(p[k])) for k in
                                                          ("min", "max", "mean", "harmonic_mean")) + "/>")
    out += ["  </pooled_metrics>", "  <aggregate_metrics />", "</VMAF>"]
    return "\n".join(out) + "\n"


def js(run, nframes):
    names = list(run["metrics"].keys())
    s = '{\n  "version": "VERSION",\n  "fps": FPS,\n  "frames": ['
    for i in range(nframes):
        s += ",\n" if i > 0 else "\n"
        s += '    {\n      "frameNum": %d,\n      "metrics": {\n' % i
        for k, n in enumerate(names):
            v = jnum(run["metrics"][n][i])
            sep = "," if k + 1 < len(names) else ""
            s += '        "%s": %s%s\n' % (n, v, sep) if v != "null" else '        "%s": null%s' % (n, sep)
        s += "      }\n    }"
    s += '\n  ],\n  "pooled_metrics": {'
    for k, n in enumerate(names):
        s += ",\n" if k > 0 else "\n"
        p = run["pooled"][n]
        s += '    "%s": {' % n + ",".join('\n      "%s": %s' % (m, jnum(p[m])) for m in
                                         ("min", "max", "mean", "harmonic_mean")) + "\n    }"
    s += '\n  },\n  "aggregate_metrics": {\n  }\n}\n'
    return s


def csv(run, nframes):
    names = list(run["metrics"].keys())
    s = "Frame," + "".join(n + "," for n in names) + "\n"
    for i in range(nframes):
        s += "%d," % i + "".join(literal(run["metrics"][n][i]) + "," for n in names) + "\n"
    return s


def mask(text):
    text = re.sub(r'<VMAF version="[^"]*">', '<VMAF version="VERSION">', text)
    text = re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="FPS" />', text)
    text = re.sub(r'"version": "[^"]*",', '"version": "VERSION",', text)
    text = re.sub(r'"fps": [^,]*,', '"fps": FPS,', text)
    return text


def main():
    vqm, fixtures, refdir, *pairs = sys.argv[1:]
    listing = {l.split()[0]: l.split()[1:] for l in open(os.path.join(fixtures, "pairs.txt")) if l.strip()}
    files = bad = 0
    for pair in pairs:
        data = json.load(open(os.path.join(refdir, pair + ".json")))
        ref, dis = listing[pair]
        w, h = data["reference"]["width"], data["reference"]["height"]
        for key, run in data["features"].items():
            if not key.startswith("model[") or run["status"] != "ok":
                continue
            nframes = len(next(iter(run["metrics"].values())))
            for flag, render in (("--xml", lambda r: xml(r, w, h, nframes)), ("--json", lambda r: js(r, nframes)),
                                 ("--csv", lambda r: csv(r, nframes))):
                cmd = [vqm, "-r", os.path.join(fixtures, ref), "-d", os.path.join(fixtures, dis),
                       *shlex.split(run["cli_args"]), flag, "-o", "-", "-q"]
                p = subprocess.run(cmd, capture_output=True, text=True)
                files += 1
                want, got = render(run), mask(p.stdout)
                if p.returncode != 0 or got != want:
                    bad += 1
                    wl, gl = want.splitlines(), got.splitlines()
                    first = next((i for i in range(max(len(wl), len(gl)))
                                  if i >= len(wl) or i >= len(gl) or wl[i] != gl[i]), None)
                    print(f"DIFFERENT {pair} {key} {flag} (rc {p.returncode}) {p.stderr.strip()}")
                    if first is not None:
                        print(f"  line {first + 1}: libvmaf {wl[first] if first < len(wl) else '<none>'!r}")
                        print(f"  line {first + 1}: vqm     {gl[first] if first < len(gl) else '<none>'!r}")
    print(f"{files} output files compared, {bad} different")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
