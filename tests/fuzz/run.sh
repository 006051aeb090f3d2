#!/usr/bin/env bash
# Fuzzes every harness built in BUILD_DIR (tests/fuzz of a -DVQM_BUILD_FUZZERS=ON build) for SECONDS
# each, starting from the committed seed corpus (copied: the repository is not written), with the
# harness's dictionary (NAME.dict) where there is one. JOBS harnesses run at once (default: the core
# count). On a crash, prints the fuzzer's report, the reproducer (hex dump and base64) and the command
# that replays it, and exits 1.
#   tests/fuzz/run.sh build/asan/tests/fuzz 60 [JOBS]    (the asan preset builds them)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:?usage: run.sh BUILD_DIR [SECONDS] [JOBS]}"
seconds="${2:-60}"
jobs="${3:-$(nproc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs one harness; its report goes to $work/NAME.report, its status to $work/NAME.status.
fuzz_one() {
  local fuzzer="$1" name corpus dict=()
  name="$(basename "$fuzzer")"
  corpus="$work/$name"
  mkdir -p "$corpus" "$work/artifacts-$name"
  if [ -d "$here/corpus/$name" ]; then cp "$here/corpus/$name"/* "$corpus"/ 2>/dev/null || true; fi
  if [ "$name" = fuzz_json ]; then  # the shipped VMAF models (those within -max_len) seed the model loader
    find "$here/../../include/vqm/vmaf/models" -name '*.json' -size -64k -exec cp {} "$corpus"/ \; 2>/dev/null || true
  fi
  if [ -f "$here/$name.dict" ]; then dict=(-dict="$here/$name.dict"); fi
  {
    echo "== $name: fuzzed for ${seconds}s"
    # -rss_limit_mb/-malloc_limit_mb: a single allocation above 2 GB (a header believed blindly) is a bug.
    if ! "$fuzzer" "$corpus" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2560 -malloc_limit_mb=2048 \
          -timeout=25 -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts-$name/" \
          >"$work/$name.log" 2>&1; then
      echo 1 >"$work/$name.status"
      echo "!! $name found a bug:"
      grep -v -E '^#[0-9]+' "$work/$name.log" | tail -60
      for crash in "$work/artifacts-$name"/*; do
        [ -f "$crash" ] || continue
        echo "-- reproducer $(basename "$crash") ($(stat -c %s "$crash") bytes):"
        od -A d -c "$crash" | head -40
        echo "-- base64:"
        base64 "$crash"
        echo "-- replay: echo '<base64 above>' | base64 -d > crash && $fuzzer crash"
      done
    else
      echo 0 >"$work/$name.status"
      grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/$name.log" | tr '\n' ' '
      echo
    fi
  } >"$work/$name.report"
}

names=()
for fuzzer in "$build"/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  names+=("$(basename "$fuzzer")")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$fuzzer" &
done
wait
status=0
for name in "${names[@]}"; do
  cat "$work/$name.report"
  [ "$(cat "$work/$name.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
