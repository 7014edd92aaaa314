#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build the rowkit tool in release
# mode, and export the bundled settings example to site/.
#   scripts/export-example.sh [LISTING] [OUTPUT]     (defaults: Examples/settings.yaml site)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
source scripts/lib/build.sh

input="${1:-Examples/settings.yaml}"
output="${2:-site}"
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product rowkit 2>&1 | drop_dependency_notes
"$(swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --show-bin-path 2> >(drop_dependency_notes >&2))/rowkit" export "$input" --output "$output"
