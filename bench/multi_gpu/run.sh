#!/bin/bash
# Many GPUs in one process (issue #21, docs/multi-gpu.md), on the GPU machine, from the repository root:
#   [ROUNDS=3] bash bench/multi_gpu/run.sh VQM [FRAMES_2160P] [FRAMES_1080P]
# VQM: a vqm built with Vulkan (e.g. build-gpu/v/pack/vqm; its ffmpeg-libs.tar.xz beside it is unpacked
# as build-gpu/v/run.sh does, and .gl/*.deb installed when present). Inputs are generated here into
# /dev/shm (bench/cli/make_y4m.py: moving texture, 4:2:0 8-bit): a 2160p pair and a 1080p reference with
# eight distorted. For each case: one GPU (--devices 0) against --devices all, 3 rounds, the CLI's fps (the
# XML's fps: first frame read to last scored) and the wall time of the process; the read bound (`cat` of the
# inputs at once to /dev/null); and the outputs of one GPU and of all compared (fps aside): they must be
# identical.
set -uo pipefail
VQM=$(readlink -f "$1"); N4=${2:-400}; N2=${3:-400}
here=$(cd "$(dirname "$0")" && pwd)
if compgen -G ".gl/*.deb" >/dev/null; then for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
libs=$(dirname "$VQM")/ffmpeg-libs.tar.xz
if [ -f "$libs" ]; then
  mkdir -p /tmp/ffl && tar xJf "$libs" -C /tmp/ffl
  for f in /tmp/ffl/lib/*; do n=$(basename "$f"); case $n in libav*|libsw*|libfmt*|libz.so*) continue;; esac
    if ldconfig -p | grep -qE "[[:space:]]$n[[:space:]]"; then rm "$f"; fi; done
  export LD_LIBRARY_PATH=/tmp/ffl/lib
fi
nproc; nvidia-smi -L || true; lscpu | grep 'Model name' || true; free -g | head -2; df -h /dev/shm | tail -1
"$VQM" --list-devices || exit 1
D=/dev/shm/vqm-multi-gpu; mkdir -p $D
gen() { [ -f "$1" ] || python3 "$here/../cli/make_y4m.py" "$@"; }
gen $D/ref4k.y4m 3840 2160 "$N4" 0 & gen $D/dis4k.y4m 3840 2160 "$N4" 1 &
gen $D/ref.y4m 1920 1080 "$N2" 0 &
for k in 1 2 3 4 5 6 7 8; do gen $D/d$k.y4m 1920 1080 "$N2" $k & done
wait
ngpu=$("$VQM" --list-devices | grep -v '(cpu,' | grep -c '^[0-9]*:')
# The device sets compared: one GPU, two, and all where there are more.
sets="0"; [ "$ngpu" -ge 2 ] && sets="$sets 0,1"; [ "$ngpu" -gt 2 ] && sets="$sets all"
FIVE="--feature psnr --feature float_psnr --feature float_ssim --feature float_ms_ssim --feature psnr_hvs"
fps() { grep -o 'fps="[0-9.]*"' "$1" | head -1 | tr -dc '0-9.'; }
strip_fps() { sed -E 's/fps="[0-9.]+"//' "$1"; }
# read_bound FRAMES FILE...: frames per second at which the files can be read at once.
read_bound() {
  local n=$1; shift; local t0 t1; t0=$(date +%s.%N); for f in "$@"; do cat "$f" >/dev/null & done; wait; t1=$(date +%s.%N)
  python3 -c "print(f'{$n/($t1-$t0):.0f}')"
}
# timed LABEL FRAMES OUT ARGS...: one run, its fps and wall-clock fps.
timed() {
  local label=$1 n=$2 out=$3; shift 3; local t0 t1 rc
  t0=$(date +%s.%N); "$VQM" "$@" -q; rc=$?; t1=$(date +%s.%N)
  echo "$label: $(fps "$out") fps (CLI), $(python3 -c "print(f'{$n/($t1-$t0):.0f}')") fps wall, rc $rc"
}
same() { cmp -s <(strip_fps "$1") <(strip_fps "$2") && echo "  identical: $1 $2" || echo "  DIFFERENT: $1 $2"; }

for round in $(seq 1 "${ROUNDS:-3}"); do
  echo "== round $round: 2160p, $N4 frames"
  echo "read bound, 2 files: $(read_bound "$N4" $D/ref4k.y4m $D/dis4k.y4m) fps"
  for what in vmaf+five vmaf; do
    extra=$([ $what = vmaf+five ] && echo "$FIVE" || echo "")
    for devs in $sets; do
      timed "$what --devices $devs" "$N4" $D/g$devs.xml -r $D/ref4k.y4m -d $D/dis4k.y4m --backend vulkan --devices $devs \
        $extra -o $D/g$devs.xml
      [ $devs = 0 ] || same $D/g0.xml $D/g$devs.xml
    done
    if [ $round = 1 ]; then
      for b in 32 128 256; do
        timed "$what all GPUs, --device-block $b" "$N4" $D/b.xml -r $D/ref4k.y4m -d $D/dis4k.y4m --backend vulkan --devices all \
          --device-block $b $extra -o $D/b.xml
        same $D/g0.xml $D/b.xml
      done
    fi
  done
  echo "== round $round: 1080p, one reference against eight distorted, vmaf_v0.6.1, $N2 frames"
  echo "read bound, 9 files: $(read_bound "$N2" $D/ref.y4m $D/d[1-8].y4m) fps"
  for devs in $sets; do
    args=(-r $D/ref.y4m --backend vulkan --devices $devs)
    for k in 1 2 3 4 5 6 7 8; do args+=(-d $D/d$k.y4m -o $D/m${devs}_$k.xml); done
    timed "eight distorted, --devices $devs" "$N2" $D/m${devs}_1.xml "${args[@]}"
  done
  for devs in $sets; do [ $devs = 0 ] || for k in 1 8; do same $D/m0_$k.xml $D/m${devs}_$k.xml; done; done
done
echo "== one process per GPU, as measured on 2026-11-26 (the baseline): vmaf+five, the same pair on each"
t0=$(date +%s.%N)
for ((g = 0; g < ngpu; g++)); do
  "$VQM" -r $D/ref4k.y4m -d $D/dis4k.y4m --backend vulkan --devices $g $FIVE -q -o $D/p$g.xml &
done
wait; t1=$(date +%s.%N)
echo "$ngpu processes: $(python3 -c "print(f'{$ngpu*$N4/($t1-$t0):.0f}')") fps wall in all; each: $(for ((g = 0; g < ngpu; g++)); do printf '%s ' "$(fps $D/p$g.xml)"; done)"
rm -rf $D
