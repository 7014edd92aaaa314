#!/usr/bin/env bash
# The one-page list's browser benchmark: exports a generated listing with the release rowkit and
# measures it in headless Chromium at 390x844 (Tests/Browser/one_page_bench.py describes the
# workloads): JS time per frame (p50, p99) for steady scrolling and for far jumps, the tree's
# share of each frame, time to first rows, row nodes alive, JS heap and module memory.
#   scripts/bench-browser.sh [ROWS] [ROUNDS]          defaults: 1000000 3
#   scripts/bench-browser.sh --site DIR ROWS [ROUNDS]  an exported site of `generate-example` rows
# Needs Chromium and .build/browser-venv (scripts/ensure-deps.sh --test installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh
site=""
if [[ "${1:-}" == "--site" ]]; then
  site="$2"
  shift 2
fi
rows="${1:-1000000}"
rounds="${2:-3}"
python=.build/browser-venv/bin/python
if ! "$python" -c 'import playwright' >/dev/null 2>&1; then
  scripts/ensure-deps.sh --test
fi
if [[ -z "$site" ]]; then
  swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product rowkit >&2
  work="$(mktemp -d "${TMPDIR:-/tmp}/rowkit-bench-browser.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "exporting $rows rows to $work/site" >&2
  .build/release/rowkit generate-example --rows "$rows" --format csv -o "$work/listing.csv"
  .build/release/rowkit export "$work/listing.csv" -o "$work/site" --section-by section -q
  site="$work/site"
fi
"$python" Tests/Browser/one_page_bench.py --site "$site" --rows "$rows" --rounds "$rounds"
