#!/usr/bin/env python3
# loop_y4m.py IN OUT FRAMES [SCALE]: the frames of a 4:2:0 8-bit Y4M repeated to FRAMES frames, each plane
# scaled up SCALE times by pixel repetition (2: 1080p content as 2160p), for timing on real content
# (vmaf_vs_libvmaf.sh).
import sys

src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
k = int(sys.argv[4]) if len(sys.argv) > 4 else 1
data = open(src, "rb").read()
head, _, rest = data.partition(b"\n")
fields = head.split(b" ")
w = int(next(f[1:] for f in fields if f.startswith(b"W")))
h = int(next(f[1:] for f in fields if f.startswith(b"H")))
if not any(f.startswith(b"C420") for f in fields) and any(f.startswith(b"C") for f in fields):
    sys.exit(f"loop_y4m.py: {src}: 4:2:0 8-bit input only")
fb = w * h * 3 // 2
frames = []
for chunk in rest.split(b"FRAME\n")[1:]:
    frames.append(chunk[:fb])


def scaled(plane, pw, ph):
    rows = []
    for y in range(ph):
        row = plane[y * pw:(y + 1) * pw]
        wide = bytes(b for b in row for _ in range(k)) if k > 1 else row
        rows.extend([wide] * k)
    return b"".join(rows)


if k > 1:
    cw, ch = (w + 1) // 2, (h + 1) // 2
    frames = [scaled(f[:w * h], w, h) + scaled(f[w * h:w * h + cw * ch], cw, ch) +
              scaled(f[w * h + cw * ch:], cw, ch) for f in frames]
fields = [b"W%d" % (w * k) if f.startswith(b"W") else b"H%d" % (h * k) if f.startswith(b"H") else f for f in fields]
with open(out, "wb") as o:
    o.write(b" ".join(fields) + b"\n")
    for i in range(n):
        o.write(b"FRAME\n")
        o.write(frames[i % len(frames)])
