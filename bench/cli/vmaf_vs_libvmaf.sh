#!/usr/bin/env bash
# vmaf_vs_libvmaf.sh VQM [LIBVMAF_VMAF]: VMAF on the CPU, vqm's CLI against libvmaf's, run alternately on the
# same clip in one run: real 1080p content (tests' motorcycle pair, looped to FRAMES frames) and the same
# scaled to 2160p, at one thread and at every core, for vmaf_v0.6.1 and for vmaf_v0.6.1 + vmaf_v0.6.1neg in
# one run. Prints each run's fps (frames / wall seconds, Y4M reading from /dev/shm included on both sides)
# and, per case, the best of ROUNDS rounds and vqm / libvmaf.
#   ROUNDS=3 FRAMES=120 SIZES="1080 2160" THREADS="1 $(nproc)" MODELS="vmaf neg" ISA=
# MODELS may also name v1 (vmaf_v1.0.16_3d0h), and cambi, ciede or float_motion (that feature alone).
# ISA=avx2 holds both to AVX2 (vqm: VQM_CPU_ISA=avx2; libvmaf: --cpumask 48, its AVX512 and AVX512ICL bits,
# which the mask disables), ISA=baseline to SSE2 / scalar (libvmaf: --cpumask 63); unset: each at its best.
set -u
VQM=$1
LIBVMAF=${2:-$(dirname "$0")/../../../shared/tools/libvmaf/vmaf}
ROUNDS=${ROUNDS:-3} FRAMES=${FRAMES:-120} SIZES=${SIZES:-"1080 2160"} THREADS=${THREADS:-"1 $(nproc)"}
MODELS=${MODELS:-"vmaf neg"}
ISA=${ISA:-}
case "$ISA" in
  "") libvmaf_isa=() ;;
  avx2) libvmaf_isa=(--cpumask 48) ;;
  baseline) libvmaf_isa=(--cpumask 63) ;;
  *) echo "vmaf_vs_libvmaf.sh: ISA=$ISA: use avx2, baseline or leave it unset" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
fixtures=${FIXTURES:-$here/../../../shared/fixtures}
D=/dev/shm/vqm-vs-libvmaf; mkdir -p $D
for s in $SIZES; do
  k=$([ "$s" = 2160 ] && echo 2 || echo 1)
  for p in ref x264crf30; do
    f=$D/${s}_$p.y4m
    [ -f "$f" ] || python3 "$here/loop_y4m.py" "$fixtures/motorcycle_1920x1080_420p8_$p.y4m" "$f" "$FRAMES" $k || exit 1
  done
done
[ -x "$LIBVMAF" ] || { echo "vmaf_vs_libvmaf.sh: no libvmaf CLI at $LIBVMAF (pass its path)" >&2; exit 1; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) threads"
echo "vqm: $VQM; libvmaf: $LIBVMAF; $FRAMES frames per run; instruction sets: ${ISA:-each at its best}"
model_args() {  # vmaf: vmaf_v0.6.1 (the default model); neg: with vmaf_v0.6.1neg; v1: vmaf_v1.0.16_3d0h; a feature alone
  case $1 in
    neg) echo "--model version=vmaf_v0.6.1 --model version=vmaf_v0.6.1neg:name=vmaf_neg" ;;
    v1) echo "--model version=vmaf_v1.0.16_3d0h" ;;
    cambi|ciede|float_motion) echo "--no_prediction --feature $1" ;;
  esac
}
run() {  # run TOOL SIZE THREADS MODEL -> fps
  local tool=$1 s=$2 t=$3 m=$4 t0 t1 args
  if [ "$tool" = libvmaf ]; then
    args=(--threads "$t" -q --json -o /dev/null "${libvmaf_isa[@]}" $(model_args "$m"))
    t0=$(date +%s.%N); "$LIBVMAF" -r $D/${s}_ref.y4m -d $D/${s}_x264crf30.y4m "${args[@]}" >/dev/null 2>&1 || return 1
  else
    args=(--threads "$t" -q --json -o /dev/null $(model_args "$m"))
    t0=$(date +%s.%N); env ${ISA:+VQM_CPU_ISA=$ISA} "$VQM" -r $D/${s}_ref.y4m -d $D/${s}_x264crf30.y4m "${args[@]}" >/dev/null 2>&1 || return 1
  fi
  t1=$(date +%s.%N)
  python3 -c "print(f'{$FRAMES/($t1-$t0):.2f}')"
}
declare -A best
for round in $(seq "$ROUNDS"); do
  for s in $SIZES; do
    for t in $THREADS; do
      for m in $MODELS; do
        for tool in libvmaf vqm; do
          fps=$(run $tool "$s" "$t" "$m") || { echo "$tool failed at ${s}p, $t threads, $m" >&2; exit 1; }
          echo "round $round ${s}p threads $t $m $tool: $fps fps"
          key="$s $t $m $tool"
          best[$key]=$(python3 -c "print(max($fps, ${best[$key]:-0}))")
        done
      done
    done
  done
done
echo "best of $ROUNDS (fps):   size threads model  libvmaf  vqm  vqm/libvmaf"
for s in $SIZES; do
  for t in $THREADS; do
    for m in $MODELS; do
      l=${best["$s $t $m libvmaf"]} v=${best["$s $t $m vqm"]}
      python3 -c "print(f'  {$s}p {$t:>3} {\"$m\":>5}  {$l:8.2f} {$v:8.2f}  {$v/$l:5.2f}')"
    done
  done
done
