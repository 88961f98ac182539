#!/usr/bin/env bash
# Measure package lang against whatlanggo on lingua's test data:
# accuracy per set (and per language with -per-lang), precision/recall at
# the 0.8 confidence floor, Vietnamese precision/recall, throughput on
# 2 KB documents, and peak RSS. Extra arguments go to the Go program, e.g.
#   bench/langid/run.sh -per-lang -confusions 20
#   bench/langid/run.sh -langs ccrawl      # every language lang supports
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${LANGID_DATA:-$root/../shared/langid/lingua-testdata}
if [ ! -d "$data/sentences" ]; then
	echo "run.sh: no test data at $data (set LANGID_DATA)" >&2
	exit 1
fi
bin=$(mktemp -d)/langid
trap 'rm -rf "$(dirname "$bin")"' EXIT
(cd "$root" && go build -o "$bin" ./bench/langid)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f 'peak RSS: %M KiB, wall %e s' "$bin" -data "$data" "$@"
else
	"$bin" -data "$data" "$@"
fi
