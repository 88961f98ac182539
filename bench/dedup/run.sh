#!/usr/bin/env bash
# bench/dedup/run.sh — time `ccrawl dedup` against a DuckDB scan of the same
# three columns on a shard-sized file, and the near pass on 10M random
# fingerprints. Prints the numbers side by side.
#
#   bench/dedup/run.sh                 # export ../shared/corpus/medium.warc.gz, grow to 21,000 rows
#   bench/dedup/run.sh FILE.parquet    # use an existing export (grown to ROWS if smaller)
#
# Environment: ROWS (21000), NEAR_ROWS (10000000), RUNS (3), WORK (temp dir,
# kept when given). DuckDB comes from a `duckdb` CLI on PATH or, failing that,
# the npm package @duckdb/node-api installed into WORK (never into the repo);
# without either the DuckDB column is skipped with a message.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
rows=${ROWS:-21000}
near_rows=${NEAR_ROWS:-10000000}
runs=${RUNS:-3}
if [[ -n "${WORK:-}" ]]; then
	work=$WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

echo "building ccrawl and dedupbench..." >&2
(cd "$root" && go build -o "$work/ccrawl" ./cmd/ccrawl && go build -o "$work/dedupbench" ./bench/dedup)

src=${1:-}
if [[ -z "$src" ]]; then
	warc="$root/../shared/corpus/medium.warc.gz"
	[[ -f "$warc" ]] || { echo "no input given and $warc missing" >&2; exit 1; }
	echo "exporting $warc (about a minute)..." >&2
	"$work/ccrawl" markdown export "$warc" --out "$work/export" --progress none >&2
	src=$(find "$work/export/data" -name '*.parquet' | head -n 1)
fi
file="$work/shard-$rows.parquet"
"$work/dedupbench" synth -in "$src" -out "$file" -rows "$rows"
size_mb=$(du -m "$file" | cut -f1)

# best (lowest) wall time of $runs runs; prints "wall user maxrss_kB"
best_of() {
	local best="" line
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$work/time.txt" -f "%e %U %M" "$@" >/dev/null 2>&1
		line=$(tail -n 1 "$work/time.txt")
		if [[ -z "$best" ]] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then
			best=$line
		fi
	done
	echo "$best"
}

echo "timing ccrawl dedup ($runs runs)..." >&2
"$work/ccrawl" dedup "$file" >&2
read -r cc_wall cc_user cc_rss < <(best_of "$work/ccrawl" dedup --top 0 "$file")
read -r cc_inproc _ < <("$work/dedupbench" run -runs "$runs" "$file")

query="SELECT count(*), sum(length(doc_id)), sum(length(markdown)), sum(simhash::HUGEINT) FROM read_parquet('$file')"
duck="skipped"
if command -v duckdb >/dev/null; then
	read -r d_wall d_user _ < <(best_of duckdb -c "$query")
	duck="$d_wall s wall, $d_user s CPU (duckdb CLI, incl. start-up)"
elif command -v npm >/dev/null && command -v node >/dev/null; then
	if [[ ! -d "$work/duckdb/node_modules/@duckdb/node-api" ]]; then
		echo "installing @duckdb/node-api into $work/duckdb..." >&2
		mkdir -p "$work/duckdb"
		(cd "$work/duckdb" && npm install --silent --no-audit --no-fund @duckdb/node-api >&2) || true
	fi
	if [[ -d "$work/duckdb/node_modules/@duckdb/node-api" ]]; then
		cat >"$work/duckdb/scan.mjs" <<-'EOF'
			import { DuckDBInstance } from '@duckdb/node-api';
			const [query, runs] = [process.argv[2], Number(process.argv[3])];
			const db = await DuckDBInstance.create(':memory:');
			const con = await db.connect();
			let best = Infinity;
			for (let i = 0; i < runs; i++) {
				const t = performance.now();
				const r = await con.runAndReadAll(query);
				r.getRows();
				best = Math.min(best, (performance.now() - t) / 1000);
			}
			const threads = String((await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0]);
			console.log(best.toFixed(3), threads);
		EOF
		read -r d_wall d_threads < <(cd "$work/duckdb" && node scan.mjs "$query" "$runs")
		duck="$d_wall s wall (node @duckdb/node-api, query only, $d_threads threads, warm)"
	else
		duck="skipped: npm install @duckdb/node-api failed"
	fi
else
	duck="skipped: no duckdb CLI and no node/npm"
fi

echo "timing the near pass on $near_rows random prints..." >&2
/usr/bin/time -o "$work/time.txt" -f "%e %U %M" "$work/dedupbench" near -n "$near_rows" -distance 3 >"$work/near.out"
near_line=$(tail -n 1 "$work/time.txt")
read -r n_wall n_user n_rss <<<"$near_line"

echo
echo "file: $rows rows, $size_mb MB ($file)"
printf '%-34s %s\n' "ccrawl dedup (whole report)" "$cc_wall s wall, $cc_user s CPU, max RSS $((cc_rss / 1024)) MB (process incl. start-up, best of $runs)"
printf '%-34s %s\n' "dedup.Run in-process" "$cc_inproc s wall (query only, warm, best of $runs)"
printf '%-34s %s\n' "DuckDB scan of the 3 columns" "$duck"
printf '%-34s %s\n' "near pass, $near_rows prints, d=3" "$n_wall s wall, $n_user s CPU, max RSS $((n_rss / 1024)) MB"
cat "$work/near.out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
