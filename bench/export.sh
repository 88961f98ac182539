#!/usr/bin/env bash
# Export benchmark on a full-size (21,000-capture) Common Crawl-style shard.
#
#   bench/export.sh [-w WORKERS] [-n PAGES]
#
# Generates the shard once with ../shared/tools/ccgen (cached in
# ${CCRAWL_BENCH_DIR:-$TMPDIR/ccrawl-bench}), then prints in one run: plain
# klauspost gunzip time, WARC read-all-records time, export time with the
# default engine, pages/s, MB/s of HTML, peak RSS, and the ratio of export
# pages/s to a loop calling plain go-trafilatura Extract on the same pages
# with the same worker count. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=$(nproc)
while getopts "w:" opt; do
  case $opt in
    w) workers=$OPTARG ;;
    *) echo "usage: $0 [-w WORKERS]" >&2; exit 2 ;;
  esac
done
ccgen=../shared/tools/ccgen/ccgen.sh
if [ ! -x "$ccgen" ]; then
  echo "bench/export.sh: $ccgen not found (../shared must sit beside the checkout); skipping" >&2
  exit 0
fi
dir=${CCRAWL_BENCH_DIR:-${TMPDIR:-/tmp}/ccrawl-bench}
mkdir -p "$dir"
shard=$dir/shard.warc.gz
if [ ! -s "$shard" ]; then
  echo "generating the 21,000-capture shard in $shard (a few minutes)..." >&2
  "$ccgen" -preset shard -out "$shard" >&2
fi
go build -o "$dir/ccrawl" ./cmd/ccrawl
go build -o "$dir/warcread" ./bench/warcread
go build -o "$dir/trafloop" ./bench/trafloop

echo "== shard: $shard ($(du -hL "$shard" | cut -f1))"
echo "== gunzip vs WARC read-all"
"$dir/warcread" "$shard"

echo "== export, default engine, --workers $workers"
out=$dir/out
rm -rf "$out"
/usr/bin/env time -v "$dir/ccrawl" markdown export "$shard" --out "$out" --workers "$workers" --progress none \
  > "$dir/export.txt" 2> "$dir/export.time" || { cat "$dir/export.txt" "$dir/export.time"; exit 1; }
cat "$dir/export.txt"
elapsed=$(jq -s 'map(select(.event=="end"))[-1].elapsed_s' "$out/run.jsonl")
rows=$(jq -s 'map(select(.event=="end"))[-1].rows' "$out/run.jsonl")
cands=$(jq -s 'map(select(.event=="end"))[-1].candidates' "$out/run.jsonl")
html=$(jq -s 'map(select(.event=="end"))[-1].html_bytes' "$out/run.jsonl")
rss_kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}' "$dir/export.time")
export_pps=$(echo "$cands / $elapsed" | bc -l)
printf 'export: %d HTML pages (%d rows) in %.1fs = %.1f pages/s, %.1f MB/s of HTML, peak RSS %.0f MB\n' \
  "$cands" "$rows" "$elapsed" "$export_pps" "$(echo "$html / 1000000 / $elapsed" | bc -l)" "$(echo "$rss_kb / 1024" | bc -l)"

echo "== plain go-trafilatura Extract, $workers workers"
"$dir/trafloop" -workers "$workers" "$shard" | tee "$dir/trafloop.txt"
base_pps=$(sed -n 's/.*: \([0-9.]*\) pages\/s.*/\1/p' "$dir/trafloop.txt")
printf 'ratio export/plain Extract: %.2f\n' "$(echo "$export_pps / $base_pps" | bc -l)"
