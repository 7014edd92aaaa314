#!/usr/bin/env bash
# Builds the DocC documentation of every library, failing on any warning.
#
#   scripts/docs.sh            builds .build/docs/<Module>.doccarchive for each library product
#   scripts/docs.sh --open     the same, then prints how to browse them
#
# Each module's catalog (Sources/<Module>/<Module>.docc, if it has one) is built with the
# toolchain's `docc convert --warnings-as-errors` from the symbol graphs of the debug build that
# scripts/test.sh makes (see scripts/lib/build.sh; nothing is compiled again). Broken symbol links,
# unknown articles and doc comments DocC cannot read are warnings, so they fail the build.
# The Swift code in the articles is compiled by `swift build` through Snippets/ (scripts/snippets.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh

read_library_modules
modules=("${LIBRARY_MODULES[@]}")

dump_symbol_graphs
out=.build/docs
rm -rf "$out"
mkdir -p "$out"
for module in "${modules[@]}"; do
  # The module's own graph and its extensions of other modules' types (Module@Other).
  graphs="$out/symbol-graphs/$module"
  mkdir -p "$graphs"
  cp "$SYMBOL_GRAPHS/$module.symbols.json" "$graphs/"
  for extension in "$SYMBOL_GRAPHS/$module@"*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$graphs/"
  done
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  if ! docc convert "${catalog[@]}" --additional-symbol-graph-dir "$graphs" \
      --fallback-display-name "$module" --fallback-bundle-identifier "org.rowkit.$module" \
      --output-path "$out/$module.doccarchive" --warnings-as-errors >"$out/$module.log" 2>&1 \
      || grep -q "warning:\|error:" "$out/$module.log"; then
    cat "$out/$module.log" >&2
    echo "docs: $module: the documentation has warnings (above); RowKit's docs build without any." >&2
    exit 1
  fi
  echo "docs: $module: $out/$module.doccarchive, no warnings"
done
if [ "${1:-}" = "--open" ]; then
  echo "docs: browse one with: (cd $out/RowKit.doccarchive && python3 -m http.server) and open"
  echo "      http://localhost:8000/documentation/rowkit"
fi
