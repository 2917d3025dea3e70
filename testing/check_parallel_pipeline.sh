#!/bin/bash
# The Shallow Water source and solver under pvbatch on several MPI ranks give the data of pvbatch
# alone, bit for bit (python/parallel_pipeline.py makes it, python/compare_split_run.py compares).
# Usage: check_parallel_pipeline.sh OUT RANKS PVBATCH PVPYTHON PLUGIN DATA MPIEXEC [FLAGS...]
set -euo pipefail
out=$1 ranks=$2 pvbatch=$3 pvpython=$4 plugin=$5 data=$6 mpiexec=$7
shift 7
here=$(dirname "$0")
rm -rf "$out"
"$pvbatch" "$here/python/parallel_pipeline.py" "$plugin" "$data" "$out/one" vti > "$out.one.log" 2>&1 ||
  { cat "$out.one.log"; echo "FAIL pvbatch alone"; exit 1; }
"$mpiexec" -n "$ranks" "$@" "$pvbatch" "$here/python/parallel_pipeline.py" "$plugin" "$data" \
  "$out/split" pvti > "$out.split.log" 2>&1 ||
  { cat "$out.split.log"; echo "FAIL pvbatch on $ranks ranks"; exit 1; }
pairs=()
for one in "$out"/one/*.vti; do
  name=$(basename "$one" .vti)
  pairs+=("$one" "$out/split/$name.pvti")
  # Each rank wrote its own piece.
  pieces=$(grep -c "<Piece " "$out/split/$name.pvti")
  [ "$pieces" = "$ranks" ] || { echo "FAIL $name.pvti has $pieces pieces, not $ranks"; exit 1; }
done
"$pvpython" "$here/python/compare_split_run.py" --field-data="$ranks" "${pairs[@]}"
# The Gauges and Diagnostics tables the client gets: the same rows, once, with the same bits.
for table in "$out"/one/*.csv; do
  name=$(basename "$table")
  [ "$(wc -l < "$table")" -ge 2 ] || { echo "FAIL $name has no rows"; exit 1; }
  cmp "$table" "$out/split/$name" || { echo "FAIL $name differs under mpirun"; exit 1; }
done
echo "tables: the same rows"
