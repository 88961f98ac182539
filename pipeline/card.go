package pipeline

import (
	"sort"

	"github.com/open-markdown/ccrawl/hub"
)

// ExportColumns documents the open-markdown-v3 columns for the card.
var ExportColumns = []hub.Column{
	{Name: "doc_id", Type: "string", Meaning: "hex of the first 16 bytes of SHA-256 of the URL; joins export and refetch"},
	{Name: "url", Type: "string", Meaning: "WARC-Target-URI of the capture"},
	{Name: "host", Type: "string", Meaning: "lower-cased host name of the URL"},
	{Name: "crawl_date", Type: "string", Meaning: "capture date (YYYY-MM-DD, UTC) from WARC-Date"},
	{Name: "warc_record_id", Type: "string", Meaning: "WARC-Record-ID of the response record"},
	{Name: "html_length", Type: "int64", Meaning: "bytes of the HTTP payload before conversion"},
	{Name: "markdown_length", Type: "int64", Meaning: "bytes of the markdown column"},
	{Name: "markdown", Type: "string", Meaning: "main content as GitHub-flavoured Markdown"},
	{Name: "language", Type: "string", Meaning: "ISO 639-3 code detected on the Markdown (empty: too little text to tell)"},
	{Name: "language_confidence", Type: "double", Meaning: "confidence of the language label, 0 to 1"},
	{Name: "extractor", Type: "string", Meaning: "engine@version that produced the Markdown"},
	{Name: "simhash", Type: "uint64", Meaning: "64-bit simhash of 3-word shingles of the Markdown (0: no text); stored, not acted on"},
}

// RefetchColumns documents the open-markdown-refetch-v1 columns.
var RefetchColumns = []hub.Column{
	{Name: "doc_id", Type: "string", Meaning: "same key as the export: joins on it"},
	{Name: "url", Type: "string", Meaning: "URL from the original capture"},
	{Name: "final_url", Type: "string", Meaning: "URL after redirects"},
	{Name: "host", Type: "string", Meaning: "lower-cased host name of the URL"},
	{Name: "ip_address", Type: "string", Meaning: "address the page was fetched from"},
	{Name: "crawl_id", Type: "string", Meaning: "crawl of the original record"},
	{Name: "crawl_date", Type: "string", Meaning: "capture date of the original record"},
	{Name: "warc_record_id", Type: "string", Meaning: "WARC-Record-ID of the original record"},
	{Name: "fetched_at", Type: "int64", Meaning: "Unix milliseconds of the live fetch"},
	{Name: "status", Type: "int32", Meaning: "HTTP status of the final response (0: no response)"},
	{Name: "content_type", Type: "string", Meaning: "Content-Type of the final response"},
	{Name: "fetch_duration_ms", Type: "int64", Meaning: "whole fetch, milliseconds"},
	{Name: "ttfb_ms", Type: "int64", Meaning: "time to first byte, milliseconds"},
	{Name: "etag", Type: "string", Meaning: "ETag header"},
	{Name: "last_modified", Type: "string", Meaning: "Last-Modified header"},
	{Name: "resp_headers", Type: "string", Meaning: "status line and headers as received"},
	{Name: "body_length", Type: "int64", Meaning: "bytes of the response body"},
	{Name: "digest", Type: "string", Meaning: "SHA-1 hex of the raw body"},
	{Name: "html_length", Type: "int64", Meaning: "bytes of HTML converted (HTML responses only)"},
	{Name: "markdown_length", Type: "int64", Meaning: "bytes of the markdown column"},
	{Name: "markdown", Type: "string", Meaning: "main content as GitHub-flavoured Markdown"},
	{Name: "language", Type: "string", Meaning: "ISO 639-3 code detected on the Markdown"},
	{Name: "language_confidence", Type: "double", Meaning: "confidence of the language label"},
	{Name: "extractor", Type: "string", Meaning: "engine@version"},
	{Name: "simhash", Type: "uint64", Meaning: "64-bit simhash of the Markdown (0: no text)"},
	{Name: "error", Type: "string", Meaning: "failure class (dns, timeout, refused, reset, tls, http_status, too_large, robots, other); empty on success"},
}

// CardInfo is the part of a dataset card that does not come from counting.
type CardInfo struct {
	Repo        string
	Schema      string
	Columns     []hub.Column
	Extractor   string
	ToolVersion string
	Filters     []string
}

// Card sums ledger entries (the files that exist) into a dataset card.
func Card(info CardInfo, entries []LedgerEntry) hub.CardData {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	t := hub.Totals{Languages: map[string]int64{}}
	crawls := map[string]bool{}
	for _, e := range entries {
		t.Rows += e.Rows
		t.Shards++
		t.ParquetBytes += e.Bytes
		t.DigestDropped += e.DigestDropped
		for k, v := range e.RowLangs {
			t.Languages[k] += v
		}
		if e.Crawl != "" {
			crawls[e.Crawl] = true
		}
	}
	var cl []string
	for c := range crawls {
		cl = append(cl, c)
	}
	sort.Strings(cl)
	return hub.CardData{
		Repo: info.Repo, Schema: info.Schema, Columns: info.Columns, Extractor: info.Extractor,
		ToolVersion: info.ToolVersion, Filters: info.Filters, Crawls: cl, Totals: t,
	}
}
