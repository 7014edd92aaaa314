#!/usr/bin/env bash
# Everything the project checks, as CI runs it (.ci/run calls this script):
#   1. installs what a fresh machine lacks (libcmark-dev, chromium, valgrind, fonts, node,
#      wasi-libc);
#   2. builds everything with warnings as errors: C with -Wall -Wextra -Werror, Swift with
#      -warnings-as-errors (Swift 6 mode). The flags live here, not in Package.swift, because a
#      package fetched by URL may not carry unsafe flags;
#   3. runs the Swift test suite (swift test);
#   4. rebuilds the C core's WebAssembly module, fails if the committed one differs, and runs the
#      differential test of the module against the native core (scripts/test-wasm.sh);
#   5. runs the C core's test driver under AddressSanitizer + UndefinedBehaviorSanitizer and
#      under valgrind memcheck;
#   6. runs the concurrent parts of the Swift suite under ThreadSanitizer;
#   7. runs each libFuzzer target for FUZZ_SECONDS (default 60) and fails on any finding;
#   8. runs the attack corpus (scripts/attack-corpus.py: hostile listings, images, outputs, flags,
#      signals, concurrent exports, a full disk) against the built rowkit and fails on any crash,
#      unclean error, write on error or executable output.
# Set QUICK=1 to run steps 1-3 only (for local iteration; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh --test

step() { printf '\n== %s\n' "$*"; }

step "build (warnings are errors)"
log=$(mktemp)
# SwiftPM reads a trailing -Xcc -Werror as a warning-group option, so -Werror comes first.
swift build --build-tests -Xcc -Werror -Xcc -Wall -Xcc -Wextra -Xswiftc -warnings-as-errors 2>&1 | tee "$log"
if grep -E '(^|: )warning:' "$log" | grep -v '^warning: .*Package.resolved' >/dev/null; then
  echo "test: the build printed warnings (see above); RowKit builds without warnings." >&2
  exit 1
fi

step "swift test"
swift test --skip-build

if [ "${QUICK:-0}" = 1 ]; then
  exit 0
fi

step "C core as WebAssembly: rebuild check and differential test"
scripts/test-wasm.sh

step "C core under ASan/UBSan and valgrind"
scripts/test-c-sanitizers.sh

step "concurrent Swift tests under ThreadSanitizer"
swift test --sanitize=thread --scratch-path .build-tsan --filter "${TSAN_FILTER:-ConcurrentUseTests|SnapshotDiffTests|TableModelSnapshotTests|TableViewEventTests}"

step "fuzzing"
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"

step "attack corpus"
python3 scripts/attack-corpus.py --rowkit "$(swift build --show-bin-path)/rowkit"
