#!/usr/bin/env python3
"""`cmake --install BUILD --component vqm_libvmaf` into a scratch prefix: only <libdir>/vqm-libvmaf/ and
<includedir>/vqm-libvmaf/ are written, and a C program built with that libvmaf.pc (pkg-config) links to
and loads the installed libvmaf.so.3.

  check_install.py BUILD_DIR CC PROGRAM.c
"""
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build, cc, source = sys.argv[1:]
    with tempfile.TemporaryDirectory() as prefix:
        subprocess.run(["cmake", "--install", build, "--component", "vqm_libvmaf", "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        files = sorted(os.path.relpath(os.path.join(d, f), prefix) for d, _, fs in os.walk(prefix) for f in fs)
        stray = [f for f in files if "/vqm-libvmaf/" not in "/" + f]
        if stray:
            sys.exit(f"FAILED: installed outside the vqm-libvmaf folders: {stray}")
        pcs = [f for f in files if f.endswith("/vqm-libvmaf/pkgconfig/libvmaf.pc")]
        if len(pcs) != 1:
            sys.exit(f"FAILED: expected one <libdir>/vqm-libvmaf/pkgconfig/libvmaf.pc, installed: {files}")
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(os.path.join(prefix, pcs[0])))
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libvmaf"], env=env, check=True,
                               stdout=subprocess.PIPE, text=True).stdout.split()
        exe = os.path.join(prefix, "consumer")
        subprocess.run([cc, "-std=c99", source, *flags, "-o", exe], check=True)
        libdir = os.path.join(prefix, os.path.dirname(os.path.dirname(pcs[0])))
        ldd = subprocess.run(["ldd", exe], env=dict(env, LD_LIBRARY_PATH=libdir), check=True, stdout=subprocess.PIPE,
                             text=True).stdout
        if os.path.join(libdir, "libvmaf.so.3") not in ldd:
            sys.exit(f"FAILED: the program does not load {libdir}/libvmaf.so.3:\n{ldd}")
    print(f"installed {len(files)} files under vqm-libvmaf/; a pkg-config build loads the installed libvmaf.so.3")


if __name__ == "__main__":
    main()
