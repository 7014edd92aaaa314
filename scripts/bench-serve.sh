#!/usr/bin/env bash
# The live-listing benchmark: edit to painted in Chromium with `rowkit serve`, side by side with
# `hugo server` on the same rows in the same run (scripts/bench_serve.py says what is timed).
#
#   scripts/bench-serve.sh [--rows N ...] [--edits N] [--hugo-rows N] [--format yaml|csv]
#                                 default: 10,000 and 100,000 rows, 5 edits each, Hugo at 100,000,
#                                 a YAML listing (csv: `rowkit serve rows.csv --section-by section`)
#   scripts/bench-serve.sh --one-page ROWS [--edits N]
#                                 a table of one page: changes drawn from the changeset's records
#                                 against the page fetched after the export, side by side
#
# Builds rowkit in release, installs Debian's hugo when missing, and uses the Playwright of
# scripts/ensure-deps.sh --test. Prints one table row per size; figures go in docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh
scripts/ensure-deps.sh --test
if ! command -v hugo >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "bench-serve: installing hugo with apt-get" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends hugo >/dev/null
fi
echo "bench-serve: building rowkit (release)" >&2
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product rowkit >/dev/null
exec .build/browser-venv/bin/python scripts/bench_serve.py --rowkit .build/release/rowkit "$@"
