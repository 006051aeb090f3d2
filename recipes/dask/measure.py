#!/usr/bin/env python3
"""Wall time of the single run against the recipe's shards on a local Dask cluster (docs/scale.md, measured).

    measure.py VQM WORKERS SHARD_FRAMES[,SHARD_FRAMES...] -- SINGLE_RUN_ARGS... -o OUT

The cluster (a scheduler, WORKERS single-threaded worker processes: distributed.LocalCluster) is started once,
before the clock starts; each recipe run is timed from submit to the merged output, and compared with the
single run's output (fps aside).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vqm_dask  # noqa: E402


def without_fps(text):
    return re.sub(r'fps(="|": )[0-9.a-z]+', "fps=...", text)


def main():
    vqm, workers, lengths = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split(",")]
    run = sys.argv[sys.argv.index("--") + 1:]
    _, _, output = vqm_dask.split_run_args(run)
    t = time.monotonic()
    subprocess.run([vqm, *run, "-q"], check=True)
    single = time.monotonic() - t
    want = without_fps(open(output).read())
    frames = int(subprocess.run([vqm, *[a for a in vqm_dask.split_run_args(run)[0]], "--count-frames"],
                                check=True, capture_output=True, text=True).stdout)
    print(f"{frames} frames; single run: {single:.2f} s")
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for L in lengths:
            with tempfile.TemporaryDirectory() as shards:
                merged = os.path.join(shards, "merged")
                args = list(run)
                args[args.index(output)] = merged
                t = time.monotonic()
                vqm_dask.submit(client, vqm, args, L, shards).result()
                took = time.monotonic() - t
                same = without_fps(open(merged).read()) == want
                print(f"{workers} workers, {(frames + L - 1) // L} shards of {L}: {took:.2f} s "
                      f"({single / took:.2f}x the single run), output {'equal' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
