#!/usr/bin/env python3
"""The CLI's XML against files libvmaf's `vmaf` wrote, byte for byte.

usage: check_libvmaf_files.py VQM FIXTURE_DIR VMAF_CLI_DIR

VMAF_CLI_DIR (tests/data/vmaf-cli) holds XML files written by libvmaf 3.2.0's `vmaf` (its output writer
patched to print %.17g, i.e. `--precision max` here) for VMAF edge cases on the rocket_177x99 pair, and a
README whose table gives each file's libvmaf arguments. Each run is repeated with vqm (same arguments,
custom model paths resolved in VMAF_CLI_DIR, `--precision max --xml`), and the output must equal the
stored file byte for byte apart from the two run-dependent header fields (libvmaf's version string and
the measured fps), masked on both sides. Exits 1 on any difference.
"""
import os
import re
import shlex
import subprocess
import sys

PAIRS = {"default": ("rocket_177x99_420p8_ref.y4m", "rocket_177x99_420p8_x264crf35.y4m"),
         "identical": ("astronaut_576x324_420p8_ref.y4m", "astronaut_576x324_420p8_ref.y4m")}
IDENTICAL = {"e12", "e13"}  # run on an identical pair (README)


def mask(text):
    text = re.sub(r'<VMAF version="[^"]*">', '<VMAF version="VERSION">', text)
    return re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="FPS" />', text)


def runs(readme):
    for line in open(readme):
        m = re.match(r"\|\s*(e\w+)\s*\|\s*`([^`]*)`", line)
        if m:
            yield m.group(1), m.group(2)


def main():
    vqm, fixtures, clidir = sys.argv[1:]
    files = bad = 0
    for name, args in runs(os.path.join(clidir, "README.md")):
        want_path = os.path.join(clidir, name + ".xml")
        if not os.path.exists(want_path):
            continue
        ref, dis = PAIRS["identical" if name in IDENTICAL else "default"]
        extra = [re.sub(r"path=([^:]+)", lambda m: "path=" + os.path.join(clidir, m.group(1)), a)
                 for a in shlex.split(args)]
        cmd = [vqm, "-r", os.path.join(fixtures, ref), "-d", os.path.join(fixtures, dis), *extra,
               "--precision", "max", "--xml", "-o", "-", "-q"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        files += 1
        want, got = mask(open(want_path).read()), mask(p.stdout)
        if p.returncode != 0 or got != want:
            bad += 1
            print(f"DIFFERENT {name} ({args}) rc {p.returncode} {p.stderr.strip()}")
            wl, gl = want.splitlines(), got.splitlines()
            for i in range(max(len(wl), len(gl))):
                w = wl[i] if i < len(wl) else "<none>"
                g = gl[i] if i < len(gl) else "<none>"
                if w != g:
                    print(f"  line {i + 1}: libvmaf {w[:300]!r}\n  line {i + 1}: vqm     {g[:300]!r}")
                    break
    print(f"{files} libvmaf output files compared, {bad} different")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
