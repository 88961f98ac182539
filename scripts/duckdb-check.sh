#!/usr/bin/env bash
# Reads ccrawl Parquet files with DuckDB and checks the open-markdown-v3
# columns and types and the row count.
#
#   scripts/duckdb-check.sh out/data/crawl=local/000000.parquet [EXPECTED_ROWS]
#
# DuckDB comes from a `duckdb` CLI on PATH or, failing that, the npm package
# @duckdb/node-api installed into ${CCRAWL_DUCKDB_DIR:-$TMPDIR/ccrawl-duckdb}
# (never into the repo).
set -euo pipefail
file=${1:?usage: $0 FILE.parquet [EXPECTED_ROWS]}
want_rows=${2:-}
expected='doc_id VARCHAR
url VARCHAR
host VARCHAR
crawl_date VARCHAR
warc_record_id VARCHAR
html_length BIGINT
markdown_length BIGINT
markdown VARCHAR
language VARCHAR
language_confidence DOUBLE
extractor VARCHAR
simhash UBIGINT'
q_desc="SELECT column_name || ' ' || column_type FROM (DESCRIBE SELECT * FROM read_parquet('$file', hive_partitioning = false))"
q_count="SELECT count(*) FROM read_parquet('$file', hive_partitioning = false)"
if command -v duckdb >/dev/null; then
  got=$(duckdb -noheader -list -c "$q_desc")
  rows=$(duckdb -noheader -list -c "$q_count")
else
  dir=${CCRAWL_DUCKDB_DIR:-${TMPDIR:-/tmp}/ccrawl-duckdb}
  if [ ! -d "$dir/node_modules/@duckdb/node-api" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --silent --no-audit --no-fund @duckdb/node-api >&2)
  fi
  cat > "$dir/q.mjs" <<'JS'
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(process.argv[2]);
for (const row of r.getRows()) console.log(row.map(String).join(' '));
JS
  got=$(cd "$dir" && node q.mjs "$q_desc")
  rows=$(cd "$dir" && node q.mjs "$q_count")
fi
if [ "$got" != "$expected" ]; then
  echo "columns differ from open-markdown-v3:"; diff <(echo "$expected") <(echo "$got") || true
  exit 1
fi
echo "DuckDB reads $file: 12 columns as open-markdown-v3, $rows rows"
if [ -n "$want_rows" ] && [ "$rows" != "$want_rows" ]; then
  echo "expected $want_rows rows"; exit 1
fi
