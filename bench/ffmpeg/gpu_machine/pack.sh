#!/bin/bash
# Packs vqm_bench_decode and the vqm CLI (a Release build with VQM_FFMPEG=ON and Vulkan) with the FFmpeg
# libraries they need into OUT, small enough for the GPU machine's carry limit, plus a 1080p H.264 pair
# (x264 crf 18 / 35 of testsrc2, FRAMES frames). On the GPU machine: bash OUT/run.sh.
#   bench/ffmpeg/gpu_machine/pack.sh BUILD_DIR OUT [FRAMES]
set -euo pipefail
build=$1 out=$2 frames=${3:-480}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cp "$build/bench/ffmpeg/vqm_bench_decode" "$build/apps/vqm/vqm" "$out/"
strip "$out/vqm_bench_decode" "$out/vqm"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/real" "$tmp/lib"
for l in $(ldd "$out/vqm_bench_decode" "$out/vqm" | awk '/=> \//{print $3}' | sort -u); do cp -L "$l" "$tmp/real/$(basename "$l")"; done
keep=$(cd "$tmp/real" && ls | grep -E '^(libav|libsw|libfmt|libz\.so)' | paste -sd,)
python3 "$here/stub_libs.py" "$tmp/real" "$tmp/lib" "$keep" "$out/vqm_bench_decode" "$out/vqm"
for k in ${keep//,/ }; do cp "$tmp/real/$k" "$tmp/lib/"; done
tar cf - -C "$tmp" lib | xz -T0 -9 > "$out/ffmpeg-libs.tar.xz"
for crf in 18 35; do
  f="$out/testsrc2_1080p_${frames}_crf$crf.mp4"
  [ -f "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v "$frames" \
    -pix_fmt yuv420p -c:v libx264 -preset fast -crf $crf "$f"
done
sed "s/@FRAMES@/$frames/" "$here/run.sh" > "$out/run.sh"
du -sh "$out"
