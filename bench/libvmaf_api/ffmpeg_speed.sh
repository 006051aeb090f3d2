#!/usr/bin/env bash
# FFmpeg's libvmaf filter (vmaf_v0.6.1) on libvmaf 3.2.0 and on vqm's libvmaf.so.3 (Cpu, Vulkan), decode
# included, beside FFmpeg decoding both inputs alone: wall seconds and frames per second of each run, and
# each run's pooled VMAF (they must agree); vqm's runs also print VQM_PROFILE's line (where the time went:
# vqm's calls, the flush, FFmpeg between the calls). The inputs are a Y4M pair scaled to SIZE and looped to FRAMES.
#
#   ffmpeg_speed.sh FFMPEG_DIR VQM_LIB_DIR REF.y4m DIS.y4m WxH FRAMES THREADS [RUNS] [BACKENDS]
#
# BACKENDS: vqm's, default "cpu vulkan" (leave vulkan out where it is lavapipe: minutes per 1080p run).
# FFMPEG_DIR: FFmpeg whose libvmaf filter loads libvmaf.so.3, with libvmaf's beside it (../shared/tools/
# ffmpeg-libvmaf); VQM_LIB_DIR: the folder of vqm's libvmaf.so.3 (build/<preset>/libvmaf-api).
set -euo pipefail
[ $# -ge 7 ] || { sed -n 2,12p "$0"; exit 2; }
ff=$1/ffmpeg lib=$2 ref=$3 dis=$4 size=$5 frames=$6 threads=$7 runs=${8:-2} backends=${9:-cpu vulkan}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in ref dis; do
  src=$ref; [ $side = dis ] && src=$dis
  "$ff" -nostdin -loglevel error -stream_loop -1 -i "$src" -frames:v "$frames" -vf "scale=${size/x/:}" -pix_fmt yuv420p \
    -f yuv4mpegpipe "$work/$side.y4m"
done
cat "$work/ref.y4m" "$work/dis.y4m" > /dev/null  # in the page cache: every run reads from memory

timed() {  # NAME ENV... -- ARGS...: runs ffmpeg, prints seconds, fps and the pooled VMAF
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t0 t1
  t0=$(date +%s.%N)
  env "${envs[@]}" "$ff" -nostdin -loglevel error -i "$work/dis.y4m" -i "$work/ref.y4m" "$@"
  t1=$(date +%s.%N)
  local vmaf="-"
  [ -f "$work/log.json" ] && vmaf=$(python3 -c "import json,sys; print('%.6f' % json.load(open(sys.argv[1]))['pooled_metrics']['vmaf']['mean'])" "$work/log.json" 2>/dev/null || echo "?")
  rm -f "$work/log.json"
  awk -v n="$name" -v a="$t0" -v b="$t1" -v f="$frames" -v v="$vmaf" 'BEGIN { printf "%-34s %8.2f s %9.1f fps  vmaf %s\n", n, b - a, f / (b - a), v }'
}
filter="libvmaf=n_threads=$threads:log_fmt=json:log_path=$work/log.json"
echo "# $size, $frames frames, n_threads=$threads, $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for r in $(seq "$runs"); do
  timed "decode only" X=1 -- -map 0:v -map 1:v -f null -
  timed "libvmaf 3.2.0" X=1 -- -lavfi "$filter" -f null -
  for b in $backends; do
    timed "vqm $b" LD_LIBRARY_PATH="$lib" VQM_BACKEND="$b" VQM_PROFILE=1 -- -lavfi "$filter" -f null - || echo "vqm $b: failed"
  done
done
