#!/usr/bin/env bash
# Compares the C offset tree of two versions in one process (Tests/CCore/bench_ab.c says how):
# medians of ns per operation at 1,000,000 rows, each version against the plain-C references, and
# B / A. A tool for changes to CCore/: interleaved rounds in one process show differences of a few
# percent that separate runs on a noisy machine hide.
#
#   scripts/bench-c-ab.sh REV_A REV_B [ROUNDS]    a git revision, or "worktree" for CCore/ as it is
#
# The process favours the version in the first slot: the same code in both slots (an A/A run) read
# B / A = 1.04-1.13 on the 2-core machine of the README. So the script runs twice, the second time
# with the versions swapped, and its last table gives B / A as the geometric mean of the two runs
# (sqrt(first B/A x second A/B)), in which the slot's bias cancels.
#
# Linux (GNU binutils' ld -r, nm and objcopy rename each version's symbols). Builds into .build-ab/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/bench-c-ab.sh REV_A REV_B [ROUNDS]" >&2; exit 2; }
cc="${CC:-clang}"
out=.build-ab
rm -rf "$out"
mkdir -p "$out"
# version_object VERSION REV PREFIX: CCore/ of REV compiled into $out/VERSION-PREFIX.o, symbols PREFIX_...
version_object() {
  local src="$out/$1-src"
  if [ ! -d "$src" ]; then
    mkdir -p "$src"
    if [ "$2" = worktree ]; then cp -R CCore/. "$src/"; else git archive "$2" CCore | tar -x -C "$src" --strip-components=1; fi
    for file in rk_offset_tree rk_core; do
      "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$src/include" -I"$src" -c "$src/$file.c" -o "$out/$1-$file.o"
    done
    ld -r "$out/$1-rk_offset_tree.o" "$out/$1-rk_core.o" -o "$out/$1-joined.o"
  fi
  nm -g --defined-only "$out/$1-joined.o" | awk -v p="$3" '{ print $3, p "_" $3 }' >"$out/$1-$3.map"
  objcopy --redefine-syms="$out/$1-$3.map" "$out/$1-joined.o" "$out/$1-$3.o"
}
version_object first "$1" A
version_object second "$2" B
version_object second "$2" A
version_object first "$1" B
link() {
  "$cc" -std=c11 -O2 -Wall -Wextra -Werror -ICCore/include -ISources/CBenchReference/include \
    Tests/CCore/bench_ab.c "$2" "$3" Sources/CBenchReference/rk_reference.c -lm -o "$out/$1"
}
link bench_ab "$out/first-A.o" "$out/second-B.o"
link bench_ba "$out/second-A.o" "$out/first-B.o"
rounds="${3:-21}"
echo "A: $1  B: $2"
"$out/bench_ab" "$rounds" | tee "$out/ab.txt"
echo
echo "swapped slots (A: $2  B: $1)"
"$out/bench_ba" "$rounds" | tee "$out/ba.txt"
echo
echo "B / A, both runs (geometric mean of B/A and 1 / swapped B/A)"
awk 'NR == FNR { if ($NF ~ /^[0-9.]+$/ && $1 != "op") first[$1] = $NF; next }
     $NF ~ /^[0-9.]+$/ && ($1 in first) { printf "%-10s %7.3f\n", $1, sqrt(first[$1] / $NF) }' \
  "$out/ab.txt" "$out/ba.txt"
