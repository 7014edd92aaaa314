#!/usr/bin/env bash
# Installs what RowKit needs on a fresh machine, and nothing that is already there.
#   scripts/ensure-deps.sh          libcmark (the exporter's Markdown renderer) and libyaml (the
#                                   listing reader's YAML parser)
#   scripts/ensure-deps.sh --test   also Chromium, fonts, Playwright for Python (browser tests),
#                                   axe-core (axe-playwright-python: the accessibility checks),
#                                   valgrind, wrk (the live server's load test), python3 (the
#                                   attack corpus, the API, snippet and docs checks), node and
#                                   wasi-libc (the WebAssembly build of the C core and its tests),
#                                   and node-typescript (tsc: the type check of the pages'
#                                   JavaScript)
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: Homebrew. Playwright comes from PyPI
# into .build/browser-venv and drives the system's Chromium (no browser download).
#
# When another apt-get or dpkg holds the package manager's lock (unattended-upgrades on a fresh
# machine, say), apt-get waits for it (DPkg::Lock::Timeout) instead of failing, and a lock apt-get
# does not wait for itself (the package lists' lock of apt-get update) is tried again every
# ROWKIT_APT_RETRY_SECONDS (5) seconds; either way the script says it is waiting, for up to
# ROWKIT_APT_LOCK_TIMEOUT (600) seconds.
set -euo pipefail

apt_lock_timeout="${ROWKIT_APT_LOCK_TIMEOUT:-600}"
apt_retry_seconds="${ROWKIT_APT_RETRY_SECONDS:-5}"

# apt_get ARGS...: apt-get ARGS, waiting for the package manager's lock instead of failing.
apt_get() {
  local started=$SECONDS log status said=0
  log=$(mktemp)
  while true; do
    status=0
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$apt_lock_timeout" "$@" 2>"$log" \
      || status=$?
    if [ "$status" -ne 0 ] && grep -qE "Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock" "$log" \
        && [ $((SECONDS - started)) -lt "$apt_lock_timeout" ]; then
      if [ "$said" = 0 ]; then
        echo "rowkit: waiting for another apt-get or dpkg to finish (it holds the package manager's lock)…" >&2
        said=1
      fi
      sleep "$apt_retry_seconds"
      continue
    fi
    cat "$log" >&2
    rm -f "$log"
    return "$status"
  done
}

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
    if [ "$want_test_deps" = 1 ]; then
      command -v node >/dev/null 2>&1 || brew install node
      [ -f "$(brew --prefix)/share/wasi-sysroot/lib/wasm32-wasi/libc.a" ] || brew install wasi-libc
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
      command -v python3 >/dev/null 2>&1 || missing+=(python3)
      [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
      command -v node >/dev/null 2>&1 || missing+=(nodejs)
      # TypeScript's compiler, for the type check of the pages' JavaScript (tsc --checkJs).
      command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
      command -v wrk >/dev/null 2>&1 || missing+=(wrk)
      [ -f /usr/lib/wasm32-wasi/libc.a ] || missing+=(wasi-libc)
      # Liberation Sans: Arial's metrics, the sans-serif a Linux desktop falls back to, so the
      # pages are measured in a font as wide as the ones they are designed for.
      [ -e /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf ] || missing+=(fonts-liberation2)
      python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
      sudo=""
      [ "$(id -u)" -eq 0 ] || sudo="sudo"
      echo "rowkit: installing ${missing[*]} with apt-get" >&2
      apt_get update -qq
      apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    ;;
esac

# Playwright for Python, for the browser tests: a virtual environment in .build, made once.
if [ "$want_test_deps" = 1 ]; then
  venv="$(cd "$(dirname "$0")/.." && pwd)/.build/browser-venv"
  if ! "$venv/bin/python" -c 'import playwright' >/dev/null 2>&1; then
    echo "rowkit: installing Playwright for Python into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check playwright
  fi
  # axe-core (shipped inside axe-playwright-python), for the accessibility checks of every page.
  if ! "$venv/bin/python" -c 'import axe_playwright_python' >/dev/null 2>&1; then
    echo "rowkit: installing axe-playwright-python into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check axe-playwright-python
  fi
fi
