package pipeline

import (
	"errors"

	"fmt"
	"sort"
	"strings"

	"github.com/open-markdown/ccrawl/extract"
)

// Skip kinds: why a WARC record did not become a row. Each stage counts its
// own; the summary is their sum, so it cannot disagree with the file.
const (
	SkipWarcinfo    = "warcinfo"
	SkipRequest     = "request"
	SkipMetadata    = "metadata"
	SkipOtherType   = "other_type" // resource, conversion, continuation...
	SkipRevisit     = "revisit"
	SkipNon200      = "non_200"
	SkipNonHTML     = "non_html"
	SkipCorrupt     = "corrupt"
	SkipEmpty       = "empty"   // the engine returned nothing
	SkipTimeout     = "timeout" // over --doc-timeout
	SkipExtractErr  = "extract_error"
	SkipDigestDup   = "digest_dropped"
	SkipLangDropped = "lang_dropped"
)

// skipOrder is the print order of the skip line.
var skipOrder = []string{SkipWarcinfo, SkipRequest, SkipMetadata, SkipOtherType, SkipRevisit, SkipNon200, SkipNonHTML, SkipCorrupt, SkipEmpty, SkipTimeout, SkipExtractErr, SkipDigestDup, SkipLangDropped}

// ShardStats are one shard's counters. Rows, HTMLBytes and MarkdownBytes
// are sums over the rows actually written.
type ShardStats struct {
	Records    int64            `json:"records"`    // WARC records read
	Candidates int64            `json:"candidates"` // HTTP 200 HTML responses
	Documents  int64            `json:"documents"`  // candidates with non-empty Markdown (before filters)
	Rows       int64            `json:"rows"`
	Skipped    map[string]int64 `json:"skipped_by_kind"`
	// Cut counts bodies longer than --max-record-bytes: they are extracted
	// from their first bytes and still become rows.
	Cut           int64            `json:"cut"`
	DigestDropped int64            `json:"digest_dropped"`
	LangDropped   int64            `json:"lang_dropped"`
	LangCounts    map[string]int64 `json:"lang_counts"` // documents by detected language, before --lang
	RowLangs      map[string]int64 `json:"row_langs"`   // rows written, by language`
	WARCBytes     int64            `json:"warc_bytes"`
	HTMLBytes     int64            `json:"html_bytes"`
	MarkdownBytes int64            `json:"md_bytes"`
	ParquetBytes  int64            `json:"parquet_bytes"`
	DownloadSecs  float64          `json:"download_s"`
	ExtractSecs   float64          `json:"extract_s"`
	WriteSecs     float64          `json:"write_s"`
	FetchSecs     float64          `json:"fetch_s,omitempty"`   // refetch: time in HTTP exchanges
	ConvertSecs   float64          `json:"convert_s,omitempty"` // refetch: extraction of fetched pages
	// Refetch only: failed fetches by class (they are rows too).
	FetchFailed map[string]int64 `json:"fetch_failed,omitempty"`
}

func (s *ShardStats) skip(kind string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int64{}
	}
	s.Skipped[kind]++
}

func (s *ShardStats) lang(code string) {
	if s.LangCounts == nil {
		s.LangCounts = map[string]int64{}
	}
	s.LangCounts[langKey(code)]++
}

func (s *ShardStats) rowLang(code string) {
	if s.RowLangs == nil {
		s.RowLangs = map[string]int64{}
	}
	s.RowLangs[langKey(code)]++
}

// wrote counts one row written to the file.
func (s *ShardStats) wrote(language string, htmlLen, mdLen int64) {
	s.Rows++
	s.rowLang(language)
	s.HTMLBytes += htmlLen
	s.MarkdownBytes += mdLen
}

// extractFailed counts a page whose extraction gave no row, by reason.
func (s *ShardStats) extractFailed(err error) {
	switch {
	case errors.Is(err, extract.ErrEmpty):
		s.skip(SkipEmpty)
	case errors.Is(err, extract.ErrTimeout):
		s.skip(SkipTimeout)
	default:
		s.skip(SkipExtractErr)
	}
}

// langKey names "could not tell" in counts.
func langKey(code string) string {
	if code == "" {
		return "und"
	}
	return code
}

// Add sums o into s.
func (s *ShardStats) Add(o ShardStats) {
	s.Records += o.Records
	s.Candidates += o.Candidates
	s.Documents += o.Documents
	s.Rows += o.Rows
	s.Cut += o.Cut
	s.DigestDropped += o.DigestDropped
	s.LangDropped += o.LangDropped
	s.WARCBytes += o.WARCBytes
	s.HTMLBytes += o.HTMLBytes
	s.MarkdownBytes += o.MarkdownBytes
	s.ParquetBytes += o.ParquetBytes
	s.DownloadSecs += o.DownloadSecs
	s.ExtractSecs += o.ExtractSecs
	s.WriteSecs += o.WriteSecs
	s.FetchSecs += o.FetchSecs
	s.ConvertSecs += o.ConvertSecs
	for k, v := range o.Skipped {
		if s.Skipped == nil {
			s.Skipped = map[string]int64{}
		}
		s.Skipped[k] += v
	}
	for k, v := range o.LangCounts {
		if s.LangCounts == nil {
			s.LangCounts = map[string]int64{}
		}
		s.LangCounts[k] += v
	}
	for k, v := range o.RowLangs {
		if s.RowLangs == nil {
			s.RowLangs = map[string]int64{}
		}
		s.RowLangs[k] += v
	}
	for k, v := range o.FetchFailed {
		if s.FetchFailed == nil {
			s.FetchFailed = map[string]int64{}
		}
		s.FetchFailed[k] += v
	}
}

// SkipLine renders the skip counts in a fixed order, zeros omitted.
func (s *ShardStats) SkipLine() string {
	var parts []string
	for _, k := range skipOrder {
		if v := s.Skipped[k]; v > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, v))
		}
	}
	var extra []string
	for k, v := range s.Skipped {
		if !contains(skipOrder, k) && v > 0 {
			extra = append(extra, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(extra)
	parts = append(parts, extra...)
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	line := "skipped: " + strings.Join(parts, " ")
	if s.Cut > 0 {
		line += fmt.Sprintf(" | cut to --max-record-bytes and kept: %d", s.Cut)
	}
	return line
}

// TopLanguages renders "eng=24266 fra=4165 ..." by count, then code.
func TopLanguages(counts map[string]int64, n int) string {
	type kv struct {
		k string
		v int64
	}
	var all []kv
	for k, v := range counts {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].k < all[j].k
	})
	var parts []string
	for i, e := range all {
		if n > 0 && i >= n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s=%d", e.k, e.v))
	}
	return strings.Join(parts, " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
