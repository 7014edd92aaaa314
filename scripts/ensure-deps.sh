#!/usr/bin/env bash
# Installs what RowKit needs on a fresh machine, and nothing that is already there.
#   scripts/ensure-deps.sh          libcmark (the exporter's Markdown renderer) and libyaml (the
#                                   listing reader's YAML parser)
#   scripts/ensure-deps.sh --test   also Chromium (browser test), valgrind and fonts
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: Homebrew.
set -euo pipefail

want_test_deps=0
[ "${1:-}" = "--test" ] && want_test_deps=1

if ! command -v swift >/dev/null 2>&1; then
  echo "rowkit: swift is not on PATH; install Swift 6 (https://www.swift.org/install) first." >&2
  exit 69
fi

case "$(uname -s)" in
  Darwin)
    formulas=()
    pkg-config --exists libcmark 2>/dev/null || formulas+=(cmark)
    pkg-config --exists yaml-0.1 2>/dev/null || formulas+=(libyaml)
    if [ "${#formulas[@]}" -gt 0 ]; then
      command -v brew >/dev/null 2>&1 || { echo "rowkit: Homebrew is needed to install ${formulas[*]}" >&2; exit 69; }
      brew install "${formulas[@]}" pkg-config
    fi
    ;;
  Linux)
    missing=()
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    if ! pkg-config --exists libcmark 2>/dev/null; then missing+=(libcmark-dev); fi
    if ! pkg-config --exists yaml-0.1 2>/dev/null; then missing+=(libyaml-dev); fi
    if [ "$want_test_deps" = 1 ]; then
      command -v chromium >/dev/null 2>&1 || missing+=(chromium)
      command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
      command -v script >/dev/null 2>&1 || missing+=(bsdutils)
      [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
      sudo=""
      [ "$(id -u)" -eq 0 ] || sudo="sudo"
      echo "rowkit: installing ${missing[*]} with apt-get" >&2
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    ;;
esac
