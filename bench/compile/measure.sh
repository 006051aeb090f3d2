#!/usr/bin/env bash
# What a user's source file costs to compile (issue #24, item 3): CPU seconds (user+sys) and peak memory of
# `g++ -std=c++20 -O2 -c` for the README's PSNR program and a VMAF-on-Cpu program, header-only (vqm::cpu)
# and compiled (vqm::cpu_compiled: -DVQM_CPU_COMPILED, linked with libvqm_cpu.a), the same programs on the
# compiled library's light API (psnr_light.cpp, vmaf_light.cpp: vqm/cpu_session.hpp), and the headers alone. CPU time, not wall time: fair on a loaded machine (within ~10 %: caches are shared).
#
#   bench/compile/measure.sh BUILD_TREE_OR_PREFIX [CXX] [extra flags...]
#     BUILD_TREE_OR_PREFIX  a configured build tree (build/release: the source's include/ + its generated/)
#                           or an install prefix (<prefix>/include, <prefix>/lib*/libvqm_cpu.a)
#     CXX                   the compiler (default g++); extra flags go after the usage flags (e.g. -O0)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: measure.sh BUILD_TREE_OR_PREFIX [CXX] [flags...]}
root=$(cd "$root" && pwd)
cxx=${2:-g++}
shift $(( $# >= 2 ? 2 : 1 ))

if [[ -f $root/CMakeCache.txt ]]; then  # a build tree
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$root/CMakeCache.txt")
  includes=(-I"$src/include" -I"$root/generated/include")
  lib=$root/libvqm_cpu.a
elif [[ -d $root/include/vqm ]]; then  # an install prefix
  includes=(-I"$root/include")
  lib=$(ls "$root"/lib*/libvqm_cpu.a 2>/dev/null | head -n1 || true)
else
  echo "measure.sh: $root is neither a build tree (no CMakeCache.txt) nor an install prefix (no include/vqm);" \
       "pass build/release or the prefix given to cmake --install" >&2
  exit 2
fi
# What vqm::cpu carries to its users (vqm-cpu.pc's Cflags), then -O2 as the issue measured.
flags=(-std=c++20 -ffp-contract=off -Wno-psabi -O2 "$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line: what, mode, CPU seconds, peak MB. $1 label, $2 mode, $3 source, rest: extra flags.
measure() {
  local label=$1 mode=$2 source=$3
  shift 3
  if ! /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$cxx" "${flags[@]}" "${includes[@]}" "$@" -c "$source" \
       -o "$tmp/out.o" 2> "$tmp/err"; then
    cat "$tmp/err" >&2
    echo "measure.sh: compiling $source failed" >&2
    exit 1
  fi
  read -r user sys kb < <(tail -n1 "$tmp/time")
  printf '%-22s %-12s %7.1f s %6d MB\n' "$label" "$mode" "$(echo "$user + $sys" | bc)" $(( kb / 1024 ))
}

echo "# $("$cxx" --version | head -n1); $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
echo "# flags: ${flags[*]}"
printf '%-22s %-12s %9s %9s\n' program mode "CPU" "peak"
printf '#include "vqm/vqm.hpp"\n' > "$tmp/core.cpp"
printf '#include "vqm/cpu.hpp"\n' > "$tmp/cpu.cpp"
printf '#include "vqm/cpu_session.hpp"\n' > "$tmp/light.cpp"
measure "vqm/vqm.hpp alone" header-only "$tmp/core.cpp"
measure "vqm/cpu.hpp alone" header-only "$tmp/cpu.cpp"
measure "vqm/cpu.hpp alone" compiled "$tmp/cpu.cpp" -DVQM_CPU_COMPILED
measure "cpu_session.hpp alone" light "$tmp/light.cpp" -DVQM_CPU_COMPILED
# The compiled modes link: the object needs nothing but libvqm_cpu.a.
link() {
  [[ -n $lib && -f $lib ]] || return 0
  "$cxx" "$tmp/out.o" "$lib" -pthread -o "$tmp/a.out" || { echo "measure.sh: $1.o does not link with $lib" >&2; exit 1; }
}
for program in psnr vmaf; do
  measure "$program.cpp" header-only "$here/$program.cpp"
  measure "$program.cpp" compiled "$here/$program.cpp" -DVQM_CPU_COMPILED
  link "$program"
  measure "${program}_light.cpp" light "$here/${program}_light.cpp" -DVQM_CPU_COMPILED
  link "${program}_light"
done
[[ -n $lib && -f $lib ]] || echo "# no libvqm_cpu.a under $root: the compiled objects were not linked"
