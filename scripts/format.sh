#!/usr/bin/env bash
# Formats RowKit's Swift code with the toolchain's swift-format and the checked-in .swift-format.
#
#   scripts/format.sh          formats every Swift file in place
#   scripts/format.sh --lint   changes nothing; lists every departure from the format and every
#                              lint finding (`swift format lint --strict`), and exits 1 if any
#   scripts/format.sh FILE...  formats (or with --lint first, lints) only these files
#
# Every Swift file git knows or would add (`git ls-files`, ignored files left out), except
# Snippets/ and scripts/doc-comments/: those hold the README's, the DocC articles' and the doc
# comments' code exactly as the documents show it (scripts/snippets.py), so the documents are where
# that code is formatted.
#
# The style (.swift-format): 4-space indentation, lines up to 120 columns, line breaks the author
# made are kept, no indentation inside #if, and three rules off because the code uses what they
# forbid on purpose: DoNotUseSemicolons (`case 0xE0: length = 3; low = 0xA0`),
# OneVariableDeclarationPerLine (`var s0 = 0.0, s1 = 0.0`) and OnlyOneTrailingClosureArgument
# (the benchmarks' `harness.nanosecondsPerRun(setup: { state }) { state in timed body }`, where the
# untimed setup is named and the timed body trails).
set -euo pipefail
cd "$(dirname "$0")/.."

lint=0
if [ "${1:-}" = "--lint" ]; then
  lint=1
  shift
fi
files=("$@")
if [ "${#files[@]}" -eq 0 ]; then
  while IFS= read -r file; do files+=("$file"); done < <(
    git ls-files --cached --others --exclude-standard -- '*.swift' ':!:Snippets/*' ':!:scripts/doc-comments/*' | sort -u)
fi

if [ "$lint" = 1 ]; then
  exec swift format lint --strict --parallel --configuration .swift-format "${files[@]}"
fi
swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
