#!/usr/bin/env bash
# Builds and runs Examples/Embedding against RowKit fetched by URL at a version tag, as an app that
# depends on RowKit does:
#   1. clones this repository at HEAD into a temporary folder (committed work only) and tags the
#      clone 0.1.0, after dropping the clone's other tags so that 0.1.0 is the one SwiftPM picks;
#   2. builds the clone's Examples/Embedding with ROWKIT_URL=file://<clone>, in a scratch folder of
#      its own in the same temporary folder, and runs it; the example checks its own results and
#      exits non-zero when one is wrong.
# The temporary folder is removed at the end (KEEP=1 keeps it and prints where it is).
#
#   scripts/test-embedding.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tmp="${TMPDIR:-/tmp}"
work=$(mktemp -d "$tmp/rowkit-embedding.XXXXXX")
# SwiftPM leaves lock files named after the scratch folder in the temporary folder
# (/tmp/_tmp_rowkit-embedding.XXXXXX_build.lock, ...); they go with the rest.
locks="$tmp/$(printf '%s' "$work" | tr / _)_"
if [ "${KEEP:-0}" = 1 ]; then
  trap 'echo "embedding: kept $work"' EXIT
else
  trap 'rm -rf "$work" "$locks"*.lock' EXIT
fi

clone="$work/RowKit"
git clone --quiet --no-hardlinks . "$clone"
git -C "$clone" tag --list | while read -r tag; do git -C "$clone" tag --delete "$tag" >/dev/null; done
git -C "$clone" tag 0.1.0
echo "embedding: RowKit $(git -C "$clone" rev-parse --short HEAD) tagged 0.1.0 at file://$clone"

export ROWKIT_URL="file://$clone"
example="$clone/Examples/Embedding"
swift build --package-path "$example" --scratch-path "$work/build"
"$work/build/debug/embedding" "$work/site"
