#!/usr/bin/env bash
# Everything the project checks, as CI runs it (.ci/run calls this script):
#   1. installs what a fresh machine lacks (libcmark-dev, libyaml-dev, chromium, valgrind, fonts,
#      node, node-typescript, wasi-libc, axe-core);
#   2. type-checks the pages' JavaScript (Templates/assets/*.js: tsc --checkJs, Tests/JS/tsconfig.json)
#      and runs its unit tests (node --test Tests/JS); builds everything with warnings as errors
#      (the flags and why they are not in Package.swift: scripts/lib/build.sh), the Swift code of the README and the DocC articles (Snippets/) too;
#   3. runs the Swift test suite (swift test; the browser suites after the rest, one at a time);
#      checks `rowkit serve` from outside with raw requests (Tests/Serve/serve_test.py);
#      lints the Swift code against .swift-format (scripts/format.sh --lint); checks the public
#      API against api/ (scripts/api.sh);
#      checks that each folder of RowKit, RowKitListing and RowKitHTML uses only the folders
#      listed before it in its module's docs (scripts/layering.py);
#      checks that Snippets/ holds the docs' code as written and runs it, and type-checks the doc
#      comments' examples (scripts/snippets.py, scripts/doc-comments/), and
#      builds the DocC documentation, failing on any warning (scripts/docs.sh);
#   4. rebuilds the C core's WebAssembly module, fails if the committed one differs, and runs the
#      differential test of the module against the native core (scripts/test-wasm.sh);
#   5. runs the C core's test driver under AddressSanitizer + UndefinedBehaviorSanitizer and
#      under valgrind memcheck, and one round of the C A/B benchmark tool (scripts/bench-c-ab.sh),
#      so that it keeps building;
#   6. runs the concurrent parts of the Swift suite under ThreadSanitizer;
#   7. runs each libFuzzer target for FUZZ_SECONDS (default 40 here, to keep CI within 20 minutes on
#      two cores; scripts/fuzz.sh --long runs 10 minutes each) and fails on any finding;
#   8. runs the attack corpus (scripts/attack-corpus.py: hostile listings, images, outputs, flags,
#      signals, concurrent exports, a full disk) against the built rowkit and fails on any crash,
#      unclean error, write on error or executable output;
#   9. builds and runs Examples/Embedding against a tagged clone, by URL (scripts/test-embedding.sh),
#      beside the fuzzers (they run for a fixed time).
# Set QUICK=1 to run steps 1-3 only (for local iteration; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh --test

# Each step's header carries the seconds since the start, so a CI log shows where the time goes.
started=$(date +%s)
step() { printf '\n== %s (at %d s)\n' "$*" "$(($(date +%s) - started))"; }

source scripts/lib/build.sh

step "page scripts: type check (tsc --checkJs) and unit tests (node --test)"
tsc -p Tests/JS/tsconfig.json
node --test Tests/JS/

step "build (warnings are errors)"
log=$(mktemp)
swift build --build-tests "${BUILD_FLAGS[@]}" 2>&1 | tee "$log"
# SwiftPM's notes on dependencies' own manifests (a file a dependency does not declare) are not
# RowKit's warnings; everything else is.
if grep -E '(^|: )warning:' "$log" | grep -v '^warning: .*Package.resolved' \
  | grep -vE "^warning: '[^']+': found [0-9]+ file\(s\) which are unhandled" >/dev/null; then
  echo "test: the build printed warnings (see above); RowKit builds without warnings." >&2
  exit 1
fi

step "swift test"
# The browser suites run afterwards, one at a time, so a frame's timing in Chromium is the page's
# own and not the rest of the suite's building and testing on the same cores.
swift test --skip-build --skip BrowserTests

step "browser tests (Chromium, one suite at a time)"
swift test --skip-build --no-parallel --filter BrowserTests

step "rowkit serve: raw requests, the event stream, edits, export equality (Tests/Serve)"
python3 Tests/Serve/serve_test.py --rowkit "$(swift build --show-bin-path)/rowkit"

step "Examples/LiveTable: its page follows the processes without reloading (Chromium)"
.build/browser-venv/bin/python Tests/Serve/livetable_test.py --livetable "$(swift build --show-bin-path)/LiveTable"

step "format: swift format lint --strict (scripts/format.sh --lint)"
scripts/format.sh --lint

step "public API against api/"
scripts/api.sh

step "layering: each folder uses only the folders before it (scripts/layering.py)"
python3 scripts/layering.py

step "docs: the code in them, and DocC without warnings"
python3 scripts/snippets.py
python3 scripts/snippets.py --run "$(swift build --show-bin-path)"
python3 scripts/snippets.py --typecheck "$(swift build --show-bin-path)"
scripts/docs.sh

if [ "${QUICK:-0}" = 1 ]; then
  exit 0
fi

step "C core as WebAssembly: rebuild check and differential test"
scripts/test-wasm.sh

step "C core under ASan/UBSan and valgrind"
scripts/test-c-sanitizers.sh

step "C core: the A/B benchmark tool builds and runs (one round; no timing is checked)"
scripts/bench-c-ab.sh worktree worktree 1

step "concurrent Swift tests under ThreadSanitizer"
# Only the test bundle and what it needs are built (not the snippets or rowkit-bench's executable).
swift build --sanitize=thread --scratch-path .build-tsan --product RowKitPackageTests
swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "${TSAN_FILTER:-ConcurrentUseTests|SnapshotDiffTests|TableModelSnapshotTests|TableViewEventTests|ReadAheadTests/whenALarge|ReadAheadTests/whenAReadAheadIsStopped}"

# The fuzzers run for a fixed time, so the embedding example (a build of its own) runs beside
# them; its output is printed, and its status checked, after the attack corpus.
embedding_log=$(mktemp)
scripts/test-embedding.sh >"$embedding_log" 2>&1 &
embedding_pid=$!

step "fuzzing"
scripts/fuzz.sh "${FUZZ_SECONDS:-40}"

step "attack corpus"
python3 scripts/attack-corpus.py --rowkit "$(swift build --show-bin-path)/rowkit"

step "Examples/Embedding: RowKit by URL at a tag (run beside the fuzzers)"
embedding_status=0
wait "$embedding_pid" || embedding_status=$?
cat "$embedding_log"
rm -f "$embedding_log"
if [ "$embedding_status" -ne 0 ]; then
  echo "test: the embedding example failed (exit $embedding_status)" >&2
  exit 1
fi
printf "\n== all checks passed in %d s\n" "$(($(date +%s) - started))"
