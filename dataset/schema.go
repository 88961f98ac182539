// Package dataset defines the Parquet schemas ccrawl writes
// (open-markdown-v3 for export, open-markdown-refetch-v1 for refetch) and
// the durable writer that puts one shard's rows into one file.
//
// It knows nothing about WARC, extraction or HTTP: rows come in fully
// formed. It deliberately offers no in-place update: a file is written once
// under a temporary name and renamed when complete.
package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
)

// Schema names, stored in each file's key-value metadata under MetaSchema.
const (
	SchemaExport  = "open-markdown-v3"
	SchemaRefetch = "open-markdown-refetch-v1"

	MetaSchema  = "ccrawl.schema"
	MetaVersion = "ccrawl.version"
	MetaCrawl   = "ccrawl.crawl"
	MetaShard   = "ccrawl.shard"
)

// Row is one open-markdown-v3 row. Field order is the column order.
type Row struct {
	DocID              string  `parquet:"doc_id"`
	URL                string  `parquet:"url"`
	Host               string  `parquet:"host,dict"`
	CrawlDate          string  `parquet:"crawl_date,dict"`
	WARCRecordID       string  `parquet:"warc_record_id"`
	HTMLLength         int64   `parquet:"html_length"`
	MarkdownLength     int64   `parquet:"markdown_length"`
	Markdown           string  `parquet:"markdown"`
	Language           string  `parquet:"language,dict"`
	LanguageConfidence float64 `parquet:"language_confidence"`
	Extractor          string  `parquet:"extractor,dict"`
	Simhash            uint64  `parquet:"simhash"`
}

// RefetchRow is one open-markdown-refetch-v1 row: the export's columns
// plus the live response. HTML is only filled with --fetch-only.
type RefetchRow struct {
	DocID              string  `parquet:"doc_id"`
	URL                string  `parquet:"url"`
	FinalURL           string  `parquet:"final_url"`
	Host               string  `parquet:"host,dict"`
	IPAddress          string  `parquet:"ip_address"`
	CrawlID            string  `parquet:"crawl_id,dict"`
	CrawlDate          string  `parquet:"crawl_date,dict"`
	WARCRecordID       string  `parquet:"warc_record_id"`
	FetchedAt          int64   `parquet:"fetched_at"`
	Status             int32   `parquet:"status"`
	ContentType        string  `parquet:"content_type,dict"`
	FetchDurationMS    int64   `parquet:"fetch_duration_ms"`
	TTFBMS             int64   `parquet:"ttfb_ms"`
	ETag               string  `parquet:"etag"`
	LastModified       string  `parquet:"last_modified"`
	RespHeaders        string  `parquet:"resp_headers"`
	BodyLength         int64   `parquet:"body_length"`
	Digest             string  `parquet:"digest"`
	HTMLLength         int64   `parquet:"html_length"`
	MarkdownLength     int64   `parquet:"markdown_length"`
	Markdown           string  `parquet:"markdown"`
	Language           string  `parquet:"language,dict"`
	LanguageConfidence float64 `parquet:"language_confidence"`
	Extractor          string  `parquet:"extractor,dict"`
	Simhash            uint64  `parquet:"simhash"`
	Error              string  `parquet:"error,dict"`
}

// RefetchRowHTML is RefetchRow plus the raw page, written by --fetch-only.
type RefetchRowHTML struct {
	RefetchRow
	HTML string `parquet:"html"`
}

// DocID is the row key shared by export and refetch: hex of the first 16
// bytes of SHA-256 of the URL, so the two datasets join on it.
func DocID(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:16])
}

// ShardPath is where a shard's file lives under an output (or repo) root:
// data/crawl=<CRAWL>/<NNNNNN>.parquet.
func ShardPath(root, crawl string, shard int) string {
	return filepath.Join(root, ShardRepoPath(crawl, shard))
}

// ShardRepoPath is ShardPath relative to the dataset root, with forward
// slashes (the same path is used in the Hub repo).
func ShardRepoPath(crawl string, shard int) string {
	return fmt.Sprintf("data/crawl=%s/%06d.parquet", crawl, shard)
}
