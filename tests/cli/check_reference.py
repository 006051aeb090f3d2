#!/usr/bin/env python3
"""Runs the vqm CLI on every reference pair and compares every per-frame value with libvmaf's.

usage: check_reference.py VQM FIXTURE_DIR REFERENCE_DIR [--backend cpu|vulkan] [--only SUBSTRING]
                          [--runs PREFIX,PREFIX...] [--merge] [--set FEATURE.OPTION=VALUE]

Each run recorded in REFERENCE_DIR/<pair>.json (status "ok") is repeated with its libvmaf arguments
plus `--precision max --compat libvmaf --json` (feature runs with `--no_prediction`, as libvmaf's
references were made), and the doubles are compared exactly: per frame, pooled (when recorded) and the
order of the series; runs libvmaf rejected must fail. --runs keeps the runs whose key starts with one of
the prefixes (default: all). Runs whose libvmaf value depends on memory outside its picture
(outside_picture) must fail too. Prints the max |difference| per output name and exits 1 on any mismatch.

--merge: a pair's successful runs that are only `--model version=X` or `--feature F[=options]` go
through one invocation (each model given its own name=, libvmaf's way of running several models), so
the features are computed once, not once a run; every recorded value is still compared, under the
model's name. The series order of a run is not checked then (a merged run has one order for all); the
unmerged sweep checks it. For backends where computing is slow (lavapipe in CI).

--set FEATURE.OPTION=VALUE: adds a vqm option that libvmaf has no counterpart of to every `--feature
FEATURE...` and every model that reads FEATURE (as the model overload FEATURE.OPTION=VALUE), e.g.
float_adm.adm_rcp=amd: libvmaf's float_adm divides with the RCPSS of the x86 CPU that ran it, and the
references name no CPU, so the sweep names the table (options without an alias do not rename outputs).
"""
import json
import math
import os
import shlex
import subprocess
import sys


# Runs libvmaf finished although its filters read outside its buffers (undefined values): vqm refuses them.
OUT_OF_BOUNDS = {
    ("cellauto_8x8_420p8_noise20", "float_vif"),  # 8x8: the 17-tap filter mirrors to rows -1 and 8
}


def value(v):
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "inf"))


def same(a, b):
    if a is None or b is None:  # vqm's JSON writes null for non-finite values
        return (a is None and not math.isfinite(b)) or (b is None and not math.isfinite(a))
    if math.isnan(a) and math.isnan(b):
        return True
    return a == b and math.copysign(1, a) == math.copysign(1, b)


class Check:
    def __init__(self, vqm, backend, setting=None):
        self.vqm, self.backend, self.setting = vqm, backend, setting
        self.worst = {}
        self.bad = self.runs = self.values = 0

    def mismatch(self, text):
        self.bad += 1
        print("MISMATCH " + text)

    def with_setting(self, extra):
        """extra with the --set option added to FEATURE's --feature and to every --model (as an overload:
        a model that does not read FEATURE ignores it)."""
        if not self.setting:
            return extra
        feature, option = self.setting.split(".", 1)
        out = list(extra)
        for i in range(1, len(out)):
            if out[i - 1] == "--feature" and out[i].split("=", 1)[0] == feature:
                out[i] += (":" if "=" in out[i] else "=") + option
            elif out[i - 1] == "--model":
                out[i] += ":" + self.setting
        return out

    def vqm_run(self, ref, dis, extra):
        extra = self.with_setting(extra)
        cmd = [self.vqm, "-r", ref, "-d", dis, *extra, "--backend", self.backend, "--precision", "max",
               "--compat", "libvmaf", "--json", "-o", "-", "-q"]
        return subprocess.run(cmd, capture_output=True, text=True)

    def compare(self, what, run, out, rename=lambda m: m, check_order=True):
        """Compares one recorded run with vqm's JSON output; rename maps libvmaf's series name to vqm's."""
        if "pooled" in run:
            if check_order:
                want_order = list(run["metrics"].keys())
                got_order = list(out["frames"][0]["metrics"].keys()) if out["frames"] else []
                if got_order != want_order:
                    self.mismatch(f"{what}: series order {got_order} != libvmaf's {want_order}")
            for metric, stats in run["pooled"].items():
                for stat, want in stats.items():
                    got = out["pooled_metrics"].get(rename(metric), {}).get(stat, "missing")
                    self.values += 1
                    if got == "missing" or not same(got, value(want)):
                        self.mismatch(f"{what} pooled {metric} {stat}: libvmaf {want!r} vqm {got!r}")
        for metric, series in run["metrics"].items():
            for i, want in enumerate(series):
                want = value(want)
                got = out["frames"][i]["metrics"].get(rename(metric), "missing")
                self.values += 1
                if got == "missing" or not same(got, want):
                    self.mismatch(f"{what} {metric} frame {i}: libvmaf {want!r} vqm {got!r}")
                d = 0.0 if got in (None, "missing") or same(got, want) else abs(got - want)
                self.worst[metric] = max(self.worst.get(metric, 0.0), d)
        for metric, want in run.get("aggregate", {}).items():
            got = out.get("aggregate_metrics", {}).get(rename(metric), "missing")
            self.values += 1
            if got == "missing" or not same(got, value(want)):
                self.mismatch(f"{what} aggregate {metric}: libvmaf {want!r} vqm {got!r}")

    def one(self, name, key, run, ref, dis):
        extra = shlex.split(run["cli_args"])
        if not any(a.startswith("--model") for a in extra):
            extra.append("--no_prediction")
        p = self.vqm_run(ref, dis, extra)
        self.runs += 1
        if run["status"] != "ok":
            if p.returncode == 0:
                self.mismatch(f"{name} {key}: libvmaf failed ({run['status']}) but vqm succeeded")
        elif p.returncode != 0:
            self.mismatch(f"{name} {key}: vqm failed: {p.stderr.strip()}")
        else:
            self.compare(f"{name} {key}", run, json.loads(p.stdout, parse_int=float))  # "-0" keeps its sign

    def merged(self, name, runs, ref, dis):
        """runs: (key, run, model version or None, args); one invocation for all of them."""
        extra, model_name = [], {}
        for key, run, version, args in runs:
            if version is None:
                extra += args
            else:
                model_name[key] = f"m{len(model_name)}"
                extra += ["--model", f"version={version}:name={model_name[key]}"]
        if not model_name:
            extra.append("--no_prediction")
        p = self.vqm_run(ref, dis, extra)
        self.runs += 1
        if p.returncode != 0:
            self.mismatch(f"{name} merged {[k for k, *_ in runs]}: vqm failed: {p.stderr.strip()}")
            return
        out = json.loads(p.stdout, parse_int=float)
        for key, run, version, _ in runs:
            m = model_name.get(key)
            rename = (lambda s, m=m: m + s[4:] if m and (s == "vmaf" or s.startswith("vmaf_")) else s)
            self.compare(f"{name} {key}", run, out, rename, check_order=False)


def outside_picture(name, key, pair):
    """Runs whose libvmaf value depends on memory past the end of libvmaf's picture, which vqm refuses
    with --compat libvmaf: ciede on odd-height 4:2:0 (gray was fed as 4:2:0) reads a chroma row past Cr
    (vqm's ciede_reads_past_picture in include/vqm/metrics/ciede.hpp); float_adm (alone or in the float
    models) below 17x17, where its last scales' DWT and masking read past the subbands."""
    if (name, key) in OUT_OF_BOUNDS:
        return True
    r = pair["reference"]
    if (key == "float_adm" or key.startswith("model[vmaf_float_")) and min(r["width"], r["height"]) < 17:
        return True
    return key == "ciede" and r["height"] % 2 == 1 and not r["pix_fmt"].startswith(("yuv444", "yuv422"))


def mergeable(run):
    """The model version or (None, args) of a run that only names a model or features; else False."""
    args = shlex.split(run["cli_args"])
    if run["status"] != "ok" or len(args) % 2:
        return False
    flags = args[0::2]
    if flags == ["--model"] and args[1].startswith("version=") and ":" not in args[1]:
        return args[1][len("version="):], args
    if all(f == "--feature" for f in flags):
        return None, args
    return False


def main():
    args = sys.argv[1:]
    backend, only, prefixes, merge = "cpu", "", None, False
    if "--backend" in args:
        i = args.index("--backend")
        backend = args[i + 1]
        del args[i:i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1]
        del args[i:i + 2]
    if "--runs" in args:
        i = args.index("--runs")
        prefixes = args[i + 1].split(",")
        del args[i:i + 2]
    if "--merge" in args:
        args.remove("--merge")
        merge = True
    setting = None
    if "--set" in args:
        i = args.index("--set")
        setting = args[i + 1]
        del args[i:i + 2]
    vqm, fixtures, refdir = args
    check = Check(vqm, backend, setting)
    pairs = [l.split() for l in open(os.path.join(fixtures, "pairs.txt")) if l.strip()]
    for name, ref, dis in pairs:
        if only not in name:
            continue
        path = os.path.join(refdir, name + ".json")
        if not os.path.exists(path):
            continue
        ref, dis = os.path.join(fixtures, ref), os.path.join(fixtures, dis)
        together = []
        pair = json.load(open(path))
        for key, run in pair["features"].items():
            if "cli_args" not in run:
                continue
            if prefixes is not None and not any(key.startswith(p) for p in prefixes):
                continue
            if outside_picture(name, key, pair):
                run = dict(run, status="outside its picture")  # vqm must refuse it
            how = mergeable(run) if merge else False
            if how is False:
                check.one(name, key, run, ref, dis)
            else:
                together.append((key, run, *how))
        if together:
            check.merged(name, together, ref, dis)
    for metric in sorted(check.worst):
        print(f"  max |d| {metric:<28} {check.worst[metric]:.3g}")
    print(f"{backend}: {check.runs} runs, {check.values} values, {check.bad} mismatches")
    return 1 if check.bad else 0


if __name__ == "__main__":
    sys.exit(main())
