#!/usr/bin/env bash
# cli_end_to_end.sh BEFORE AFTER [FRAMES]: the vqm CLI end to end on Vulkan from 1080p Y4M in /dev/shm —
# the five metrics, vmaf_v0.6.1, and one reference against three distorted — two binaries run alternately
# (5 rounds; the first warms up), with the read bound (`cat` of the inputs in parallel) in each round.
# fps is the CLI's own (the XML's fyi fps: from the first frame read to the last scored, start-up excluded).
set -u
BEFORE=$1 AFTER=$2 N=${3:-1200}
D=/dev/shm/vqm-cli-bench; mkdir -p $D
here=$(dirname "$0")
for k in 0 1 2 3; do
  name=$([ $k = 0 ] && echo ref || echo d$k)
  [ -f $D/$name.y4m ] || python3 "$here/make_y4m.py" $D/$name.y4m 1920 1080 "$N" $k &
done
wait
FIVE="-n --feature psnr --feature float_psnr --feature float_ssim --feature float_ms_ssim --feature psnr_hvs"
fps() { grep -o 'fps="[0-9.]*"' "$1" | head -1 | tr -dc '0-9.'; }
read_bound() {
  local t0 t1; t0=$(date +%s.%N); for f in "$@"; do cat "$f" >/dev/null & done; wait; t1=$(date +%s.%N)
  python3 -c "print(f'{$N/($t1-$t0):.0f}')"
}
for round in 0 1 2 3 4; do
  for what in five vmaf multi; do
    for label in before after; do
      bin=$([ $label = before ] && echo "$BEFORE" || echo "$AFTER")
      case $what in
        five) "$bin" -r $D/ref.y4m -d $D/d1.y4m --backend vulkan $FIVE -q -o $D/out.xml ;;
        vmaf) "$bin" -r $D/ref.y4m -d $D/d1.y4m --backend vulkan -q -o $D/out.xml ;;
        multi) "$bin" -r $D/ref.y4m -d $D/d1.y4m -o $D/out.xml -d $D/d2.y4m -o $D/o2.xml -d $D/d3.y4m -o $D/o3.xml \
                 --backend vulkan -q ;;
      esac
      echo "round $round $what $label: $(fps $D/out.xml) fps"
    done
  done
  echo "round $round read bound: 2 files $(read_bound $D/ref.y4m $D/d1.y4m) fps, 4 files $(read_bound $D/ref.y4m $D/d[123].y4m) fps"
done
