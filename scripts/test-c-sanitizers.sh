#!/usr/bin/env bash
# Builds the plain-C test driver (Tests/CCore/test_ccore.c) twice and runs both at once:
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

# The two builds first, then both runs at once (each is one thread; together they take the time of
# the longer one), each into a log that is printed when both have ended.
echo "== ASan + UBSan build"
"$CC" "${FLAGS[@]}" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
    -fno-sanitize-recover=all -fuse-ld=lld "${SOURCES[@]}" -lm -o "$OUT/test_ccore_asan"

echo "== valgrind build"
"$CC" "${FLAGS[@]}" -O1 -gdwarf-4 "${SOURCES[@]}" -lm -o "$OUT/test_ccore_plain"

echo "== ASan + UBSan run and valgrind run, side by side"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$OUT/test_ccore_asan" "$OPS" "$SEED" >"$OUT/asan.log" 2>&1 &
asan_pid=$!
valgrind_status=0
# Fewer operations: valgrind runs the driver about 30 times slower.
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all \
    "$OUT/test_ccore_plain" "$((OPS / 10))" "$SEED" >"$OUT/valgrind.log" 2>&1 || valgrind_status=$?
asan_status=0
wait "$asan_pid" || asan_status=$?
echo "-- ASan + UBSan ($OPS operations):"
cat "$OUT/asan.log"
echo "-- valgrind ($((OPS / 10)) operations):"
cat "$OUT/valgrind.log"
if [ "$asan_status" -ne 0 ] || [ "$valgrind_status" -ne 0 ]; then
  echo "C core: ASan + UBSan exit $asan_status, valgrind exit $valgrind_status" >&2
  exit 1
fi

echo "== C core: sanitizers and valgrind clean"
