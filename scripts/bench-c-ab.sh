#!/usr/bin/env bash
# Compares the C offset tree of two versions in one process (Tests/CCore/bench_ab.c says how):
# medians of ns per operation at 1,000,000 rows, each version against the plain-C references, and
# B / A. A tool for changes to CCore/: interleaved rounds in one process show differences of a few
# percent that separate runs on a noisy machine hide.
#
#   scripts/bench-c-ab.sh REV_A REV_B [ROUNDS]    a git revision, or "worktree" for CCore/ as it is
#
# Linux (GNU binutils' ld -r, nm and objcopy rename each version's symbols). Builds into .build-ab/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/bench-c-ab.sh REV_A REV_B [ROUNDS]" >&2; exit 2; }
cc="${CC:-clang}"
out=.build-ab
rm -rf "$out"
mkdir -p "$out"
for side in A B; do
  rev=$([ "$side" = A ] && echo "$1" || echo "$2")
  src="$out/$side-src"
  mkdir -p "$src"
  if [ "$rev" = worktree ]; then
    cp -R CCore/. "$src/"
  else
    git archive "$rev" CCore | tar -x -C "$src" --strip-components=1
  fi
  for file in rk_offset_tree rk_core; do
    "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$src/include" -I"$src" -c "$src/$file.c" -o "$out/$side-$file.o"
  done
  ld -r "$out/$side-rk_offset_tree.o" "$out/$side-rk_core.o" -o "$out/$side-joined.o"
  nm -g --defined-only "$out/$side-joined.o" | awk -v p="$side" '{ print $3, p "_" $3 }' >"$out/$side.map"
  objcopy --redefine-syms="$out/$side.map" "$out/$side-joined.o" "$out/$side.o"
done
"$cc" -std=c11 -O2 -Wall -Wextra -Werror -ICCore/include -ISources/CBenchReference/include \
  Tests/CCore/bench_ab.c "$out/A.o" "$out/B.o" Sources/CBenchReference/rk_reference.c -lm -o "$out/bench_ab"
echo "A: $1  B: $2"
"$out/bench_ab" "${3:-21}"
