#!/usr/bin/env bash
# Extraction quality and one-worker speed on go-trafilatura's 983-page
# benchmark, through the whole export.
#
#   bench/extract.sh [-e ENGINE]
#
# Uses ../shared/tools/extractbench: `warc` builds a WARC of the benchmark
# pages at their real URLs, the export runs on it with one worker, `score`
# prints precision/recall/F with the benchmark's snippet scoring (Markdown
# reduced to its text), `unseen` the share of pages with words that are not
# in the page. Then plain go-trafilatura Extract runs over the same pages
# with one worker for the speed ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=trafilatura
while getopts "e:" opt; do
  case $opt in
    e) engine=$OPTARG ;;
    *) echo "usage: $0 [-e ENGINE]" >&2; exit 2 ;;
  esac
done
eb=../shared/tools/extractbench
if [ ! -d "$eb" ]; then
  echo "bench/extract.sh: $eb not found (../shared must sit beside the checkout); skipping" >&2
  exit 0
fi
dir=${CCRAWL_BENCH_DIR:-${TMPDIR:-/tmp}/ccrawl-bench}/extract
mkdir -p "$dir"
root=$PWD
(cd "$eb" && go build -o "$dir/extractbench" .)
go build -o "$dir/ccrawl" ./cmd/ccrawl
go build -o "$dir/trafloop" ./bench/trafloop
gold=$(cd "$eb" && pwd)/gold.json
[ -s "$dir/pages.warc.gz" ] || "$dir/extractbench" warc -gold "$gold" -o "$dir/pages.warc.gz" >&2

rm -rf "$dir/out"
start=$(date +%s.%N)
"$dir/ccrawl" markdown export "$dir/pages.warc.gz" --out "$dir/out" --workers 1 --extractor "$engine" --progress none | tee "$dir/export.txt"
end=$(date +%s.%N)
out=$(ls "$dir"/out/data/*/*.parquet)
cands=$(jq -s 'map(select(.event=="end"))[-1].candidates' "$dir/out/run.jsonl")
export_pps=$(echo "$cands / ($end - $start)" | bc -l)
echo "== quality ($engine)"
"$dir/extractbench" score -gold "$gold" "$out"
"$dir/extractbench" unseen -gold "$gold" "$out" > "$dir/unseen.txt"; head -1 "$dir/unseen.txt"
echo "== speed, one worker"
printf 'export --workers 1: %d pages in %.1fs = %.1f pages/s (whole process: read, decode, extract, identify, fingerprint, write)\n' "$cands" "$(echo "$end - $start" | bc -l)" "$export_pps"
"$dir/trafloop" -workers 1 "$dir/pages.warc.gz" | tee "$dir/trafloop.txt"
base_pps=$(sed -n 's/.*: \([0-9.]*\) pages\/s.*/\1/p' "$dir/trafloop.txt")
printf 'ratio export/plain Extract (one worker): %.2f\n' "$(echo "$export_pps / $base_pps" | bc -l)"
