#!/bin/bash
# swe run under mpirun gives the files of the same run on one rank, bit for bit (compared by
# python/compare_split_run.py), and the same gauges.csv where the run has gauges. Usage: check_split_run.sh OUT RANKS PVPYTHON SWE MPIEXEC
# [MPIEXEC FLAGS...] -- [SWE RUN ARGUMENTS...]
set -euo pipefail
out=$1 ranks=$2 pvpython=$3 swe=$4 mpiexec=$5
shift 5
flags=()
while [ "$1" != "--" ]; do flags+=("$1"); shift; done
shift
rm -rf "$out" && mkdir -p "$out"
"$swe" run "$@" --out "$out/one" > "$out/one.log" 2>&1 || { cat "$out/one.log"; echo "FAIL one rank"; exit 1; }
"$mpiexec" -n "$ranks" "${flags[@]}" "$swe" run "$@" --out "$out/split" > "$out/split.log" 2>&1 ||
  { cat "$out/split.log"; echo "FAIL $ranks ranks"; exit 1; }
cat "$out/split.log"
grep -q "split among $ranks ranks" "$out/split.log" || { echo "FAIL the run was not split"; exit 1; }
"$pvpython" "$(dirname "$0")/python/compare_split_run.py" "$out/one" "$out/split"
if [ -f "$out/one/gauges.csv" ]; then
  cmp "$out/one/gauges.csv" "$out/split/gauges.csv" || { echo "FAIL gauges.csv differs"; exit 1; }
  echo "gauges.csv: the same bytes"
fi
