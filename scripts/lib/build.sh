# Sourced by the scripts that build RowKit (scripts/test.sh, api.sh, docs.sh, and the release builds
# of export-example.sh, bench-hugo.sh and bench-browser.sh).
#
# BUILD_FLAGS: warnings are errors. C with -Wall -Wextra -Werror, Swift with -warnings-as-errors
# (Swift 6 mode). They live here, not in Package.swift, because a package fetched by URL may not
# carry unsafe flags. SwiftPM reads a trailing -Xcc -Werror as a warning-group option, so -Werror
# comes first. Every build of the same folder uses the same flags: SwiftPM rebuilds everything
# when they change.
BUILD_FLAGS=(-Xcc -Werror -Xcc -Wall -Xcc -Wextra -Xswiftc -warnings-as-errors)

# RELEASE_FLAGS: what the release builds of the tools add (scripts/export-example.sh, bench-hugo.sh,
# bench-browser.sh, and the README's commands). On Linux, --static-swift-stdlib links the Swift
# runtime and Foundation into the binary: one file that runs where Swift is not installed, and
# calls into the runtime (every retain and release) are direct instead of through the dynamic
# linker's tables, about 5% less CPU for an export. The toolchain's lld links it: GNU gold warns
# that the static Foundation uses mktemp (its own temporary files, nothing of RowKit's), and lld,
# which the Swift toolchain ships, gives the same binary without the warning. macOS ships the
# runtime with the system.
# Every release build of the folder must use the same flags: a change rebuilds everything. Expand
# it as ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"}: an empty array is an error under set -u in bash 3.
RELEASE_FLAGS=()
if [ "$(uname -s)" = Linux ]; then RELEASE_FLAGS=(--static-swift-stdlib -Xswiftc -use-ld=lld); fi

# dump_symbol_graphs: writes the public symbol graphs of every module of the debug build (made
# with BUILD_FLAGS, so nothing is compiled again) and sets SYMBOL_GRAPHS to their folder.
dump_symbol_graphs() {
  local log
  log=$(mktemp)
  if ! swift package "${BUILD_FLAGS[@]}" dump-symbol-graph \
      --minimum-access-level public --skip-synthesized-members >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  SYMBOL_GRAPHS=$(sed -n 's/^Files written to //p' "$log" | tail -1)
  rm -f "$log"
  if [ ! -d "$SYMBOL_GRAPHS" ]; then
    echo "dump-symbol-graph wrote no symbol graphs" >&2
    return 1
  fi
}

# read_library_modules: sets LIBRARY_MODULES to the targets of every library product in
# Package.swift, so a library added there is checked without further edits; fails if there are none.
read_library_modules() {
  LIBRARY_MODULES=()
  local module
  while IFS= read -r module; do LIBRARY_MODULES+=("$module"); done < <(
    swift package describe --type json | python3 -c '
import json, sys
products = json.load(sys.stdin)["products"]
print("\n".join(sorted({t for p in products if "library" in p["type"] for t in p["targets"]})))')
  if [ "${#LIBRARY_MODULES[@]}" -eq 0 ]; then
    echo "found no library products in Package.swift" >&2
    return 1
  fi
}

# drop_dependency_notes: copies its input, less SwiftPM's notes about files a dependency's own
# manifest leaves undeclared ("found 1 file(s) which are unhandled" and the path under
# .build/checkouts that follows). They concern the dependency, not RowKit or its user.
drop_dependency_notes() {
  awk '/^warning: .[^ ]+.: found [0-9]+ file\(s\) which are unhandled/ { skip = 1; next }
       skip && /^ +.*\/\.build\/checkouts\// { next }
       { skip = 0; print; fflush() }'
}
