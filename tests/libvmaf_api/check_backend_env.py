#!/usr/bin/env python3
"""VQM_BACKEND / VQM_DEVICE through FFmpeg: an unknown backend and a missing device fail vmaf_init (FFmpeg
stops with an error) with a line naming the variable; VQM_BACKEND=auto with a missing device warns and
scores on the CPU. Exits 77 (skipped) without FFmpeg.

  check_backend_env.py FFMPEG_DIR VQM_LIB_DIR REF.y4m DIS.y4m
"""
import os
import subprocess
import sys

from compare_ffmpeg import SKIP


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ffdir, libdir, ref, dis = sys.argv[1:]
    ffmpeg = os.path.join(os.environ.get("VQM_FFMPEG_LIBVMAF_DIR", ffdir), "ffmpeg")
    if not os.access(ffmpeg, os.X_OK):
        print(f"skipped: no FFmpeg at {ffmpeg}")
        sys.exit(SKIP)
    cases = [  # environment, should succeed, a line the output must hold
        ({"VQM_BACKEND": "bogus"}, False, "libvmaf ERROR vmaf_init: VQM_BACKEND=bogus is unknown (cpu, vulkan or auto)"),
        ({"VQM_BACKEND": "vulkan", "VQM_DEVICE": "999"}, False, "libvmaf ERROR vmaf_init: no Vulkan device 999"),
        ({"VQM_BACKEND": "vulkan", "VQM_DEVICE": "x"}, False, "VQM_DEVICE=x: expected a device index"),
        ({"VQM_BACKEND": "auto", "VQM_DEVICE": "999"}, True, "VQM_BACKEND=auto uses the CPU"),
        ({"VQM_BACKEND": "auto", "VQM_DEVICE": "999"}, True, "scoring on the cpu backend"),
    ]
    failures = []
    for extra, ok, line in cases:
        env = dict(os.environ)
        env.pop("VQM_DEVICE", None)
        env.update(LD_LIBRARY_PATH=libdir, **extra)
        p = subprocess.run([ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "info", "-i", dis, "-i", ref, "-lavfi", "libvmaf",
                            "-f", "null", "-"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        out = p.stdout.decode(errors="replace")
        if (p.returncode == 0) != ok or line not in out:
            failures.append(f"{extra}: exit {p.returncode} (expected {'0' if ok else 'an error'}), "
                            f"expected the line '{line}':\n{out}")
    if failures:
        sys.exit("FAILED:\n" + "\n".join(failures))
    print(f"{len(cases)} VQM_BACKEND/VQM_DEVICE cases behave as documented")


if __name__ == "__main__":
    main()
