#!/usr/bin/env python3
# make_y4m.py OUT W H FRAMES VARIANT: a 4:2:0 8-bit Y4M of pseudo-random texture moving frame to frame, for
# timing the CLI (cli_end_to_end.sh); VARIANT 0 is the reference, k > 0 a distorted (a fixed noisy table k).
import random, sys
out, w, h, n, var = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
fb = w * h * 3 // 2
rnd = random.Random(7)
base = bytes(rnd.getrandbits(8) for _ in range(fb + 8192))
tr = random.Random(var)
table = bytes(range(256)) if var == 0 else bytes(max(0, min(255, v + tr.randint(-3 * var, 3 * var))) for v in range(256))
with open(out, "wb") as f:
    f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
    for i in range(n):
        o = (i * 37) % 8192
        f.write(b"FRAME\n")
        f.write(base[o:o + fb].translate(table))
