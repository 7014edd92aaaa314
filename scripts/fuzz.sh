#!/usr/bin/env bash
# Fuzzes RowKit with libFuzzer: the C core's offset tree and reuse pool, and the listing reader and
# exporter. Each target runs for SECONDS, one after the other (the machines are small).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   SECONDS per target: default $FUZZ_SECONDS, else 60
#   scripts/fuzz.sh --long [TARGET...]      600 s per target, for a longer local run
#   FUZZ_SECONDS=3600 scripts/fuzz.sh       the same through the environment
#   TARGET: offset_tree, reuse_pool, listing (default: all three)
#
# Builds (into .build-fuzz/, ignored by git):
#   offset_tree, reuse_pool  clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
#                            (offset_tree with -DRK_FAN=16: three inner levels within 8,192 items)
#                            -DRK_INTERNAL_CHECKS with CCore/*.c and Fuzz/<target>_fuzz.c
#   listing                  swift build --sanitize=fuzzer --sanitize=address of the package in
#                            Fuzz/listing (the first build compiles all of RowKit: about two
#                            minutes on two busy cores; later builds take seconds)
#
# Each target runs on .build-fuzz/corpus/<target>/, a copy of its committed seeds in
# Fuzz/corpus/<target>/ that keeps what libFuzzer adds between local runs; the committed corpus
# never grows here. Findings (crash, leak, timeout, out of memory) are written to
# .build-fuzz/artifacts/<target>/; the full output of each run is .build-fuzz/logs/<target>.log.
# Reproduce a finding by running the target binary on it, e.g.
#   .build-fuzz/offset_tree_fuzz .build-fuzz/artifacts/offset_tree/crash-<sha1>
# A failed run also prints libFuzzer's seed and, for a finding up to 64 KiB, the finding itself in
# base64 with the command that rebuilds and replays it, so a CI log alone is enough.
#
# Prints one summary line per target ("fuzz: offset_tree 1234567 runs in 60 s, ok") and exits 0 when
# every target ran clean, 1 on any finding, 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
if [ "${1:-}" = "--long" ]; then
  seconds=600
  shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  seconds="$1"
  shift
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS | --long] [offset_tree | reuse_pool | listing ...]" >&2
  exit 2
fi
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(offset_tree reuse_pool listing)
for target in "${targets[@]}"; do
  case "$target" in
    offset_tree | reuse_pool | listing) ;;
    *) echo "fuzz: unknown target $target (offset_tree, reuse_pool, listing)" >&2; exit 2 ;;
  esac
done

OUT=.build-fuzz
mkdir -p "$OUT/logs"
CC="${CC:-clang}"

# Runs a build command with its output in a log, which is shown only if the build fails.
build() { # build NAME COMMAND...
  local name="$1" log="$OUT/logs/build-$1.log"
  shift
  echo "fuzz: building $name"
  if ! "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz: building $name failed (full log: $log)" >&2
    exit 2
  fi
}

binary_of() { # binary_of TARGET: where the target's fuzzer executable is
  if [ "$1" = listing ]; then
    echo "$OUT/listing-bin/rowkit-fuzz-listing"
  else
    echo "$OUT/$1_fuzz"
  fi
}

for target in "${targets[@]}"; do
  if [ "$target" = listing ]; then
    swift_flags=(--sanitize=fuzzer --sanitize=address --package-path Fuzz/listing
                 --scratch-path "$OUT/listing")
    build listing swift build "${swift_flags[@]}"
    ln -sfn "$(swift build "${swift_flags[@]}" --show-bin-path)" "$OUT/listing-bin"
  else
    # The offset tree is fuzzed with inner nodes of 16 children (see CCore/rk_internal.h), so
    # inputs of a few thousand items reach three inner levels and every merge and split path.
    shape=()
    [ "$target" = offset_tree ] && shape=(-DRK_FAN=16 -DRK_INNER_MIN=4 -DRK_INNER_FILL=14)
    build "$target" "$CC" -std=c11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer \
      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fuse-ld=lld \
      -DRK_INTERNAL_CHECKS "${shape[@]}" -ICCore/include CCore/*.c "Fuzz/${target}_fuzz.c" -lm \
      -o "$(binary_of "$target")"
  fi
done

failed=0
summary=()
for target in "${targets[@]}"; do
  corpus="$OUT/corpus/$target" artifacts="$OUT/artifacts/$target" log="$OUT/logs/$target.log"
  rm -rf "$OUT/tmp/$target"
  mkdir -p "$corpus" "$artifacts" "$OUT/tmp/$target"
  cp Fuzz/corpus/"$target"/* "$corpus"/
  before=$(find "$artifacts" -type f | wc -l)
  echo "fuzz: running $target for $seconds s"
  status=0
  # TMPDIR keeps the listing target's work folders inside the build folder.
  TMPDIR="$PWD/$OUT/tmp/$target" "$(binary_of "$target")" "$corpus" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  after=$(find "$artifacts" -type f | wc -l)
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1 || true)
  if [ "$status" -eq 0 ] && [ "$after" -eq "$before" ] && [ -n "$done_line" ]; then
    read -r _ runs _ _ took _ <<<"$done_line"
    summary+=("fuzz: $target $runs runs in $took s, ok")
  else
    failed=1
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)
    artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    grep -E 'ERROR|SUMMARY|_fuzz: step|Fatal error|deadly signal' "$log" | head -n 20 >&2 || true
    seed=$(sed -n 's/^INFO: Seed: \([0-9]*\).*/\1/p' "$log" | head -n 1)
    summary+=("fuzz: $target FAILED (exit $status) after ${runs:-0} runs (-seed=${seed:-?}):"
              "  ${artifact:-no artifact}, log $log")
    # A CI machine's files are gone after the run: print a small finding so that it can be rebuilt
    # from the log alone.
    if [ -n "$artifact" ] && [ -f "$artifact" ] && [ "$(wc -c <"$artifact")" -le 65536 ]; then
      summary+=("  reproduce: base64 -d >finding <<'EOF' && $(binary_of "$target") finding"
                "$(base64 -w 76 "$artifact")" "EOF")
    fi
  fi
done

printf '%s\n' "${summary[@]}"
exit "$failed"
