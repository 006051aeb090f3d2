#!/usr/bin/env python3
"""recipes/dask/vqm_dask.py on a real Dask cluster started here on 127.0.0.1 (issue #21, deliverable 3).

    check_dask_recipe.py VQM FIXTURE_DIR RECIPE_DIR

A scheduler and two workers (`python3 -m distributed.cli.dask_scheduler/dask_worker`, free ports, a temp folder
of their own; killed at the end, and with this script if it dies). A 16-frame 177x99 clip from two fixture
pairs (a cut at frame 8) is scored with vmaf_v0.6.1, psnr and motion (five-frame window: shard boundaries need
the frames around them) once as the single run and once as shards through the recipe, XML in 4 shards, JSON
in 3. In the XML run two shards fail on their first attempt, mid-run and deterministically: one kills its
own vqm (the task fails: Dask's retries= reruns it), one kills the Dask worker running it (the scheduler
reruns the task on the other worker). vqm is then blocked reading a reference that the task feeds through a
FIFO, its shard's temp file open, so it cannot have finished. Checked: at the kill no file has the shard's
name (only vqm's temp), the retries complete, and each merged file equals the single run's byte for byte
but the fps figure. Exit 77 (ctest: skipped) when Python's `distributed` cannot be imported.
"""
import ctypes
import functools
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


def find_distributed():
    """Finds distributed, or re-runs this script with the Python that Debian's dask-scheduler uses. Not imported
    yet: it starts threads, and the daemons are forked (with a preexec_fn) before any thread runs."""
    import importlib.util
    if importlib.util.find_spec("distributed"):
        return
    tool = shutil.which("dask-scheduler")
    if tool and not os.environ.get("VQM_DASK_REEXEC"):
        with open(tool) as f:
            line = f.readline()
        if line.startswith("#!") and os.path.realpath(line[2:].split()[0]) != os.path.realpath(sys.executable):
            os.environ["VQM_DASK_REEXEC"] = "1"
            os.execv(line[2:].split()[0], [line[2:].split()[0], *sys.argv])
    print("SKIP: Python's distributed (Debian: python3-distributed) is not installed", file=sys.stderr)
    sys.exit(SKIP)


def die_with_parent():
    """In a child before exec: SIGKILL when this script ends, however it ends (ctest's timeout included)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def without_fps(text):
    return re.sub(r'fps(="|": )[0-9.a-z]+', "fps=...", text)


def fed_through_fifo(vqm, run_args, a, b, shard, fifo):
    """Starts the shard's vqm with its reference read from `fifo`, and feeds it the header and one frame: vqm is
    then mid-run (its shard's temp created, inputs open, frames read) and cannot finish. Returns (process, what
    the shard's folder holds under the shard's name and vqm's temp name)."""
    args = list(run_args)
    ref = args[args.index("-r") + 1]
    args[args.index("-r") + 1] = fifo
    os.mkfifo(fifo)
    p = subprocess.Popen([vqm, *args, "-q", "--frame-range", f"{a}:{b}", "--shard-out", shard],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    folder, name = os.path.split(shard)
    temps = lambda: glob.glob(os.path.join(folder, f".{name}.vqm-*"))  # noqa: E731 (atomic_file.hpp's temp name)
    with open(ref, "rb") as f:
        start = f.readline() + f.read(6 + 10000)  # the header, part of the first frame
    w = open(fifo, "wb")  # returns once vqm opens its reference, after it made the temp
    w.write(start)
    w.flush()
    seen = {"temps": len(temps()), "shard_exists": os.path.exists(shard)}
    return p, w, seen


def faulty_shard(marker_dir, faults, run_shard, vqm, run_args, a, b, shard):
    """run_shard (the recipe's), but the first attempt of the shard starting at a frame in `faults` fails mid-run:
    "vqm" kills its vqm; "worker" kills the Dask worker process running the task."""
    fault = faults.get(a)
    if fault is not None:
        try:
            os.close(os.open(os.path.join(marker_dir, f"attempt1_{a}"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            fault = None  # a retry
    if fault is None:
        return run_shard(vqm, run_args, a, b, shard)
    p, w, seen = fed_through_fifo(vqm, run_args, a, b, shard, os.path.join(marker_dir, f"ref_fifo_{a}"))
    seen["fault"] = fault
    if fault == "worker":
        with open(os.path.join(marker_dir, f"killed_{a}.json"), "w") as f:
            json.dump(seen, f)
        os.kill(os.getpid(), signal.SIGKILL)  # the worker dies; its vqm then reads the FIFO's end and fails
    p.send_signal(signal.SIGKILL)
    seen["vqm_status"] = p.wait()
    w.close()
    seen["shard_exists_after"] = os.path.exists(shard)
    with open(os.path.join(marker_dir, f"killed_{a}.json"), "w") as f:
        json.dump(seen, f)
    raise RuntimeError(f"the test killed this shard's vqm (frames {a}:{b}) mid-run")


def start(cmd, log, work):
    env = dict(os.environ, DASK_TEMPORARY_DIRECTORY=work)  # the scheduler's and workers' files: in `work`
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                            preexec_fn=die_with_parent)


def wait_for_port(port, procs, seconds=240):
    """Until the scheduler listens; a daemon that exits first is an error (its output is in the log)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for p in procs:
            if p.poll() is not None:
                raise RuntimeError(f"{' '.join(p.args[:3])} exited with status {p.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"no scheduler on 127.0.0.1:{port} after {seconds} s")


def main():
    find_distributed()

    vqm, fixtures, recipe_dir = sys.argv[1:4]
    sys.path.insert(0, recipe_dir)
    import vqm_dask

    t0 = time.monotonic()
    work = tempfile.mkdtemp(prefix="vqm_dask_")
    procs, failures, completed = [], [], False
    log = open(os.path.join(work, "cluster.log"), "w")
    try:
        def cat(a, b, to):
            x = open(os.path.join(fixtures, f"rocket_177x99_420p8_{a}"), "rb").read()
            y = open(os.path.join(fixtures, f"rocket_177x99_420p8_{b}"), "rb").read()
            with open(os.path.join(work, to), "wb") as f:
                f.write(x + y[y.index(b"\n") + 1:])
        cat("ref.y4m", "ref.y4m", "ref.y4m")
        cat("x264crf35.y4m", "noise10.y4m", "dis.y4m")
        run = ["-r", os.path.join(work, "ref.y4m"), "-d", os.path.join(work, "dis.y4m"), "--backend", "cpu",
               "-m", "version=vmaf_v0.6.1", "--feature", "psnr",
               "--feature", "motion=motion_five_frame_window=true:motion_moving_average=true"]

        port = free_port()
        address = f"tcp://127.0.0.1:{port}"
        py = sys.executable
        procs.append(start([py, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                            "--no-dashboard"], log, work))
        for k in range(2):
            procs.append(start([py, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1",
                                "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", f"w{k}",
                                "--death-timeout", "60"], log, work))
        wait_for_port(port, procs)
        from distributed import Client  # now: its threads run after the forks
        with Client(address, timeout=240) as client:
            client.wait_for_workers(2, timeout=240)
            started = time.monotonic()
            markers = os.path.join(work, "markers")
            os.makedirs(markers)
            for fmt, shard_frames, faults in (("--xml", 5, {5: "vqm", 10: "worker"}), ("--json", 6, {})):
                single = os.path.join(work, "single" + fmt[2:])
                subprocess.run([vqm, *run, "-q", fmt, "-o", single], check=True)
                merged = os.path.join(work, "merged" + fmt[2:])
                task = functools.partial(faulty_shard, markers, faults, vqm_dask.run_shard)
                out = vqm_dask.submit(client, vqm, [*run, fmt, "-o", merged], shard_frames,
                                      os.path.join(work, "shards" + fmt[2:]), retries=2, shard_task=task).result()
                if out != merged:
                    failures.append(f"{fmt}: the merge returned {out}, not {merged}")
                a, b = open(single).read(), open(merged).read()
                if without_fps(a) != without_fps(b):
                    failures.append(f"{fmt}: the merged output differs from the single run's ({single}, {merged})")
                if a == b:
                    failures.append(f"{fmt}: not even the fps differs: was the merge's output the single run's?")
                shards = sorted(glob.glob(os.path.join(work, "shards" + fmt[2:], "*.vqmshard")))
                want = (16 + shard_frames - 1) // shard_frames
                if len(shards) != want:
                    failures.append(f"{fmt}: {len(shards)} shard files, expected {want}")
                for a0, fault in faults.items():
                    path = os.path.join(markers, f"killed_{a0}.json")
                    if not os.path.exists(path):
                        failures.append(f"{fmt}: the shard at frame {a0} was not killed ({fault})")
                        continue
                    seen = json.load(open(path))
                    print(f"{fmt}: shard at frame {a0}, first attempt ({fault} killed): {seen}")
                    if seen["shard_exists"] or seen["temps"] != 1:
                        failures.append(f"{fmt}: mid-run the shard's folder held {seen}, expected vqm's temp only")
                    if fault == "vqm" and (seen["vqm_status"] != -signal.SIGKILL or seen["shard_exists_after"]):
                        failures.append(f"{fmt}: after the kill: {seen}")
            workers = len(client.nthreads())
            if workers != 1:
                failures.append(f"{workers} workers left, expected 1 (the other killed)")
            print(f"recipe runs (with single runs): {time.monotonic() - started:.1f} s")
        completed = True
    finally:
        for p in reversed(procs):
            p.kill()
            p.wait()
        log.close()
        if failures or not completed:  # the cluster's side of it
            print(open(os.path.join(work, "cluster.log")).read()[-4000:], file=sys.stderr)
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    if not failures:
        shutil.rmtree(work)
    print(f"total {time.monotonic() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
