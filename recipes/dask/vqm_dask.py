#!/usr/bin/env python3
"""Score one vqm run as frame-range shards on a Dask distributed cluster, merged into the single run's output.

    vqm_dask.py --scheduler tcp://HOST:8786 --vqm /opt/vqm/bin/vqm --shard-frames 2000 --shard-dir /shared/run1 \\
        -- -r /shared/ref.y4m -d /shared/dis.y4m --feature psnr --json -o /shared/dis.json

Everything after `--` is the single run's command line. On the workers: one task counts the frames
(`vqm --count-frames`), one task per shard runs `vqm ... --frame-range A:B --shard-out SHARD_DIR/...` (retried
on failure: Dask's `retries=`; a worker that dies has its tasks rerun elsewhere by the scheduler), and one
task, depending on every shard, runs `vqm merge -o OUT`, which writes what the single run writes, byte for
byte but the fps figure. vqm writes shards and the output atomically (a temp in the same folder, renamed
when complete), so a killed attempt never leaves a file under a shard's name; the merge checks each
shard's checksum, range and identity anyway. Paths must be the same on every worker (a shared volume).
docs/scale.md: how to choose the shard length, the same on Kubernetes and AWS Batch.
"""
import argparse
import os
import subprocess
import sys
import uuid

# The single run's flags that shape its report, not its shards: `vqm merge` takes them. Every other flag goes
# to the count and to each shard (the shards' identity includes them, and `vqm merge` checks it).
MERGE_FLAGS = {"--xml", "--json", "--csv", "--sub"}
MERGE_OPTIONS = {"-o", "--output", "--pool", "--precision"}


def split_run_args(args):
    """The single run's arguments -> (arguments of the count and the shards, arguments of `vqm merge`, output)."""
    run, merge, output = [], [], None
    k = 0
    while k < len(args):
        a = args[k]
        name, eq, value = a.partition("=")
        if a in MERGE_FLAGS:
            merge.append(a)
        elif name in MERGE_OPTIONS:
            if not eq:
                if k + 1 == len(args):
                    raise ValueError(f"{a} needs a value")
                k += 1
                value = args[k]
            if name in ("-o", "--output"):
                if output is not None:
                    raise ValueError("one -o: shard runs of one -d each (several distorted: one recipe run each)")
                output = value
            else:
                merge += [name, value]
        elif a.startswith("--frame-range") or a.startswith("--shard-out") or a == "--count-frames":
            raise ValueError(f"{a}: the recipe sets it; give the single run's command line")
        else:
            run.append(a)
        k += 1
    if output is None:
        raise ValueError("give the single run's -o OUT (on the shared volume): the merge writes it")
    return run, merge, output


def plan_shards(frames, shard_frames):
    """[(A, B), ...]: frames [0, frames) cut into ranges of shard_frames (the last one shorter)."""
    if frames <= 0:
        raise ValueError("no frames to score")
    if shard_frames <= 0:
        raise ValueError("--shard-frames must be positive")
    return [(a, min(a + shard_frames, frames)) for a in range(0, frames, shard_frames)]


def _vqm(cmd):
    """Runs vqm; a failure raises with vqm's one-line error (Dask then retries the task)."""
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        why = r.stderr.strip() or f"exit status {r.returncode}"
        raise RuntimeError(f"{' '.join(cmd)}: {why}")
    return r.stdout


def count_frames(vqm, run_args):
    """The frames the single run scores (after --frame_skip_*, at most --frame_cnt): `vqm --count-frames`."""
    return int(_vqm([vqm, *run_args, "--count-frames"]).strip())


def run_shard(vqm, run_args, a, b, shard):
    """Scores frames [a, b) into the shard file `shard` (vqm writes it atomically); returns its path."""
    _vqm([vqm, *run_args, "-q", "--frame-range", f"{a}:{b}", "--shard-out", shard])
    return shard


def merge_shards(vqm, merge_args, output, *shards):
    """`vqm merge MERGE_ARGS -o output SHARD...`: the single run's output (written atomically); returns its path."""
    _vqm([vqm, "merge", *merge_args, "-o", output, *shards])
    return output


def shard_path(shard_dir, k, a, b):
    return os.path.join(shard_dir, f"shard{k:05d}_{a}_{b}.vqmshard")


def submit(client, vqm, single_run_args, shard_frames, shard_dir, retries=3, shard_task=run_shard):
    """Submits the count, the shards and the merge; returns the merge's future (its result: the output path).

    shard_task(vqm, run_args, a, b, shard) runs one shard (run_shard; a test passes one that fails first)."""
    run_args, merge_args, output = split_run_args(single_run_args)
    if __name__ != "__main__":  # imported: send these functions by value (workers need not have this file)
        import cloudpickle
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    run_id = uuid.uuid4().hex[:8]
    frames = client.submit(count_frames, vqm, run_args, key=f"vqm-count-{run_id}", retries=retries,
                           pure=False).result()
    os.makedirs(shard_dir, exist_ok=True)
    shards = [client.submit(shard_task, vqm, run_args, a, b, shard_path(shard_dir, k, a, b),
                            key=f"vqm-shard-{k}-{run_id}", retries=retries, pure=False)
              for k, (a, b) in enumerate(plan_shards(frames, shard_frames))]
    # Futures as arguments: the merge starts once every shard is done, with their paths.
    return client.submit(merge_shards, vqm, merge_args, output, *shards, key=f"vqm-merge-{run_id}",
                         retries=retries, pure=False)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                usage="%(prog)s --scheduler ADDR --vqm PATH --shard-frames N --shard-dir DIR "
                                      "[--retries N] -- SINGLE_RUN_ARGS... -o OUT")
    p.add_argument("--scheduler", required=True, help="the Dask scheduler's address, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--vqm", required=True, help="vqm's path on the workers")
    p.add_argument("--shard-frames", type=int, required=True, help="frames per shard (docs/scale.md)")
    p.add_argument("--shard-dir", required=True, help="a folder every worker sees at this path, for the shards")
    p.add_argument("--retries", type=int, default=3, help="retries of a failed task (default 3)")
    p.add_argument("run", nargs=argparse.REMAINDER, help="-- then the single run's arguments, -o OUT included")
    o = p.parse_args(argv)
    run = o.run[1:] if o.run[:1] == ["--"] else o.run
    try:
        split_run_args(run)
    except ValueError as e:
        p.error(str(e))
    from distributed import Client  # only here: the functions above run on workers and in tests without it

    with Client(o.scheduler) as client:
        try:
            out = submit(client, o.vqm, run, o.shard_frames, o.shard_dir, o.retries).result()
        except Exception as e:  # a task that failed every retry: its last error, one line
            print(f"vqm_dask: error: {e}", file=sys.stderr)
            return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
