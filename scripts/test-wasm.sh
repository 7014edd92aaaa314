#!/usr/bin/env bash
# Checks the WebAssembly build of the C core (run by scripts/test.sh; a few seconds):
#   1. rebuilds the module from today's CCore/ (scripts/build-wasm.sh) and requires the committed
#      Templates/assets/rowkit-core.wasm.js to be byte-identical. When the compiler or wasi-libc
#      differs from the ones named in the committed file's header, byte identity cannot be
#      expected: then the exports must match and the differential test runs on both modules;
#   2. the differential test (Tests/Wasm/differential.js): seeded random operation sequences,
#      bad calls included, on the native C core and on the module, with identical output;
#   3. the JavaScript wrapper's own tests (node --test Tests/Wasm/wrapper.test.js).
# Usage: scripts/test-wasm.sh [SEED]. Needs node and wasi-libc (scripts/ensure-deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-1}"
committed=Templates/assets/rowkit-core.wasm.js
out=.build-wasm/check
mkdir -p "$out"

echo "== rebuild the module"
scripts/build-wasm.sh --output "$out/rowkit-core.wasm.js"
modules=("$committed")
if cmp -s "$committed" "$out/rowkit-core.wasm.js"; then
  echo "test-wasm: the committed module is the build of today's sources, byte for byte"
elif [ "$(sed -n 4,5p "$committed")" = "$(sed -n 4,5p "$out/rowkit-core.wasm.js")" ]; then
  echo "test-wasm: $committed is not the build of today's sources (same compiler and wasi-libc)." >&2
  echo "  Run scripts/build-wasm.sh and commit $committed." >&2
  exit 1
else
  echo "test-wasm: built with another compiler or wasi-libc than the committed module:"
  sed -n 4,5p "$committed" | sed 's/^/  committed /'
  sed -n 4,5p "$out/rowkit-core.wasm.js" | sed 's/^/  here      /'
  echo "  so the exports must match and both modules must pass the differential test"
  exports() {
    node -e 'const b = Buffer.from(require(require("path").resolve(process.argv[1])), "base64");
      const m = new WebAssembly.Module(b);
      console.log(JSON.stringify([WebAssembly.Module.imports(m), WebAssembly.Module.exports(m)]));' "$1"
  }
  if [ "$(exports "$committed")" != "$(exports "$out/rowkit-core.wasm.js")" ]; then
    echo "test-wasm: the rebuilt module's imports or exports differ from the committed one's" >&2
    exit 1
  fi
  modules+=("$out/rowkit-core.wasm.js")
fi

echo "== differential test: native C core against the module"
"${CC:-clang}" -std=c11 -O1 -Wall -Wextra -Werror -DRK_INTERNAL_CHECKS -ICCore/include CCore/*.c \
  Tests/Wasm/native_runner.c -o "$out/native_runner"
for module in "${modules[@]}"; do
  node Tests/Wasm/differential.js --native "$out/native_runner" --module "$module" --seed "$seed"
done

echo "== wrapper tests"
node --test --test-reporter=spec Tests/Wasm/wrapper.test.js
