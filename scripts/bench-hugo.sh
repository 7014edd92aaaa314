#!/usr/bin/env bash
# Times `rowkit export` against Hugo on the same rows, side by side in one run, so the README's
# figure can be reproduced.
#
#   scripts/bench-hugo.sh [ROWS] [RUNS]     default: 100000 rows, 3 runs of each (interleaved)
#
# The rows (26 sections; per row a text, a detail and a five-line Markdown body with a heading,
# emphasis, a link, a list and code) are generated once by `rowkit generate-example --kind bodies`:
# as a YAML listing for rowkit and, the same rows, as a JSON data file for Hugo (JSON is Hugo's
# fastest data format). Hugo renders one page that ranges over the rows and runs `markdownify` on
# each body (`hugo --quiet`). rowkit exports the YAML listing with each body shown under its row
# (pages of 500 rows), and once more with a detail page per row (the listing format's default for
# a row with a body: 100,000 more files), and re-exports it unchanged. Every run writes a fresh
# folder (removing 100,000 files just before creating as many slows some file systems down), and
# each timed command starts after `sync`, so that the kernel's writing back of the files the
# command before made (100,000 detail pages, say) does not land in its time. Neither tool syncs.
#
# Prints the median seconds of each, rows per second and the ratios. Installs Debian's hugo with
# apt-get when it is missing; builds rowkit in release.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh

rows="${1:-100000}"
runs="${2:-3}"
if ! [[ "$rows" =~ ^[0-9]+$ && "$runs" =~ ^[0-9]+$ ]] || [ "$rows" -lt 1 ] || [ "$runs" -lt 1 ]; then
  echo "usage: scripts/bench-hugo.sh [ROWS] [RUNS]" >&2
  exit 2
fi

scripts/ensure-deps.sh
if ! command -v hugo >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "bench-hugo: installing hugo with apt-get" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends hugo >/dev/null
fi

echo "bench-hugo: building rowkit (release)" >&2
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product rowkit >/dev/null
rowkit="$PWD/.build/release/rowkit"

work=$(mktemp -d "${TMPDIR:-/tmp}/rowkit-bench-hugo.XXXXXX")
# The clean-up removes some 300,000 files. On ext4 without a journal (this machine's root file
# system) the kernel then passes over recently freed inodes when it creates files, for 60 s once
# their inode tables are written back and up to 300 s before, so a run started within minutes of
# another creates files several times slower; `sync` starts the shorter wait.
trap 'rm -rf "$work"; sync' EXIT
echo "bench-hugo: generating $rows rows in $work" >&2
"$rowkit" generate-example --kind bodies --rows "$rows" --format yaml -o "$work/rows.yaml"
"$rowkit" generate-example --kind bodies --rows "$rows" --format yaml --detail-pages -o "$work/detail.yaml"
mkdir -p "$work/hugo/data" "$work/hugo/layouts"
"$rowkit" generate-example --kind bodies --rows "$rows" --format json -o "$work/hugo/data/rows.json"
cat >"$work/hugo/config.toml" <<'EOF'
baseURL = "http://example.org/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]
EOF
cat >"$work/hugo/layouts/index.html" <<'EOF'
<!doctype html><html><body>{{ range .Site.Data.rows.sections }}<h2>{{ .header }}</h2><ul>{{ range .rows }}<li><b>{{ .text }}</b> <span>{{ .detail }}</span><div>{{ .body | markdownify }}</div></li>{{ end }}</ul>{{ end }}</body></html>
EOF

now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f\n", a - b }'; }
calc() { awk "BEGIN { printf \"%.6f\\n\", $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

hugo_times=() rowkit_times=() detail_times=() unchanged_times=()
for run in $(seq 1 "$runs"); do
  echo "bench-hugo: run $run of $runs" >&2
  sync; start=$(now); hugo --quiet -s "$work/hugo" -d "$work/hugo-out-$run" >/dev/null; hugo_times+=("$(elapsed "$start")")
  sync; start=$(now); "$rowkit" export "$work/rows.yaml" -o "$work/site-$run" -q; rowkit_times+=("$(elapsed "$start")")
  sync; start=$(now); "$rowkit" export "$work/rows.yaml" -o "$work/site-$run" -q; unchanged_times+=("$(elapsed "$start")")
  sync; start=$(now); "$rowkit" export "$work/detail.yaml" -o "$work/detail-$run" -q; detail_times+=("$(elapsed "$start")")
done

hugo_s=$(printf '%s\n' "${hugo_times[@]}" | median)
rowkit_s=$(printf '%s\n' "${rowkit_times[@]}" | median)
unchanged_s=$(printf '%s\n' "${unchanged_times[@]}" | median)
detail_s=$(printf '%s\n' "${detail_times[@]}" | median)
line() { # line NAME SECONDS
  printf '%-46s %8.2f s %10.0f rows/s %7.2fx Hugo\n' "$1" "$2" "$(calc "$rows / $2")" "$(calc "$hugo_s / $2")"
}
echo
echo "$rows rows, median of $runs runs, $(nproc) cores, $(hugo version | cut -d' ' -f1-2), rowkit $("$rowkit" --version)"
line "hugo, one page, markdownify" "$hugo_s"
line "rowkit export, bodies under the rows" "$rowkit_s"
line "rowkit export, a detail page per row" "$detail_s"
printf '%-46s %8.2f s   (%.0f%% of the full export)\n' "rowkit export again, unchanged" "$unchanged_s" \
  "$(calc "100 * $unchanged_s / $rowkit_s")"
echo "runs (s): hugo ${hugo_times[*]}; rowkit ${rowkit_times[*]}; detail pages ${detail_times[*]}; unchanged ${unchanged_times[*]}"
