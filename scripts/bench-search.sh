#!/usr/bin/env bash
# What the search index costs an export, beside Hugo, on two listings, side by side in one run:
#
#   scripts/bench-search.sh [ROWS] [RUNS]     default: 100000 rows, 3 runs of each (interleaved)
#
# The listings: `rowkit generate-example --kind bodies` (the rows of scripts/bench-hugo.sh), and
# one that generator did not make, from scripts/varied-listing.py (explicit ids, made-up words of
# Zipf-like frequencies, a Markdown body under each row). Each is exported by `rowkit export`
# with the search index and with `--no-search`, and rendered by Hugo as one page that runs
# `markdownify` on each body (the layout of bench-hugo.sh); every run writes a fresh folder after
# `sync`, the three interleaved. Prints the median seconds, the ratios, and the files and bytes of
# the search index. Installs Debian's hugo with apt-get when it is missing; builds rowkit in release.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build.sh

rows="${1:-100000}"
runs="${2:-3}"
if ! [[ "$rows" =~ ^[0-9]+$ && "$runs" =~ ^[0-9]+$ ]] || [ "$rows" -lt 1 ] || [ "$runs" -lt 1 ]; then
  echo "usage: scripts/bench-search.sh [ROWS] [RUNS]" >&2
  exit 2
fi

scripts/ensure-deps.sh
if ! command -v hugo >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "bench-search: installing hugo with apt-get" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends hugo >/dev/null
fi

echo "bench-search: building rowkit (release)" >&2
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product rowkit >/dev/null
rowkit="$PWD/.build/release/rowkit"

work=$(mktemp -d "${TMPDIR:-/tmp}/rowkit-bench-search.XXXXXX")
trap 'rm -rf "$work"; sync' EXIT
echo "bench-search: generating $rows rows of each listing in $work" >&2
for name in generated varied; do
  mkdir -p "$work/$name/hugo/data" "$work/$name/hugo/layouts"
  cat >"$work/$name/hugo/config.toml" <<'EOF'
baseURL = "http://example.org/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]
EOF
  cat >"$work/$name/hugo/layouts/index.html" <<'EOF'
<!doctype html><html><body>{{ range .Site.Data.rows.sections }}<h2>{{ .header }}</h2><ul>{{ range .rows }}<li><b>{{ .text }}</b> <span>{{ .detail }}</span><div>{{ .body | markdownify }}</div></li>{{ end }}</ul>{{ end }}</body></html>
EOF
done
"$rowkit" generate-example --kind bodies --rows "$rows" --format yaml -o "$work/generated/rows.yaml"
"$rowkit" generate-example --kind bodies --rows "$rows" --format json -o "$work/generated/hugo/data/rows.json"
python3 scripts/varied-listing.py "$rows" "$work/varied/rows.yaml" "$work/varied/hugo/data/rows.json"

now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f\n", a - b }'; }
calc() { awk "BEGIN { printf \"%.6f\\n\", $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A times
for run in $(seq 1 "$runs"); do
  for name in generated varied; do
    echo "bench-search: $name, run $run of $runs" >&2
    dir="$work/$name"
    sync; start=$(now); hugo --quiet -s "$dir/hugo" -d "$dir/hugo-out-$run" >/dev/null
    times[$name-hugo]+="$(elapsed "$start") "
    sync; start=$(now); "$rowkit" export "$dir/rows.yaml" -o "$dir/site-$run" -q
    times[$name-search]+="$(elapsed "$start") "
    sync; start=$(now); "$rowkit" export "$dir/rows.yaml" -o "$dir/plain-$run" -q --no-search
    times[$name-plain]+="$(elapsed "$start") "
  done
done

echo
echo "$rows rows, median of $runs runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(hugo version | cut -d' ' -f1-2), rowkit $("$rowkit" --version)"
printf '%-10s %9s %9s %9s %9s %9s %9s %8s %8s %10s\n' listing hugo export no-search "search x" "hugo x" "nosrch x" files "site" "search MB"
for name in generated varied; do
  hugo_s=$(printf '%s\n' ${times[$name-hugo]} | median)
  search_s=$(printf '%s\n' ${times[$name-search]} | median)
  plain_s=$(printf '%s\n' ${times[$name-plain]} | median)
  files=$(find "$work/$name/site-1/search" -type f | wc -l)
  sitefiles=$(find "$work/$name/site-1" -type f | wc -l)
  bytes=$(du -sb "$work/$name/site-1/search" | cut -f1)
  printf '%-10s %8.2fs %8.2fs %8.2fs %8.2fx %8.2fx %8.2fx %8d %8d %10.1f\n' "$name" "$hugo_s" "$search_s" "$plain_s" \
    "$(calc "$search_s / $plain_s")" "$(calc "$hugo_s / $search_s")" "$(calc "$hugo_s / $plain_s")" "$files" "$sitefiles" \
    "$(calc "$bytes / 1000000")"
  echo "  runs (s): hugo ${times[$name-hugo]}; export ${times[$name-search]}; --no-search ${times[$name-plain]}"
done
echo "(search x: export with the index / without; hugo x: Hugo's time / the export's; files: the search/ folder's; site: every file of the site)"
