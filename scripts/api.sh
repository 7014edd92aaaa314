#!/usr/bin/env bash
# RowKit's public API, checked against a baseline, so that an API change is a reviewed change.
#
#   scripts/api.sh            compares each library's public API with api/<Module>.txt; prints
#                             the difference and exits 1 when they differ
#   scripts/api.sh --update   rewrites api/<Module>.txt (review the diff, commit it with the change)
#
# Checked: the targets of every library product in Package.swift. The API comes from the symbol graphs of the debug build that scripts/test.sh makes (a `swift
# build` with the flags in scripts/lib/build.sh; nothing is compiled again), as text by
# scripts/api-listing.py: one public declaration a line, sorted by qualified name.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh

# Every target of every library product, as Package.swift declares them: a new library has no
# baseline until `--update` writes one, and the check fails until then.
read_library_modules
modules=("${LIBRARY_MODULES[@]}")

update=0
case "${1:-}" in
  --update) update=1 ;;
  "") ;;
  *) echo "usage: scripts/api.sh [--update]" >&2; exit 2 ;;
esac

dump_symbol_graphs
mkdir -p api
status=0
for module in "${modules[@]}"; do
  if [ ! -f "$SYMBOL_GRAPHS/$module.symbols.json" ]; then
    echo "api: no symbol graph for $module; build it first (scripts/test.sh, or swift build with the flags in scripts/lib/build.sh)" >&2
    exit 2
  fi
  listing=$(mktemp)
  python3 scripts/api-listing.py "$module" "$SYMBOL_GRAPHS" >"$listing"
  count=$(wc -l <"$listing" | tr -d ' ')
  if [ "$update" = 1 ]; then
    mv "$listing" "api/$module.txt"
    echo "api: $module: $count public declarations written to api/$module.txt"
  elif [ ! -f "api/$module.txt" ]; then
    echo "api: $module has no baseline; run scripts/api.sh --update and commit api/$module.txt" >&2
    rm -f "$listing"
    status=1
  elif diff -u --label "api/$module.txt (baseline)" --label "$module (this build)" "api/$module.txt" "$listing"; then
    echo "api: $module: $count public declarations, as in api/$module.txt"
    rm -f "$listing"
  else
    echo "api: the public API of $module differs from api/$module.txt (above: - removed, + added)." >&2
    echo "api: if the change is meant, run scripts/api.sh --update and commit api/$module.txt with it." >&2
    rm -f "$listing"
    status=1
  fi
done
for baseline in api/*.txt; do
  module=$(basename "$baseline" .txt)
  if [[ " ${modules[*]} " != *" $module "* ]]; then
    echo "api: $baseline is the baseline of $module, which is no library product; remove it if that is meant" >&2
    status=1
  fi
done
exit "$status"
