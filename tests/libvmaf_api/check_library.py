#!/usr/bin/env python3
"""vqm's libvmaf.so.3 as a drop-in: SONAME libvmaf.so.3; its dynamic symbols are exactly the functions its
headers declare, unversioned; every vmaf_* symbol FFmpeg's binary imports is among them.

  check_library.py LIBVMAF.SO HEADER_DIR [FFMPEG]
"""
import os
import re
import subprocess
import sys


def out(*cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    lib, headers = sys.argv[1:3]
    errors = []
    soname = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out("readelf", "-d", lib))
    if soname != ["libvmaf.so.3"]:
        errors.append(f"SONAME {soname}, expected libvmaf.so.3")
    declared = set()
    for name in os.listdir(headers):
        with open(os.path.join(headers, name)) as f:
            declared |= set(re.findall(r"^[a-z][\w *]*?\b(vmaf_\w+)\(", f.read(), re.M))
    exported = {}
    for line in out("nm", "-D", "--defined-only", lib).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWwDdBbRrVv":
            exported[parts[2]] = parts[1]
    versioned = [s for s in exported if "@" in s]
    if versioned:
        errors.append(f"versioned symbols: {versioned}")
    names = {s.split("@")[0] for s in exported}
    if names != declared:
        errors.append(f"exported but not declared: {sorted(names - declared)}; declared but not exported: "
                      f"{sorted(declared - names)}")
    if len(sys.argv) == 4 and os.access(sys.argv[3], os.X_OK):
        needed = {l.split()[-1].split("@")[0] for l in out("nm", "-D", "--undefined-only", sys.argv[3]).splitlines()
                  if "vmaf_" in l}
        if needed - names:
            errors.append(f"FFmpeg imports symbols vqm's library lacks: {sorted(needed - names)}")
    if errors:
        sys.exit("FAILED: " + "\n".join(errors))
    print(f"libvmaf.so.3: {len(names)} functions exported, unversioned, as the headers declare")


if __name__ == "__main__":
    main()
