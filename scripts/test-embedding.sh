#!/usr/bin/env bash
# Builds and runs Examples/Embedding against RowKit fetched by URL at a version tag, as an app that
# depends on RowKit does, with the README's commands:
#   1. clones this repository at HEAD (committed work only) into a temporary folder and tags the
#      clone 0.1.0, after dropping the clone's other tags so that 0.1.0 is the one SwiftPM picks;
#   2. in the clone, `swift run --package-path Examples/Embedding embedding`: the manifest names the
#      enclosing clone by its file:// URL, SwiftPM fetches it at 0.1.0, builds the example in its
#      own scratch folder and runs it; the example checks its own results and exits non-zero when
#      one is wrong;
#   3. copies the example out of the clone, as an app elsewhere, and resolves it with ROWKIT_URL set
#      to a bare copy of the clone (`file://…/RowKit.git`): RowKit must resolve at 0.1.0 from there.
# The temporary folder is removed at the end (KEEP=1 keeps it and prints where it is).
#
#   scripts/test-embedding.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tmp="${TMPDIR:-/tmp}"
work=$(mktemp -d "$tmp/rowkit-embedding.XXXXXX")
# SwiftPM leaves lock files named after each scratch folder in the temporary folder
# (/tmp/_tmp_rowkit-embedding.XXXXXX_..._.build.lock, ...); they go with the rest.
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
echo "embedding: RowKit $(git -C "$clone" rev-parse --short HEAD) tagged 0.1.0 in $clone"

echo "embedding: swift run --package-path Examples/Embedding embedding (RowKit from file://$clone)"
(cd "$clone" && env -u ROWKIT_URL swift run --package-path Examples/Embedding embedding)

echo "embedding: an app elsewhere, with ROWKIT_URL=file://$work/RowKit.git"
git clone --quiet --bare "$clone" "$work/RowKit.git"
mkdir "$work/app"
cp -R "$clone/Examples/Embedding/Package.swift" "$clone/Examples/Embedding/Sources" "$work/app/"
dependencies=$(ROWKIT_URL="file://$work/RowKit.git" swift package --package-path "$work/app" show-dependencies 2>&1)
if ! grep -q "$work/RowKit.git@0.1.0>" <<<"$dependencies"; then
  echo "$dependencies" >&2
  echo "embedding: with ROWKIT_URL set, RowKit did not resolve to file://$work/RowKit.git at 0.1.0" >&2
  exit 1
fi
echo "embedding: resolved RowKit 0.1.0 from file://$work/RowKit.git"
