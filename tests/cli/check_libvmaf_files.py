#!/usr/bin/env python3
"""The CLI's outputs against files libvmaf's `vmaf` wrote, byte for byte.

usage: check_libvmaf_files.py VQM FIXTURE_DIR DIR [--backend cpu|vulkan] [--shards] [--only STEM,...]

DIR holds files libvmaf 3.2.0's `vmaf` wrote and a README whose tables give each run's arguments:
* tests/data/vmaf-cli: XML for VMAF edge cases on the rocket_177x99 pair, its output writer patched to
  print %.17g (`--precision max` here); files `<run>.xml`.
* tests/data/vmaf-cli-default: stock libvmaf (%.6f, vqm's default precision) with `--threads 1`, for the
  pairs of the README's pair table; files `<distorted stem>.<run>.<xml|json|csv|sub>`.
Each file is written again by vqm with the same arguments (custom model paths resolved in DIR) and must
equal the stored file byte for byte apart from the two run-dependent header fields (libvmaf's version
string and the measured fps), masked on both sides. --shards (for a slow backend) scores each run once,
as one shard of the whole stream (--frame-range 0:N --shard-out), and writes every format from it with
`vqm merge` (the single run's bytes but the fps, docs/cli.md); --only keeps the pairs whose distorted stem
starts with one of the STEMs. Exits 1 on any difference.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

PAIRS = {"default": ("rocket_177x99_420p8_ref.y4m", "rocket_177x99_420p8_x264crf35.y4m"),
         "identical": ("astronaut_576x324_420p8_ref.y4m", "astronaut_576x324_420p8_ref.y4m")}
IDENTICAL = {"e12", "e13"}  # vmaf-cli: run on an identical pair (README)
FORMATS = ("xml", "json", "csv", "sub")


def mask(text):
    text = re.sub(r'<VMAF version="[^"]*">', '<VMAF version="VERSION">', text)
    text = re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="FPS" />', text)
    text = re.sub(r'"version": "[^"]*",', '"version": "VERSION",', text)
    return re.sub(r'"fps": [^,]*,', '"fps": FPS,', text)


def tables(readme):
    """(runs, pairs): runs as (name, arguments) from `| name | `args` ... |` rows ("(none ...)": none),
    pairs as (distorted stem, reference stem) from `| stem | stem_ref |` rows."""
    runs, pairs = [], []
    for line in open(readme):
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2:
            continue
        m = re.match(r"`([^`]*)`", cells[1])
        if m:
            runs.append((cells[0], m.group(1)))
        elif cells[1].startswith("(none"):
            runs.append((cells[0], ""))
        elif re.fullmatch(r"\w+_ref", cells[1]):
            pairs.append((cells[0], cells[1]))
    return runs, pairs


def jobs(clidir, fixtures, only):
    """(label, vqm's run arguments, output arguments, {format: stored file}) for every stored file."""
    runs, pairs = tables(os.path.join(clidir, "README.md"))
    out = []
    for name, args in runs:
        extra = [re.sub(r"path=([^:]+)", lambda m: "path=" + os.path.join(clidir, m.group(1)), a)
                 for a in shlex.split(args)]
        if not pairs:  # vmaf-cli
            if os.path.exists(os.path.join(clidir, name + ".xml")):
                ref, dis = PAIRS["identical" if name in IDENTICAL else "default"]
                io = ["-r", os.path.join(fixtures, ref), "-d", os.path.join(fixtures, dis)]
                out.append((f"{name} ({args})", io + extra, ["--precision", "max"],
                            {"xml": os.path.join(clidir, name + ".xml")}))
            continue
        for dis, ref in pairs:
            if only and not any(dis.startswith(o) for o in only):
                continue
            files = {f: os.path.join(clidir, f"{dis}.{name}.{f}") for f in FORMATS}
            files = {f: p for f, p in files.items() if os.path.exists(p)}
            io = ["-r", os.path.join(fixtures, ref + ".y4m"), "-d", os.path.join(fixtures, dis + ".y4m")]
            if files:
                out.append((f"{dis} {name} ({args})", io + extra + ["--threads", "1"], [], files))
    return out


def first_difference(want, got):
    wl, gl = want.splitlines(), got.splitlines()
    for i in range(max(len(wl), len(gl))):
        w = wl[i] if i < len(wl) else "<none>"
        g = gl[i] if i < len(gl) else "<none>"
        if w != g:
            return f"  line {i + 1}: libvmaf {w[:300]!r}\n  line {i + 1}: vqm     {g[:300]!r}"
    return ""


def main():
    vqm, fixtures, clidir, *rest = sys.argv[1:]
    backend = rest[rest.index("--backend") + 1] if "--backend" in rest else "cpu"
    shards = "--shards" in rest
    only = rest[rest.index("--only") + 1].split(",") if "--only" in rest else []
    files = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, args, out_args, want_files in jobs(clidir, fixtures, only):
            run = [vqm, *args, "--backend", backend, "-q"]
            shard = os.path.join(tmp, "whole.shard")
            if shards:  # the run once; every format from its shard
                p = subprocess.run(run + ["--frame-range", "0:1000000000", "--shard-out", shard],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    bad += len(want_files)
                    files += len(want_files)
                    print(f"FAILED {label} rc {p.returncode} {p.stderr.strip()}")
                    continue
            for fmt, want_path in want_files.items():
                cmd = ([vqm, "merge", shard] if shards else run) + out_args + ["--" + fmt, "-o", "-"]
                p = subprocess.run(cmd, capture_output=True, text=True)
                files += 1
                want, got = mask(open(want_path).read()), mask(p.stdout)
                if p.returncode != 0 or got != want:
                    bad += 1
                    print(f"DIFFERENT {label} --{fmt} rc {p.returncode} {p.stderr.strip()}")
                    print(first_difference(want, got))
    print(f"{files} libvmaf output files compared ({backend}{', through shards' if shards else ''}), {bad} different")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
