// Package commoncrawl talks to Common Crawl's public endpoints: it reads a
// crawl's file manifest (warc.paths.gz / wet.paths.gz), finds the newest crawl
// from the index server's collinfo.json, and downloads shard files to disk,
// resuming with HTTP Range and retrying with backoff when the connection or
// the server misbehaves.
//
// A shard number is the file's 0-based position in the crawl's manifest, not
// the number in its file name: the manifest is the one list Common Crawl
// publishes per crawl, its order never changes once published, and positions
// are dense 0..N-1, so "shards 0-9" means the same ten files on every machine
// and a sharded job can split the work by arithmetic. The number in a file
// name carries no such promise (nothing guarantees it is dense or unique
// across a crawl's segments, and older crawls name files differently), so
// ShardNumberFromName exists only to label files.
//
// The package deliberately knows nothing about WARC contents, Parquet,
// pipelines, progress bars or flags: it moves bytes and resolves names.
// Environment variables (CCRAWL_BASE_URL and friends) are read by the CLI,
// never here, so every network call goes where the caller's Client points.
package commoncrawl
