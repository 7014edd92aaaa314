#!/usr/bin/env bash
# Measures the WebAssembly offset tree under node beside the native C tree on this machine: the
# same workloads, rows and random sequence (Tests/Wasm/bench.js describes them), medians of ns per
# operation and their ratio.
#   scripts/bench-wasm.sh [ROWS] [ROUNDS]     defaults: 1000000 31
# Uses the committed module (Templates/assets/rowkit-core.wasm.js; scripts/build-wasm.sh rebuilds
# it). The native half is built with clang -O2, as a release build of the package is.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-wasm
mkdir -p "$out"
"${CC:-clang}" -std=c11 -O2 -Wall -Wextra -Werror -ICCore/include CCore/*.c Tests/Wasm/bench_native.c \
  -lm -o "$out/bench_native"
node Tests/Wasm/bench.js --native "$out/bench_native" --rows "${1:-1000000}" --rounds "${2:-31}"
