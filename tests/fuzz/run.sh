#!/usr/bin/env bash
# Fuzzes every harness built in BUILD_DIR (tests/fuzz of a -DVQM_BUILD_FUZZERS=ON build) for SECONDS
# each, starting from the committed seed corpus (copied: the repository is not written). On a crash,
# prints the fuzzer's report, the reproducer (hex dump and base64) and the command that replays it, and
# exits 1.
#   tests/fuzz/run.sh build/fuzz/tests/fuzz 60
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:?usage: run.sh BUILD_DIR [SECONDS]}"
seconds="${2:-60}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for fuzzer in "$build"/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  name="$(basename "$fuzzer")"
  corpus="$work/$name"
  mkdir -p "$corpus" "$work/artifacts-$name"
  if [ -d "$here/corpus/$name" ]; then cp "$here/corpus/$name"/* "$corpus"/ 2>/dev/null || true; fi
  if [ "$name" = fuzz_json ]; then  # the shipped VMAF models (those within -max_len) seed the model loader
    find "$here/../../include/vqm/vmaf/models" -name '*.json' -size -64k -exec cp {} "$corpus"/ \; 2>/dev/null || true
  fi
  echo "== $name: fuzzing for ${seconds}s"
  # -rss_limit_mb/-malloc_limit_mb: a single allocation above 2 GB (a header believed blindly) is a bug.
  if ! "$fuzzer" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2560 -malloc_limit_mb=2048 -timeout=25 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts-$name/" >"$work/$name.log" 2>&1; then
    status=1
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
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/$name.log" | tr '\n' ' '
    echo
  fi
done
exit $status
