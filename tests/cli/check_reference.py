#!/usr/bin/env python3
"""Runs the vqm CLI on every reference pair and compares every per-frame value with libvmaf's.

usage: check_reference.py VQM FIXTURE_DIR REFERENCE_DIR [--backend cpu|vulkan] [--only SUBSTRING]
                          [--runs PREFIX,PREFIX...]

Each run recorded in REFERENCE_DIR/<pair>.json (status "ok") is repeated with its libvmaf arguments
plus `--precision max --compat libvmaf --json` (feature runs with `--no_prediction`, as libvmaf's
references were made), and the doubles are compared exactly: per frame, pooled (when recorded) and the
order of the series; runs libvmaf rejected must fail. --runs keeps the runs whose key starts with one of
the prefixes (default: all). Prints the max |difference| per output name and exits 1 on any mismatch.
"""
import json
import math
import os
import shlex
import subprocess
import sys


def value(v):
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "inf"))


def same(a, b):
    if a is None or b is None:  # vqm's JSON writes null for non-finite values
        return (a is None and not math.isfinite(b)) or (b is None and not math.isfinite(a))
    if math.isnan(a) and math.isnan(b):
        return True
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def main():
    args = sys.argv[1:]
    backend = "cpu"
    only = ""
    if "--backend" in args:
        i = args.index("--backend")
        backend = args[i + 1]
        del args[i:i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1]
        del args[i:i + 2]
    prefixes = None
    if "--runs" in args:
        i = args.index("--runs")
        prefixes = args[i + 1].split(",")
        del args[i:i + 2]
    vqm, fixtures, refdir = args
    pairs = [l.split() for l in open(os.path.join(fixtures, "pairs.txt")) if l.strip()]
    worst = {}
    bad = runs = values = 0
    for name, ref, dis in pairs:
        if only not in name:
            continue
        path = os.path.join(refdir, name + ".json")
        if not os.path.exists(path):
            continue
        data = json.load(open(path))
        for key, run in data["features"].items():
            if "cli_args" not in run:
                continue
            if prefixes is not None and not any(key.startswith(p) for p in prefixes):
                continue
            extra = shlex.split(run["cli_args"])
            if not any(a.startswith("--model") for a in extra):
                extra.append("--no_prediction")
            cmd = [vqm, "-r", os.path.join(fixtures, ref), "-d", os.path.join(fixtures, dis), *extra,
                   "--backend", backend, "--precision", "max", "--compat", "libvmaf", "--json", "-o", "-", "-q"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            runs += 1
            if run["status"] != "ok":
                if p.returncode == 0:
                    print(f"MISMATCH {name} {key}: libvmaf failed ({run['status']}) but vqm succeeded")
                    bad += 1
                continue
            if p.returncode != 0:
                print(f"MISMATCH {name} {key}: vqm failed: {p.stderr.strip()}")
                bad += 1
                continue
            out = json.loads(p.stdout, parse_int=float)  # "-0" keeps its sign
            if "pooled" in run:
                want_order = list(run["metrics"].keys())
                got_order = list(out["frames"][0]["metrics"].keys()) if out["frames"] else []
                if got_order != want_order:
                    bad += 1
                    print(f"MISMATCH {name} {key}: series order {got_order} != libvmaf's {want_order}")
                for metric, stats in run["pooled"].items():
                    for stat, want in stats.items():
                        got = out["pooled_metrics"].get(metric, {}).get(stat, "missing")
                        values += 1
                        if got == "missing" or not same(got, value(want)):
                            bad += 1
                            print(f"MISMATCH {name} {key} pooled {metric} {stat}: libvmaf {want!r} vqm {got!r}")
            for metric, series in run["metrics"].items():
                for i, want in enumerate(series):
                    want = value(want)
                    got = out["frames"][i]["metrics"].get(metric, "missing")
                    values += 1
                    if got == "missing" or not same(got, want):
                        bad += 1
                        print(f"MISMATCH {name} {key} {metric} frame {i}: libvmaf {want!r} vqm {got!r}")
                    d = 0.0 if got in (None, "missing") or same(got, want) else abs(got - want)
                    worst[metric] = max(worst.get(metric, 0.0), d)
            for metric, want in run.get("aggregate", {}).items():
                got = out.get("aggregate_metrics", {}).get(metric, "missing")
                values += 1
                if got == "missing" or not same(got, value(want)):
                    bad += 1
                    print(f"MISMATCH {name} {key} aggregate {metric}: libvmaf {want!r} vqm {got!r}")
    for metric in sorted(worst):
        print(f"  max |d| {metric:<28} {worst[metric]:.3g}")
    print(f"{backend}: {runs} feature runs, {values} values, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
