#!/usr/bin/env bash
# Builds the plain-C test driver (Tests/CCore/test_ccore.c) twice and runs it:
#   1. clang -fsanitize=address,undefined -fno-sanitize-recover=all (any finding aborts)
#   2. a normal -O1 -g build under valgrind --error-exitcode=1 --leak-check=full
# Both builds define RK_INTERNAL_CHECKS so the invariant checkers and the allocation-failure hook
# are active. Usage: scripts/test-c-sanitizers.sh [operations] [seed]. Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
OPS="${1:-10000}"
SEED="${2:-1}"
OUT="${TMPDIR:-/tmp}/rowkit-c-tests"
mkdir -p "$OUT"
CC="${CC:-clang}"
FLAGS=(-std=c11 -Wall -Wextra -Werror -DRK_INTERNAL_CHECKS -ICCore/include)
SOURCES=(CCore/rk_core.c CCore/rk_offset_tree.c CCore/rk_reuse_pool.c Tests/CCore/test_ccore.c)

echo "== ASan + UBSan build"
"$CC" "${FLAGS[@]}" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
    -fno-sanitize-recover=all -fuse-ld=lld "${SOURCES[@]}" -lm -o "$OUT/test_ccore_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$OUT/test_ccore_asan" "$OPS" "$SEED"

echo "== valgrind build"
"$CC" "${FLAGS[@]}" -O1 -gdwarf-4 "${SOURCES[@]}" -lm -o "$OUT/test_ccore_plain"
# Fewer operations: valgrind runs the driver about 30 times slower.
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all \
    "$OUT/test_ccore_plain" "$((OPS / 10))" "$SEED"

echo "== C core: sanitizers and valgrind clean"
