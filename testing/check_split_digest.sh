#!/bin/bash
# swe run --digest under mpirun prints the digest of the same run on one rank (apps/StateDigest.h):
# the end state's bits, without files. Usage: check_split_digest.sh RANKS SWE MPIEXEC [MPIEXEC
# FLAGS...] -- [SWE RUN ARGUMENTS...]
set -euo pipefail
ranks=$1 swe=$2 mpiexec=$3
shift 3
flags=()
while [ "$1" != "--" ]; do flags+=("$1"); shift; done
shift
one=$("$swe" run "$@" --digest 2>&1) || { echo "$one"; echo "FAIL one rank"; exit 1; }
split=$("$mpiexec" -n "$ranks" "${flags[@]}" "$swe" run "$@" --digest 2>&1) ||
  { echo "$split"; echo "FAIL $ranks ranks"; exit 1; }
a=$(grep '^DIGEST' <<< "$one") b=$(grep '^DIGEST' <<< "$split")
grep -q "split among $ranks ranks" <<< "$split" || { echo "FAIL the run was not split"; exit 1; }
echo "one rank: $a"
echo "$ranks ranks: $b"
[ -n "$a" ] && [ "$a" == "$b" ] && echo PASS || echo FAIL
